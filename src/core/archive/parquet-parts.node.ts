// The archive's writer: a report's csv-wide file → Hive-partitioned Parquet, in this process and without
// DuckDB (its code pages and instance were ~75 MB of the archive's peak RSS: docs/PERFORMANCE.md, row 14c).
// The file is read in pieces of ~ROW_GROUP_ROWS rows (core/table's csv-wide reader: times and numbers
// parsed, every other column its text as written), each piece's rows split by datasource and written as
// one row group of that datasource's open partition file by core/archive's Parquet writer
// (parquet-write.ts). Columns are typed as our tables type them, as DuckDB's COPY wrote them before: times
// INT64 TIMESTAMP(MICROS, UTC), numbers DOUBLE, the rest UTF8 text; snappy; the partition column left out
// of the files (Hive folders).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { ArchiveError } from '../api/errors';
import { classifyColumn } from '../table/column-kinds';
import { readCsvWideInPieces } from '../table/csv-read.node';
import { decimalsToFloat64 } from '../table/decimal';
import { type Column, isNumeric, type NumericColumn, type Table } from '../table/table';
import {
  type ParquetColumn,
  ParquetEncoder,
  type ParquetFile,
  type ParquetKind,
  type PieceCells,
} from './parquet-write';

/** Rows per piece read, and so per row group (a month of minute data peaked 37 MB lower than with 16,384). */
export const ROW_GROUP_ROWS = 4096;

interface Part {
  value: string;
  fd: number;
  pq: ParquetFile;
}

function headerKind(name: string): ParquetKind {
  const { kind } = classifyColumn(name);
  return kind === 'time' ? 'time' : kind === 'number' ? 'double' : 'text';
}

const kindOf = (c: Column): ParquetKind => (c.kind === 'time' ? 'time' : c.kind === 'number' ? 'double' : 'text');

/** Writes the pieces of one csv file into `destDir/<partitionBy>=<value>/<prefix>-<k>.parquet`. */
class PartitionedWriter {
  private schema: ParquetColumn[] | undefined;
  private kinds: ParquetKind[] = [];
  private key = -1;
  private open: Part | undefined;
  /** Files started per value (a value met again after another gets a new file: one file open at a time). */
  private readonly files = new Map<string, number>();
  readonly rows = new Map<string, number>();
  private readonly encoder = new ParquetEncoder();
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
          `The report's column ${c.name} holds a cell that is not a ${this.kinds[i] === 'double' ? 'number' : this.kinds[i]}.`,
        );
      }
    });
    const cells = this.cellsOf(piece);
    for (const [value, rows] of this.rowsByValue(piece)) {
      const { pq } = this.partFor(value);
      // A piece can run past ROW_GROUP_ROWS (the reader ends it at a chunk's end): row groups stay within it.
      if (rows.length <= ROW_GROUP_ROWS) pq.writeRowGroup(cells, rows);
      else
        for (let s = 0; s < rows.length; s += ROW_GROUP_ROWS)
          pq.writeRowGroup(cells, rows.slice(s, s + ROW_GROUP_ROWS));
      this.rows.set(value, (this.rows.get(value) ?? 0) + rows.length);
    }
  }

  /** The piece's columns but the partition one, as the Parquet writer takes them (made once per piece). */
  private cellsOf(piece: Table): PieceCells[] {
    const out: PieceCells[] = [];
    piece.columns.forEach((c, i) => {
      if (i === this.key) return;
      if (isNumeric(c)) out.push({ kind: c.kind === 'time' ? 'time' : 'double', values: this.floatsOf(c, i) });
      else if (c.kind === 'qcFlags')
        out.push({ kind: 'text', codes: c.codes, texts: c.dict.map((f) => JSON.stringify(f)) });
      else out.push({ kind: 'text', codes: c.codes, texts: c.dict });
    });
    return out;
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
    this.schema = piece.columns.flatMap((c, i) => (i === this.key ? [] : [{ name: c.name, kind: this.kinds[i] }]));
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
    // One encoder for every file (one is open at a time), each row group written out as it is encoded.
    const pq = this.encoder.file(this.schema!, (bytes) => {
      writeSync(fd, bytes);
    });
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
