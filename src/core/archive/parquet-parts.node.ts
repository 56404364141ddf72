// The archive's writer: a report's csv-wide file → Hive-partitioned Parquet, in this process and without
// DuckDB (its code pages and instance were ~75 MB of the archive's peak RSS: docs/PERFORMANCE.md, row 14c).
// The file is read in pieces of ~ROW_GROUP_ROWS rows (core/table's csv-wide reader: times and numbers
// parsed, every other column its text as written), each piece's rows split by datasource and written as
// one row group of that datasource's open partition file with hyparquet-writer. Columns are typed as our
// tables type them, as DuckDB's COPY wrote them before: times INT64 TIMESTAMP(MICROS, UTC), numbers
// DOUBLE, the rest UTF8 text; snappy; the partition column left out of the files (Hive folders).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { ArchiveError } from '../api/errors';
import { classifyColumn } from '../table/column-kinds';
import { readCsvWideInPieces } from '../table/csv-read.node';
import { decimalsToFloat64 } from '../table/decimal';
import { type Column, floatValues, isNumeric, type NumericColumn, type Table } from '../table/table';

/** Rows per piece read, and so per row group (a month of minute data peaked 37 MB lower than with 16,384). */
export const ROW_GROUP_ROWS = 4096;

type Kind = 'time' | 'number' | 'text';

interface Part {
  value: string;
  fd: number;
  pq: ParquetWriter;
}

/** The Parquet column of a csv-wide column's kind (as written by DuckDB's COPY of a TIMESTAMPTZ/DOUBLE/VARCHAR). */
function schemaElement(name: string, kind: Kind): SchemaElement {
  if (kind === 'time') {
    return {
      name,
      type: 'INT64',
      repetition_type: 'OPTIONAL',
      converted_type: 'TIMESTAMP_MICROS',
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
    };
  }
  if (kind === 'number') return { name, type: 'DOUBLE', repetition_type: 'OPTIONAL' };
  return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
}

function headerKind(name: string): Kind {
  const { kind } = classifyColumn(name);
  return kind === 'time' || kind === 'number' ? kind : 'text';
}

const kindOf = (c: Column): Kind => (c.kind === 'time' ? 'time' : c.kind === 'number' ? 'number' : 'text');

const utf8 = new TextEncoder();

/**
 * The cells of `rows` of a column, as hyparquet-writer takes them (empty cells null). Texts go as their
 * UTF-8 bytes, encoded once per distinct text: given strings, the writer encodes every cell into its own
 * small ArrayBuffer (~26 MB of them at a time, a year's peak RSS ~30 MB higher than a month's). `floats`:
 * a number or time column's values as Float64 (NaN empty), made once per piece (not a decimal per cell).
 */
function cellsOf(
  c: Column,
  floats: Float64Array | undefined,
  rows: readonly number[],
): Float64Array | Array<number | bigint | Uint8Array | null> {
  if (isNumeric(c)) {
    const values = floats ?? floatValues(c);
    const time = c.kind === 'time';
    return (!time && fullNumbers(values, rows)) || numberCells(values, rows, time);
  }
  const out = new Array<Uint8Array | null>(rows.length);
  const texts = c.kind === 'qcFlags' ? c.dict.map((f) => JSON.stringify(f)) : c.dict;
  const bytes = new Array<Uint8Array | undefined>(texts.length);
  for (let i = 0; i < rows.length; i++) {
    const code = c.codes[rows[i]];
    if (code < 0) out[i] = null;
    else out[i] = bytes[code] ??= utf8.encode(texts[code]);
  }
  return out;
}

/**
 * The numbers of `rows` as a Float64Array when none is empty (most chunks: a sensor's column is full or
 * empty), else undefined. Given an array, the writer holds each double as its own heap object (the
 * array has nulls): ~13 % of a conversion went to collecting them. A run of consecutive rows is a view.
 */
function fullNumbers(values: Float64Array, rows: readonly number[]): Float64Array | undefined {
  for (let i = 0; i < rows.length; i++) if (Number.isNaN(values[rows[i]])) return undefined;
  const first = rows[0];
  if (rows.length > 0 && rows[rows.length - 1] - first === rows.length - 1) {
    return values.subarray(first, first + rows.length);
  }
  return Float64Array.from(rows, (r) => values[r]);
}

/** The cells of `rows` of a number or time column, empty cells null (times as µs BigInts). */
function numberCells(values: Float64Array, rows: readonly number[], time: boolean): Array<number | bigint | null> {
  const out = new Array<number | bigint | null>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const v = values[rows[i]];
    // Milliseconds × 1000 is exact below 2^53 µs (the year 287,396).
    out[i] = Number.isNaN(v) ? null : time ? BigInt(v * 1000) : v;
  }
  return out;
}

/** Writes the pieces of one csv file into `destDir/<partitionBy>=<value>/<prefix>-<k>.parquet`. */
class PartitionedWriter {
  private schema: SchemaElement[] | undefined;
  private kinds: Kind[] = [];
  private key = -1;
  private open: Part | undefined;
  /** Files started per value (a value met again after another gets a new file: one file open at a time). */
  private readonly files = new Map<string, number>();
  readonly rows = new Map<string, number>();
  private readonly writer = new ByteWriter(256 * 1024);
  private readonly floatBuffers: Array<Float64Array | undefined> = [];

  constructor(
    private readonly destDir: string,
    private readonly partitionBy: string,
    private readonly prefix: string,
    private readonly allowed: ReadonlySet<string>,
  ) {}

  write(piece: Table): void {
    if (!this.schema) this.start(piece);
    piece.columns.forEach((c, i) => {
      if (i !== this.key && kindOf(c) !== this.kinds[i]) {
        throw new ArchiveError(
          'ARCHIVE_REPORT_CONTENT',
          `The report's column ${c.name} holds a cell that is not a ${this.kinds[i]}.`,
        );
      }
    });
    const floats = piece.columns.map((c, i) => (isNumeric(c) ? this.floatsOf(c, i) : undefined));
    for (const [value, rows] of this.rowsByValue(piece)) {
      const part = this.partFor(value);
      const columnData = [];
      for (let i = 0; i < piece.columns.length; i++) {
        if (i === this.key) continue;
        const c = piece.columns[i];
        // Statistics for the times only (row-group pruning by time); numbers written plain: ~2× faster.
        const time = this.kinds[i] === 'time';
        const number = this.kinds[i] === 'number';
        columnData.push({
          name: c.name,
          data: cellsOf(c, floats[i], rows),
          statistics: time,
          encoding: time || number ? ('PLAIN' as const) : undefined,
        });
      }
      // One page per column chunk (pageSize 0: no per-cell size estimate; a piece's chunk is well under 1 MB).
      part.pq.write({ columnData, rowGroupSize: ROW_GROUP_ROWS, pageSize: 0 });
      this.rows.set(value, (this.rows.get(value) ?? 0) + rows.length);
    }
  }

  /**
   * A number column's values as Float64, a decimal one's into the same buffer each piece: a fresh array
   * per piece and column (~2.4 MB a piece, outside the heap) raised a year's peak RSS ~10 MB.
   */
  private floatsOf(c: NumericColumn, i: number): Float64Array {
    if (!c.ints) return c.values;
    let buf = this.floatBuffers[i];
    if (!buf || buf.length < c.ints.length) {
      buf = new Float64Array(Math.max(c.ints.length, ROW_GROUP_ROWS));
      this.floatBuffers[i] = buf;
    }
    return decimalsToFloat64(c.ints, c.scale, buf).subarray(0, c.ints.length);
  }

  private start(piece: Table): void {
    this.key = piece.columns.findIndex((c) => c.name === this.partitionBy);
    if (this.key < 0) throw new Error(`The file has no ${this.partitionBy} column.`);
    // By the header, as the reader types them (typedOnly): a column a cell turned to text is refused.
    this.kinds = piece.columns.map((c) => headerKind(c.name));
    const kept = piece.columns.flatMap((c, i) => (i === this.key ? [] : [schemaElement(c.name, this.kinds[i])]));
    this.schema = [{ name: 'root', num_children: kept.length }, ...kept];
  }

  /** The rows of each partition value of the piece, in order of first appearance. */
  private rowsByValue(piece: Table): Map<string, number[]> {
    const c = piece.columns[this.key];
    // Read as text (typedOnly), unless the header named the column a time or a number.
    if (isNumeric(c) || c.kind === 'qcFlags') throw new Error(`The ${this.partitionBy} column is not text.`);
    const out = new Map<string, number[]>();
    for (let r = 0; r < piece.rowCount; r++) {
      const code = c.codes[r];
      const value = code < 0 ? '' : c.dict[code];
      let rows = out.get(value);
      if (!rows) {
        if (!this.allowed.has(value)) {
          throw new ArchiveError(
            'ARCHIVE_REPORT_CONTENT',
            `The report holds datasources that were not asked for: ${JSON.stringify(value.slice(0, 120))}.`,
          );
        }
        rows = [];
        out.set(value, rows);
      }
      rows.push(r);
    }
    return out;
  }

  private partFor(value: string): Part {
    if (this.open?.value === value) return this.open;
    this.closePart();
    const k = this.files.get(value) ?? 0;
    this.files.set(value, k + 1);
    const folder = join(this.destDir, `${this.partitionBy}=${value}`);
    mkdirSync(folder, { recursive: true });
    const fd = openSync(join(folder, `${this.prefix}-${k}.parquet`), 'wx');
    // One buffer for every file (one is open at a time), each row group written out as it is encoded.
    const writer = this.writer;
    writer.offset = 0;
    writer.index = 0;
    const flush = () => {
      writeSync(fd, new Uint8Array(writer.buffer, 0, writer.index));
      writer.index = 0;
    };
    Object.assign(writer, { flush, finish: flush });
    const pq = new ParquetWriter({ writer, schema: this.schema!, createdBy: 'measnb' });
    this.open = { value, fd, pq };
    return this.open;
  }

  closePart(): void {
    const part = this.open;
    if (!part) return;
    this.open = undefined;
    try {
      part.pq.finish();
    } finally {
      closeSync(part.fd);
    }
  }

  /** Closes the open file without finishing it (a failed conversion: its staging folder is thrown away). */
  abandon(): void {
    if (this.open) closeSync(this.open.fd);
    this.open = undefined;
  }
}

/** Bytes read from a file at a time, into one buffer (the reader copies what it keeps). */
const READ_BYTES = 64 * 1024;

/**
 * The file's bytes, READ_BYTES at a time, always in the same buffer: a stream's fresh buffer per chunk
 * piled up ~8 MB a month outside the JavaScript heap until a full collection.
 */
async function* fileChunks(path: string, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await file.read(buf, 0, READ_BYTES, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/**
 * Converts the csv-wide file `csv` into Parquet files under `destDir`, partitioned the Hive way by the
 * column `partitionBy` (every value must be in `allowed`: a value from the file never names a folder
 * unchecked). Returns the rows written per partition value.
 */
export async function csvToPartitionedParquet(
  csv: string,
  destDir: string,
  partitionBy: string,
  filePrefix: string,
  allowed: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<Map<string, number>> {
  const out = new PartitionedWriter(destDir, partitionBy, filePrefix, allowed);
  try {
    await readCsvWideInPieces(fileChunks(csv, signal), {
      rows: ROW_GROUP_ROWS,
      onPiece: (piece) => out.write(piece),
      signal,
    });
    out.closePart();
  } catch (e) {
    out.abandon();
    throw e;
  }
  return out.rows;
}
