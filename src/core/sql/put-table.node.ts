// A Table into DuckDB column by column (SqlEngine.putTable): data chunks of DuckDB's vector size (2,048
// rows), each column's values handed over with one memory copy per chunk (@duckdb/node-bindings'
// copy_data_to_vector, the same call @duckdb/node-api's own vectors flush with) instead of one appender
// call per cell. Numbers as DOUBLE; times as TIMESTAMPTZ microseconds (epoch ms rounded, as before);
// text as ENUM codes over the column's dictionary, each distinct text given to DuckDB once per column, and
// the appender casts the chunk to the table's VARCHAR. Empty cells (NaN, codes < 0) are NULL.
import type { DuckDBAppender } from '@duckdb/node-api';
import type { DataChunk, LogicalType, Vector } from '@duckdb/node-bindings';
import { EngineQueryError } from '../api/errors';
import { decimalsToFloat64 } from '../table/decimal';
import type { Column, DictColumn, FlagsColumn, NumericColumn, Table } from '../table/table';
import { isNumeric } from '../table/table';

type NodeApi = typeof import('@duckdb/node-api');
type Bindings = typeof import('@duckdb/node-bindings');

let bindings: Promise<Bindings> | undefined;
/** DuckDB's C API as @duckdb/node-api itself calls it (its dependency, loaded with it on the first sql cell). */
export function loadBindings(): Promise<Bindings> {
  bindings ??= import('@duckdb/node-bindings').then((m) => (m as { default?: Bindings }).default ?? m);
  return bindings;
}

/** The DuckDB type of a column of `kind`, as the table is created with it. */
export function sqlTypeOf(column: Column): 'TIMESTAMPTZ' | 'DOUBLE' | 'VARCHAR' {
  return column.kind === 'time' ? 'TIMESTAMPTZ' : column.kind === 'number' ? 'DOUBLE' : 'VARCHAR';
}

/** Rows per data chunk: DuckDB's vector size (2,048), the most a chunk holds. */
const CHUNK_ROWS = 2048;

/** One column's writer: fills its vector with rows [start, start + n) of the column. */
type Filler = (vector: Vector, start: number, n: number) => void;

/** Appends every row of `table` through `appender` (whose table has the table's columns, typed by sqlTypeOf). */
export function appendTable(appender: DuckDBAppender, table: Table, lib: NodeApi, b: Bindings): void {
  if (!table.columns.length || !table.rowCount) return;
  for (const c of table.columns) {
    const length = isNumeric(c) ? (c.ints ?? c.values).length : c.codes.length;
    if (length < table.rowCount)
      throw refusedCell(`Column "${c.name}" has ${length} cells for ${table.rowCount} rows.`);
  }
  const validity = new Validity(b);
  const parts = table.columns.map((c) => columnPart(c, b, validity));
  const raw: DataChunk = b.create_data_chunk(parts.map((p) => p.type));
  const chunk = new lib.DuckDBDataChunk(raw);
  for (let start = 0; start < table.rowCount; start += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, table.rowCount - start);
    b.data_chunk_reset(raw);
    for (const [i, p] of parts.entries()) p.fill(b.data_chunk_get_vector(raw, i), start, n);
    b.data_chunk_set_size(raw, n);
    appender.appendDataChunk(chunk);
  }
}

function columnPart(c: Column, b: Bindings, validity: Validity): { type: LogicalType; fill: Filler } {
  if (!isNumeric(c)) return textPart(c, b, validity);
  if (c.kind === 'time') return { type: b.create_logical_type(b.Type.TIMESTAMP_TZ), fill: timeFiller(c, b, validity) };
  return { type: b.create_logical_type(b.Type.DOUBLE), fill: doubleFiller(c, b, validity) };
}

/** The validity mask of one vector (bit i set: row i has a value), written only when a row is empty. */
class Validity {
  private readonly words = new Uint32Array(CHUNK_ROWS / 32);
  private empty = false;
  constructor(private readonly b: Bindings) {}
  start(): void {
    this.words.fill(0xffffffff);
    this.empty = false;
  }
  setEmpty(row: number): void {
    this.words[row >>> 5] &= ~(1 << (row & 31));
    this.empty = true;
  }
  /** Writes the mask to `vector` (whole 64-bit words: DuckDB's validity is uint64 words, LSB first). */
  flush(vector: Vector, n: number): void {
    if (!this.empty) return;
    this.b.vector_ensure_validity_writable(vector);
    this.b.copy_data_to_vector_validity(vector, 0, this.words.buffer, 0, Math.ceil(n / 64) * 8);
  }
}

function doubleFiller(c: NumericColumn, b: Bindings, validity: Validity): Filler {
  const out = new Float64Array(CHUNK_ROWS);
  return (vector, start, n) => {
    if (c.ints) decimalsToFloat64(c.ints.subarray(start, start + n), c.scale, out);
    else out.set(c.values.subarray(start, start + n));
    validity.start();
    for (let i = 0; i < n; i++) if (Number.isNaN(out[i])) validity.setEmpty(i);
    b.copy_data_to_vector(vector, 0, out.buffer, 0, n * 8);
    validity.flush(vector, n);
  };
}

/** 2^32: the split of a microsecond count into the two 32-bit halves of its int64. */
const TWO_32 = 4294967296;

function timeFiller(c: NumericColumn, b: Bindings, validity: Validity): Filler {
  const micros = new BigInt64Array(CHUNK_ROWS);
  const halves = new Int32Array(micros.buffer);
  return (vector, start, n) => {
    validity.start();
    for (let i = 0; i < n; i++) {
      const ms = c.values![start + i];
      if (Number.isNaN(ms)) {
        validity.setEmpty(i);
        continue;
      }
      const us = Math.round(ms) * 1000;
      if (Math.abs(us) <= Number.MAX_SAFE_INTEGER) {
        // Exact: an integer below 2^53 splits into its int64 halves (little-endian, as DuckDB runs).
        const hi = Math.floor(us / TWO_32);
        halves[2 * i] = us - hi * TWO_32;
        halves[2 * i + 1] = hi;
      } else micros[i] = bigMicros(ms);
    }
    b.copy_data_to_vector(vector, 0, micros.buffer, 0, n * 8);
    validity.flush(vector, n);
  };
}

/** Microseconds of an epoch-ms time past 2^53 µs (year ~2255): exact as a BigInt, refused past int64. */
function bigMicros(ms: number): bigint {
  const us = Number.isFinite(ms) ? BigInt(Math.round(ms)) * 1000n : undefined;
  if (us === undefined || BigInt.asIntN(64, us) !== us)
    throw refusedCell(`A time of ${ms} ms since 1970 is outside what a TIMESTAMPTZ holds.`);
  return us;
}

/**
 * A text column as ENUM codes: its distinct texts (qcFlags lists as their JSON text, as cellText gives
 * them) are the enum's members, each dictionary code mapped to its member.
 */
function textPart(c: DictColumn | FlagsColumn, b: Bindings, validity: Validity): { type: LogicalType; fill: Filler } {
  const texts = c.kind === 'qcFlags' ? c.dict.map((f) => JSON.stringify(f)) : c.dict;
  const members = new Map<string, number>();
  const member = Int32Array.from(texts, (t) => {
    const m = members.get(t);
    if (m !== undefined) return m;
    members.set(t, members.size);
    return members.size - 1;
  });
  // An enum needs a member: a column with no text gets one that no row uses.
  const type = b.create_enum_type(members.size ? [...members.keys()] : ['']);
  const internal = b.enum_internal_type(type);
  const out =
    internal === b.Type.UTINYINT
      ? new Uint8Array(CHUNK_ROWS)
      : internal === b.Type.USMALLINT
        ? new Uint16Array(CHUNK_ROWS)
        : new Uint32Array(CHUNK_ROWS);
  const fill: Filler = (vector, start, n) => {
    validity.start();
    for (let i = 0; i < n; i++) {
      const code = c.codes[start + i];
      if (code < 0) validity.setEmpty(i);
      else if (code < member.length) out[i] = member[code];
      else throw refusedCell(`Column "${c.name}" has a text code (${code}) past its dictionary.`);
    }
    b.copy_data_to_vector(vector, 0, out.buffer, 0, n * out.BYTES_PER_ELEMENT);
    validity.flush(vector, n);
  };
  return { type, fill };
}

/** A cell the table cannot hold in DuckDB (the Table is malformed): refused, naming it. */
function refusedCell(message: string): EngineQueryError {
  return new EngineQueryError({ message, type: 'Invalid Input' });
}
