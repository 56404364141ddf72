// csv-wide read on two threads, split by columns: the body is cut into blocks of whole lines in shared
// buffers; this thread reads the first columns of every line and a worker thread (csv-worker.node.ts)
// the others. Each column is read by one reader, cell by cell in row order, so codes and demotions are
// those of a reader of the whole line; the worker starts with the cells read so far and hands its
// columns back at the end (buffers transferred, not copied). Only plain lines go to blocks: at the first
// quote or carriage return the rest goes back to the sequential reader (csv-parse).

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { IncompleteReplyError } from '../api/errors';
import {
  type BlockColumn,
  type BlockDone,
  type ColumnsInit,
  columnBuffers,
  type FromWorker,
  type ToWorker,
} from './csv-blocks';
import { ColumnsReader } from './csv-columns';
import { type CsvWideReader, readLinesRange } from './csv-wide-reader';

export interface ParallelOptions {
  /** Worker threads (0 or 1; 0: the body is read the usual way unless inline). */
  workers: number;
  /** Without a worker, still split the columns, the other side read on this thread (tests of the split). */
  inline?: boolean;
  /** Body bytes read the usual way before the worker starts: a small body never starts one. */
  startAfterBytes: number;
  /** Bytes per block (cut after the last line end within them). */
  blockBytes: number;
  /** Blocks in flight at most (shared buffers of blockBytes). */
  buffers: number;
  /** The share of the reading (by column kind) done on this thread, which also receives the body. */
  share: number;
  /** Wait for the worker to be ready before reading on (tests: so that blocks do go to it). */
  waitForWorkers?: boolean;
  /** The worker's script (default: csv-worker.js beside the bundle, or the source under tsx). */
  script?: string;
  /** Told at the end how the read was split (tests, measurements). */
  onStats?: (stats: ParallelStats) => void;
}

export interface ParallelStats {
  /** Blocks read on both threads. */
  blocks: number;
  /** Columns read here; the rest by the other side. */
  split: number;
  columns: number;
}

function envNumber(name: string, fallback: number): number {
  const n = Number.parseFloat(process.env[name] ?? '');
  return Number.isNaN(n) ? fallback : n;
}

/**
 * Tuning from the environment, for measurements and tests: MEASNB_CSV_WORKERS (0 turns it off),
 * MEASNB_CSV_PARALLEL_FROM, MEASNB_CSV_BLOCK (bytes), MEASNB_CSV_BUFFERS, MEASNB_CSV_SHARE,
 * MEASNB_CSV_WAIT=1 (wait for the worker), MEASNB_CSV_TRACE=1 (how the read was split, to stderr).
 */
export const DEFAULT_PARALLEL: ParallelOptions = {
  workers: envNumber('MEASNB_CSV_WORKERS', 1),
  startAfterBytes: envNumber('MEASNB_CSV_PARALLEL_FROM', 4 << 20),
  blockBytes: envNumber('MEASNB_CSV_BLOCK', 1 << 20),
  buffers: envNumber('MEASNB_CSV_BUFFERS', 4),
  share: envNumber('MEASNB_CSV_SHARE', 0.2),
  waitForWorkers: process.env.MEASNB_CSV_WAIT === '1',
  onStats: process.env.MEASNB_CSV_TRACE
    ? (s) => process.stderr.write(`csv-wide: ${s.blocks} blocks, ${s.split} of ${s.columns} columns here\n`)
    : undefined,
};

/** csv-worker.js beside this bundle (dist/), or csv-worker.node.ts beside this source (tests, under tsx). */
export function workerScript(): string | undefined {
  for (const name of ['csv-worker.js', 'csv-worker.node.ts']) {
    const p = path.join(__dirname, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** The worker from its TypeScript source (tests run under tsx, whose loader a worker does not inherit). */
function sourceWorker(script: string): Worker {
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(script)});`, { eval: true });
}

let live = 0;
/** Worker threads running now (tests: none are left behind). */
export function liveCsvWorkers(): number {
  return live;
}

/** Relative cost of reading a cell, by builder class (numbers 1; measured on the recent-query body). */
function cellCost(spec: string): number {
  if (spec === 't') return 2.5;
  if (spec === 'f') return 3;
  return spec.startsWith('d:') ? 2 : 1;
}

/** The columns [0, split) this thread reads: about `share` of the cost, at least one, never all. */
export function splitColumns(specs: readonly string[], share: number): number {
  const total = specs.reduce((sum, s) => sum + cellCost(s), 0);
  let sum = 0;
  let k = 0;
  while (k < specs.length - 1 && sum + cellCost(specs[k]) / 2 < share * total) sum += cellCost(specs[k++]);
  return Math.max(1, k);
}

/** The other side: a worker thread, or (tests) a ColumnsReader on this thread behind the same messages. */
interface Side {
  post(m: ToWorker, transfer?: ArrayBuffer[]): void;
  terminate(): void;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;

/** Blocks of lines read by column on this thread and the other side. */
export class ParallelLines {
  private side: Side | undefined;
  private sideReady = false;
  private sideDead = false;
  /** Shared buffers by slot; busy: the other side has not read its block yet; sent: the other side has it. */
  private readonly slots: Buffer[] = [];
  private readonly busy: boolean[] = [];
  private readonly sent: boolean[] = [];
  private inFlight = 0;
  private waiters: Array<() => void> = [];
  private columnsBack: ((columns: BlockColumn[]) => void) | undefined;
  private failure: Error | undefined;
  /** The slot being filled, and how far. */
  private cur = 0;
  private curLen = 0;
  private split = -1;
  /** The last byte taken (-1 before any). */
  last = -1;
  private blocks = 0;

  constructor(
    private readonly reader: CsvWideReader,
    private readonly strict: boolean,
    private readonly opts: ParallelOptions,
  ) {
    this.slots.push(Buffer.from(new SharedArrayBuffer(opts.blockBytes)));
    this.busy.push(false);
    this.sent.push(false);
  }

  /** Starts the worker (false: no script, nothing started). */
  start(): boolean {
    if (this.opts.workers <= 0) {
      this.side = this.inlineSide();
      this.sideReady = true;
      return true;
    }
    const script = this.opts.script ?? workerScript();
    if (!script) return false;
    this.side = this.spawn(script);
    return true;
  }

  /** The other side can take blocks. */
  get ready(): boolean {
    return this.sideReady && !this.sideDead;
  }

  /** Resolves once ready, or once the worker has failed. */
  async whenReady(): Promise<void> {
    while (!this.sideReady && !this.sideDead) await this.wait();
  }

  private wait(): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private spawn(script: string): Side {
    const worker = script.endsWith('.ts') ? sourceWorker(script) : new Worker(script);
    live++;
    worker.unref();
    worker.on('message', (m: FromWorker) => this.receive(m));
    worker.on('error', (e) => this.fail(e));
    worker.on('exit', () => {
      live--;
      this.fail(new Error('the csv worker thread exited'));
    });
    return { post: (m, transfer = []) => worker.postMessage(m, transfer), terminate: () => void worker.terminate() };
  }

  /** The other side on this thread: the same messages, answered at once (cells cloned as a worker's). */
  private inlineSide(): Side {
    let reader: ColumnsReader | undefined;
    return {
      post: (m, transfer = []) => {
        if (m.type === 'init') {
          const init = structuredClone(m, { transfer });
          reader = new ColumnsReader(init, init.columns ?? []);
        } else if (m.type === 'lines') this.receive(reader!.lines(m, (bytes) => Buffer.from(bytes)));
        else {
          const columns = reader!.columns();
          this.receive(structuredClone({ type: 'columns', columns }, { transfer: columnBuffers(columns) }));
        }
      },
      terminate: () => undefined,
    };
  }

  private receive(m: FromWorker): void {
    if (m === 'ready') this.sideReady = true;
    else if (m.type === 'done') this.done(m);
    else this.columnsBack?.(m.columns);
    this.wake();
  }

  private done(m: BlockDone): void {
    this.busy[m.id] = false;
    this.inFlight--;
    if (m.incomplete !== undefined) this.failure ??= new IncompleteReplyError(m.incomplete);
    if (m.error !== undefined) this.failure ??= new Error(`the csv worker failed: ${m.error}`);
  }

  /** The worker failed or exited: what waits for it fails (a worker that never started is only left out). */
  private fail(e: Error): void {
    if (this.sideDead) return;
    this.sideDead = true;
    if (this.sideReady) this.failure ??= e;
    this.wake();
  }

  /** Stops the worker (at the end, or when the read fails or is cancelled). */
  terminate(): void {
    if (!this.sideDead) this.side?.terminate();
  }

  private check(): void {
    if (this.failure) throw this.failure;
    if (this.sideDead && this.sideReady) throw new Error('the csv worker thread exited');
  }

  /**
   * Takes a chunk of lines. Returns the bytes the sequential reader takes from here on when a line needs
   * it (a quote or a carriage return): every block before it is read by then, the columns back here.
   */
  async write(chunk: Uint8Array): Promise<Buffer | undefined> {
    if (!chunk.length) return undefined;
    this.last = chunk[chunk.length - 1];
    let at = 0;
    while (at < chunk.length) {
      const cur = this.slots[this.cur];
      const n = Math.min(cur.length - this.curLen, chunk.length - at);
      cur.set(chunk.subarray(at, at + n), this.curLen);
      this.curLen += n;
      at += n;
      if (this.curLen < cur.length) break;
      const back = await this.cut();
      if (back) return Buffer.concat([back, chunk.subarray(at)]);
    }
    return undefined;
  }

  /** A full buffer: its whole lines become a block, the rest starts the next buffer. */
  private async cut(): Promise<Buffer | undefined> {
    const full = this.slots[this.cur];
    const nl = full.lastIndexOf(LF, this.curLen - 1);
    if (nl < 0) {
      // One line longer than a block: room for more of it.
      this.resize(this.cur, full.length * 2);
      return undefined;
    }
    const length = nl + 1;
    const lines = full.subarray(0, length);
    if (lines.indexOf(QUOTE) >= 0 || lines.indexOf(CR) >= 0) {
      await this.finish();
      return Buffer.concat([full.subarray(0, this.curLen)]);
    }
    this.readBlock(this.cur, length);
    const rest = this.curLen - length;
    this.cur = await this.nextSlot();
    if (this.slots[this.cur].length < rest) this.resize(this.cur, rest * 2);
    this.curLen = full.copy(this.slots[this.cur], 0, length, length + rest);
    return undefined;
  }

  /** A bigger buffer for a slot (what it holds kept); the other side gets it with its next block. */
  private resize(slot: number, size: number): void {
    const bigger = Buffer.from(new SharedArrayBuffer(size));
    this.slots[slot].copy(bigger);
    this.slots[slot] = bigger;
    this.sent[slot] = false;
  }

  /** The block to the other side, and its first columns read here. */
  private readBlock(slot: number, length: number): void {
    if (this.split < 0) this.init();
    const bytes = this.sent[slot] ? undefined : (this.slots[slot].buffer as SharedArrayBuffer);
    this.sent[slot] = true;
    this.busy[slot] = true;
    this.inFlight++;
    this.blocks++;
    this.side!.post({ type: 'lines', id: slot, slot, length, bytes });
    readLinesRange(this.reader, this.slots[slot], length, 0, this.split);
  }

  /** Splits the columns; the other side takes its columns' cells so far (transferred). */
  private init(): void {
    const specs = this.reader.specs();
    this.split = splitColumns(specs, this.opts.share);
    const columns = this.reader.columns(this.split, specs.length);
    const init: ColumnsInit = { type: 'init', specs, from: this.split, to: specs.length, strict: this.strict, columns };
    this.side!.post(init, columnBuffers(columns));
  }

  /** A slot to fill next: a free one, a new one, or the first the other side is done with. */
  private async nextSlot(): Promise<number> {
    for (;;) {
      this.check();
      const free = this.busy.indexOf(false);
      if (free >= 0) return free;
      if (this.slots.length < this.opts.buffers) {
        this.slots.push(Buffer.from(new SharedArrayBuffer(this.opts.blockBytes)));
        this.busy.push(false);
        this.sent.push(false);
        return this.slots.length - 1;
      }
      await this.wait();
    }
  }

  /** Waits for every block, then takes the other side's columns back. */
  private async finish(): Promise<void> {
    while (this.inFlight) {
      this.check();
      await this.wait();
    }
    this.check();
    if (this.split < 0) return;
    let columns: BlockColumn[] | undefined;
    this.columnsBack = (c) => {
      columns = c;
    };
    this.side!.post({ type: 'finish' });
    while (!columns) {
      this.check();
      await this.wait();
    }
    this.reader.adopt(this.split, columns);
    this.opts.onStats?.({ blocks: this.blocks, split: this.split, columns: this.reader.specs().length });
    this.split = -1;
  }

  /** Reads every block, takes the columns back; returns the bytes after the last line end. */
  async end(): Promise<Buffer> {
    await this.finish();
    return Buffer.from(this.slots[this.cur].subarray(0, this.curLen));
  }
}
