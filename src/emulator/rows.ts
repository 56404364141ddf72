// Walks the rows of a query in the requested order and feeds them to a writer, yielding text in
// chunks: rows are generated while the response is being sent (the stream's backpressure paces us).
// No synchronous slice runs long: after SLICE_MS of work the walk yields what it has and lets the event
// loop run (other requests are answered meanwhile), even when few rows are visible (a sparse report).
import type { OutputFrequency } from '../core/api/types';
import { PERIOD_MS } from '../core/api/types';
import { type Aggregator, type CompiledMetric, RowValues } from './aggregates';
import { MINUTE_MS } from './clock';
import { measuredAt } from './generator';
import type { RowTextCache } from './row-cache';
import type { Datasource } from './world';
import * as world from './world';

// Bound once: under a CommonJS transform (tsx in tests) named imports are getters read on every use,
// which costs more than the work in these per-value loops.
const { isSubscribed } = world;

export interface RowPlan {
  datasources: readonly Datasource[];
  frequency: OutputFrequency;
  /** First period start (inclusive) and the bound on period starts (exclusive). */
  from: number;
  to: number;
  metrics: readonly CompiledMetric[];
  /** dataVersion v2026-11-10: QC-invalid values left out of NowCasts and 24-hour rolling means. */
  qcVersion: boolean;
  /** Recent query: newest first across all datasources. Reports: per datasource, oldest first. */
  order: 'time-desc' | 'datasource-time-asc';
  /** Minute output: only measurements taken at or after `notBefore` and before `before` (their times are irregular). */
  notBefore?: number;
  before?: number;
}

export interface RowWriter {
  /** Identifies everything the row text depends on besides (datasource, period); undefined: don't cache. */
  readonly shape?: string;
  header(): string | Uint8Array;
  /** Text of one row, a pure function of its arguments (empty when the writer collects instead). */
  row(ds: Datasource, periodStart: number, values: RowValues): string;
  /** Bookkeeping for a row about to be sent; returns the text to send (e.g. with a separator). */
  emit?(ds: Datasource, periodStart: number, text: string): string;
  /** May be asynchronous: a writer that builds its file at the end yields between its pieces. */
  footer(): string | Uint8Array | Promise<Uint8Array>;
}

const CHUNK_CHARS = 256 * 1024;
/** Longest synchronous stretch of row walking before the event loop gets a turn. */
const SLICE_MS = 10;
/** Loop steps between two looks at the timer: a minute row is cheaper than reading it, an aggregate is not. */
const STEPS_PER_CHECK: Record<OutputFrequency, number> = { minute: 32, hour: 1, day: 1 };

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A period is visible to the org only when the datasource was subscribed throughout it. */
export function periodVisible(ds: Datasource, start: number, periodMs: number): boolean {
  const subs = ds.subscriptions;
  if (subs.length === 1 && subs[0][0] === Number.NEGATIVE_INFINITY && subs[0][1] === Number.POSITIVE_INFINITY)
    return true;
  if (periodMs === MINUTE_MS) return isSubscribed(ds, start);
  for (let i = 0; i < subs.length; i++) if (subs[i][0] <= start && subs[i][1] >= start + periodMs) return true;
  return false;
}

export async function* streamRows(
  plan: RowPlan,
  writer: RowWriter,
  aggregator: Aggregator,
  cache?: RowTextCache,
): AsyncGenerator<string | Uint8Array> {
  yield writer.header();
  const emit = rowEmitter(plan, writer, aggregator, cache);
  const walk = walkOrder(plan);
  const slice = new Slice(STEPS_PER_CHECK[plan.frequency]);
  let buf = '';
  while (walk.next()) {
    buf += emit(walk.ds, walk.t);
    const over = slice.over();
    if (buf.length >= CHUNK_CHARS || (over && buf)) {
      yield buf;
      buf = '';
    }
    if (over) {
      await nextTurn();
      slice.restart();
    }
  }
  if (buf) yield buf;
  yield await writer.footer();
}

/** The text one (datasource, period start) adds to the stream: '' when the row is hidden or has no value. */
function rowEmitter(
  plan: RowPlan,
  writer: RowWriter,
  aggregator: Aggregator,
  cache: RowTextCache | undefined,
): (ds: Datasource, t: number) => string {
  const p = PERIOD_MS[plan.frequency];
  const values = new RowValues(plan.metrics.length);
  const cached =
    cache && writer.shape !== undefined
      ? cache.rowsOf(`${plan.frequency}|${plan.qcVersion}|${writer.shape}`)
      : undefined;
  const minute = plan.frequency === 'minute';
  const notBefore = minute ? (plan.notBefore ?? Number.NEGATIVE_INFINITY) : Number.NEGATIVE_INFINITY;
  const before = minute ? (plan.before ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
  return (ds, t) => {
    if (!periodVisible(ds, t, p)) return '';
    if (t < notBefore || t + 2 * p > before) {
      const at = measuredAt(ds, t / p);
      if (at < notBefore || at >= before) return '';
    }
    const period = t / p;
    let text = cached && cache ? cache.get(cached, ds.gid, period) : undefined;
    if (text === undefined) {
      text = aggregator.evalRow(plan.frequency, ds, t, plan.metrics, plan.qcVersion, values)
        ? writer.row(ds, t, values)
        : '';
      if (cached && cache) cache.set(cached, ds.gid, period, text);
    }
    if (text === '') return '';
    return writer.emit ? writer.emit(ds, t, text) : text;
  };
}

/** A walk over (datasource, period start) pairs: next() moves to the next pair, false at the end. */
interface Walk {
  next(): boolean;
  ds: Datasource;
  t: number;
}

/**
 * The walk in the plan's order. time-desc: newest first across all datasources (minute output: by the
 * measurement time itself, which is irregular within and across minutes; hour and day: by period start);
 * datasource-time-asc: each datasource's period starts from `from` up to before `to`.
 */
function walkOrder(plan: RowPlan): Walk {
  const p = PERIOD_MS[plan.frequency];
  const list = plan.datasources;
  const n = list.length;
  if (plan.order === 'time-desc') {
    const times = plan.to - p >= plan.from ? Math.floor((plan.to - p - plan.from) / p) + 1 : 0;
    const last = plan.to - p;
    if (plan.frequency === 'minute') return new MinuteMerge(list, last / p, last / p - times + 1);
    return new GridWalk(
      times * n,
      (i) => list[i % n],
      (i) => last - Math.floor(i / n) * p,
    );
  }
  const times = plan.to > plan.from ? Math.ceil((plan.to - plan.from) / p) : 0;
  return new GridWalk(
    times * n,
    (i) => list[Math.floor(i / times)],
    (i) => plan.from + (i % times) * p,
  );
}

/** Step i of `steps` as (datasource(i), time(i)). */
class GridWalk implements Walk {
  ds!: Datasource;
  t = 0;
  private i = 0;

  constructor(
    private readonly steps: number,
    private readonly datasource: (i: number) => Datasource,
    private readonly time: (i: number) => number,
  ) {}

  next(): boolean {
    if (this.i >= this.steps) return false;
    this.ds = this.datasource(this.i);
    this.t = this.time(this.i++);
    return true;
  }
}

/**
 * Minutes from `last` down to `first` of every datasource, newest measurement first: a k-way merge (a binary
 * max-heap on measurement time, ties by datasource order) of each datasource's minutes, whose measurement
 * times descend with the minute (a late measurement still comes before the next minute's own, see measuredAt).
 * Streams: memory is O(datasources), each step O(log datasources).
 */
class MinuteMerge implements Walk {
  ds!: Datasource;
  t = 0;
  private readonly minute: Float64Array;
  private readonly key: Float64Array;
  private readonly heap: Int32Array;
  private size = 0;

  constructor(
    private readonly list: readonly Datasource[],
    last: number,
    private readonly first: number,
  ) {
    const n = list.length;
    this.minute = new Float64Array(n).fill(last);
    this.key = new Float64Array(n);
    this.heap = new Int32Array(n);
    if (last < first) return;
    for (let i = 0; i < n; i++) {
      this.key[i] = measuredAt(list[i], last);
      this.heap[this.size++] = i;
    }
    for (let k = (this.size >> 1) - 1; k >= 0; k--) this.siftDown(k);
  }

  next(): boolean {
    if (this.size === 0) return false;
    const top = this.heap[0];
    const m = this.minute[top];
    this.ds = this.list[top];
    this.t = m * MINUTE_MS;
    if (m - 1 < this.first) this.heap[0] = this.heap[--this.size];
    else {
      this.minute[top] = m - 1;
      this.key[top] = measuredAt(this.ds, m - 1);
    }
    if (this.size > 0) this.siftDown(0);
    return true;
  }

  /** Whether heap entry a comes before b: the newer measurement, else the earlier datasource. */
  private before(a: number, b: number): boolean {
    const ka = this.key[a];
    const kb = this.key[b];
    return ka > kb || (ka === kb && a < b);
  }

  private siftDown(k: number): void {
    const heap = this.heap;
    const item = heap[k];
    for (;;) {
      let child = 2 * k + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.before(heap[child + 1], heap[child])) child++;
      if (!this.before(heap[child], item)) break;
      heap[k] = heap[child];
      k = child;
    }
    heap[k] = item;
  }
}

/**
 * Bounds each synchronous slice of the walk with a monotonic timer (for scheduling only, not a time of
 * day), read every `stepsPerCheck` steps.
 */
class Slice {
  private start = performance.now();
  private steps = 0;

  constructor(private readonly stepsPerCheck: number) {}

  /** True when the slice is used up: the caller yields what it has, then awaits the next turn. */
  over(): boolean {
    if (++this.steps < this.stepsPerCheck) return false;
    this.steps = 0;
    return performance.now() - this.start >= SLICE_MS;
  }

  restart(): void {
    this.start = performance.now();
  }
}
