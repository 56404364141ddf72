// Walks the rows of a query in the requested order and feeds them to a writer, yielding text in
// chunks: rows are generated while the response is being sent (the stream's backpressure paces us).
import type { OutputFrequency } from '../core/api/types';
import { type Aggregator, type CompiledMetric, RowValues } from './aggregates';
import { MINUTE_MS } from './clock';
import { PERIOD_MS } from './periods';
import { type Datasource, isSubscribed } from './world';

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
}

export interface RowWriter {
  header(): string | Uint8Array;
  /** Text of one row (empty when the writer collects instead). */
  row(ds: Datasource, periodStart: number, values: RowValues): string;
  footer(): string | Uint8Array;
}

const CHUNK_CHARS = 64 * 1024;

/** A period is visible to the org only when the datasource was subscribed throughout it. */
export function periodVisible(ds: Datasource, start: number, periodMs: number): boolean {
  if (periodMs === MINUTE_MS) return isSubscribed(ds, start);
  for (const [a, b] of ds.subscriptions) if (a <= start && b >= start + periodMs) return true;
  return false;
}

export function* streamRows(plan: RowPlan, writer: RowWriter, aggregator: Aggregator): Generator<string | Uint8Array> {
  yield writer.header();
  const p = PERIOD_MS[plan.frequency];
  const values = new RowValues(plan.metrics.length);
  let buf = '';
  const emit = (ds: Datasource, t: number) => {
    if (!periodVisible(ds, t, p)) return;
    if (!aggregator.evalRow(plan.frequency, ds, t, plan.metrics, plan.qcVersion, values)) return;
    buf += writer.row(ds, t, values);
  };
  if (plan.order === 'time-desc') {
    for (let t = plan.to - p; t >= plan.from; t -= p) {
      for (const ds of plan.datasources) {
        emit(ds, t);
        if (buf.length >= CHUNK_CHARS) {
          yield buf;
          buf = '';
        }
      }
    }
  } else {
    for (const ds of plan.datasources) {
      for (let t = plan.from; t < plan.to; t += p) {
        emit(ds, t);
        if (buf.length >= CHUNK_CHARS) {
          yield buf;
          buf = '';
        }
      }
    }
  }
  if (buf) yield buf;
  yield writer.footer();
}
