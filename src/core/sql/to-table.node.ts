// A DuckDB result -> our columnar Table, chunk by chunk (no row objects). Times (TIMESTAMP [WITH TIME
// ZONE], DATE) become time columns, every numeric type a number column, text keeps the kind its header
// says (identifier, status, qcFlags, ...), anything else its text.
// Type-only: the engine module is loaded lazily by engine.node.ts, which passes its type ids in.

import type { DuckDBResult, DuckDBValue, DuckDBTypeId as TypeIds } from '@duckdb/node-api';
import { MeasurementsError } from '../api/errors';
import { type ColumnBuilder, DictBuilder, demoteToText, FlagsBuilder } from '../table/builders';
import { classifyColumn } from '../table/column-kinds';
import type { Column, ColumnKind, NumericColumn, Table } from '../table/table';
import { DAY_MS } from '../time/duration';

const timeTypes = (DuckDBTypeId: typeof TypeIds) =>
  new Set<number>([
    DuckDBTypeId.TIMESTAMP,
    DuckDBTypeId.TIMESTAMP_TZ,
    DuckDBTypeId.TIMESTAMP_S,
    DuckDBTypeId.TIMESTAMP_MS,
    DuckDBTypeId.TIMESTAMP_NS,
    DuckDBTypeId.DATE,
  ]);
const numberTypes = (DuckDBTypeId: typeof TypeIds) =>
  new Set<number>([
    DuckDBTypeId.TINYINT,
    DuckDBTypeId.SMALLINT,
    DuckDBTypeId.INTEGER,
    DuckDBTypeId.BIGINT,
    DuckDBTypeId.UTINYINT,
    DuckDBTypeId.USMALLINT,
    DuckDBTypeId.UINTEGER,
    DuckDBTypeId.UBIGINT,
    DuckDBTypeId.HUGEINT,
    DuckDBTypeId.UHUGEINT,
    DuckDBTypeId.FLOAT,
    DuckDBTypeId.DOUBLE,
    DuckDBTypeId.DECIMAL,
  ]);

/** Epoch milliseconds of a DuckDB time value. */
function timeMs(v: DuckDBValue): number {
  const o = v as unknown as Record<string, unknown>;
  if (typeof o.micros === 'bigint') return Number(o.micros) / 1000;
  if (typeof o.millis === 'bigint') return Number(o.millis);
  if (typeof o.seconds === 'bigint') return Number(o.seconds) * 1000;
  if (typeof o.nanos === 'bigint') return Number(o.nanos) / 1e6;
  if (typeof o.days === 'number') return o.days * DAY_MS;
  return Number.NaN;
}

function numberOf(v: DuckDBValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const d = v as unknown as { toDouble?: () => number };
  return typeof d.toDouble === 'function' ? d.toDouble() : Number(String(v));
}

class Numbers {
  values = new Float64Array(1024);
  length = 0;
  constructor(readonly kind: 'number' | 'time') {}
  push(v: number): void {
    if (this.length === this.values.length) {
      const next = new Float64Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.length++] = v;
  }
}

type Sink = { numbers: Numbers } | { text: ColumnBuilder };

export async function resultToTable(
  result: DuckDBResult,
  DuckDBTypeId: typeof TypeIds,
  signal?: AbortSignal,
): Promise<Table> {
  const TIME_TYPES = timeTypes(DuckDBTypeId);
  const NUMBER_TYPES = numberTypes(DuckDBTypeId);
  const names = result.columnNames();
  const types = result.columnTypes();
  const infos = names.map((n) => classifyColumn(n));
  const sinks: Sink[] = types.map((t, i) => {
    if (TIME_TYPES.has(t.typeId)) return { numbers: new Numbers('time') };
    if (NUMBER_TYPES.has(t.typeId)) return { numbers: new Numbers('number') };
    const kind: ColumnKind = infos[i].kind;
    if (t.typeId === DuckDBTypeId.VARCHAR && kind === 'qcFlags') return { text: new FlagsBuilder() };
    const textKind = kind === 'identifier' || kind === 'status' || kind === 'qcAssessment' ? kind : 'text';
    return { text: new DictBuilder(textKind) };
  });
  let rows = 0;
  for (;;) {
    if (signal?.aborted) throw new MeasurementsError('CANCELLED', 'The query was cancelled (interrupted).');
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    rows += chunk.rowCount;
    for (let c = 0; c < sinks.length; c++) {
      const sink = sinks[c];
      const values = chunk.getColumnValues(c);
      if ('numbers' in sink) {
        const time = sink.numbers.kind === 'time';
        for (const v of values) sink.numbers.push(v === null ? Number.NaN : time ? timeMs(v) : numberOf(v));
      } else {
        for (const v of values) {
          const text = v === null ? '' : typeof v === 'string' ? v : String(v);
          if (!sink.text.push(text)) {
            sink.text = demoteToText(sink.text);
            sink.text.push(text);
          }
        }
      }
    }
  }
  const columns: Column[] = sinks.map((sink, i) => {
    const info = infos[i];
    const meta = { name: names[i], canonical: info.canonical, metric: info.metric };
    if ('text' in sink) return sink.text.finish(sanitize(meta, sink.text.kind === info.kind));
    const col: NumericColumn = {
      name: names[i],
      kind: sink.numbers.kind,
      values: sink.numbers.values.slice(0, sink.numbers.length),
    };
    if (sink.numbers.kind === info.kind) {
      if (info.canonical !== undefined) col.canonical = info.canonical;
      if (info.metric !== undefined) col.metric = info.metric;
    }
    return col;
  });
  return { columns, rowCount: rows };
}

/** Header facts (canonical name, metric parts) only when the column's kind is what the header says. */
function sanitize<T extends { name: string; canonical?: string; metric?: unknown }>(meta: T, keep: boolean) {
  return keep ? meta : { name: meta.name };
}
