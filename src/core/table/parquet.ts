// parquet-wide <-> Table with hyparquet / hyparquet-writer. Columns are classified by name exactly
// like csv-wide; the parquet types only settle what the header cannot tell (unknown columns).

import {
  type AsyncBuffer,
  type FileMetaData,
  parquetMetadata,
  parquetMetadataAsync,
  parquetRead,
  parquetSchema,
} from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { ByteWriter, ParquetWriter, parquetWriteBuffer, schemaFromColumnData } from 'hyparquet-writer';
import { ParquetPagesTooLarge } from '../api/errors';
import { MAX_COLUMNS, MAX_KEPT_CELLS } from '../io/limits';
import { isoToMs } from '../time/iso';
import { DictBuilder, FlagsBuilder, NumberBuilder, parseFlags, TimeBuilder } from './builders';
import { classifyColumn } from './column-kinds';
import { type Column, isNumeric, numberAt, type Table } from './table';

type Cell = unknown;

interface Chunk {
  rowStart: number;
  data: ArrayLike<Cell>;
}

export async function readParquet(bytes: Uint8Array | ArrayBuffer): Promise<Table> {
  const file =
    bytes instanceof ArrayBuffer
      ? bytes
      : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const metadata = parquetMetadata(file);
  return readRows(file, metadata, Number(metadata.num_rows));
}

/**
 * The first `maxRows` rows of a parquet-wide file read through `file` (only the pages they are in are
 * read), and the file's row count (from its footer). When those pages hold more than `maxDecodedRows`
 * rows (all of which would be decoded), or more than MAX_DECODED_BYTES, rejects with ParquetPagesTooLarge
 * before decoding any.
 */
export async function readParquetHead(
  file: AsyncBuffer,
  maxRows: number,
  options: { maxDecodedRows?: number } = {},
): Promise<{ table: Table; totalRows: number; sizeLimited: boolean }> {
  const metadata = await parquetMetadataAsync(boundedFooter(file));
  const totalRows = Number(metadata.num_rows);
  const columns = parquetSchema(metadata).children.length;
  if (columns > MAX_COLUMNS)
    throw new Error(`the file has ${columns} columns, more than the ${MAX_COLUMNS} a table may have`);
  const wanted = Math.min(totalRows, Math.max(0, maxRows));
  // As for CSV: no more cells kept than MAX_KEPT_CELLS.
  const rowCount = Math.min(wanted, Math.floor(MAX_KEPT_CELLS / Math.max(1, columns)));
  const cut = await cutToRows(file, metadata, rowCount);
  // Pages holding far more rows, or more decoded bytes, than a table keeps: the SQL engine reads the file.
  if (cut.decodedRows > (options.maxDecodedRows ?? Number.POSITIVE_INFINITY) || cut.decodedBytes > MAX_DECODED_BYTES) {
    throw new ParquetPagesTooLarge(totalRows, cut.decodedRows);
  }
  return { table: await readRows(file, cut.metadata, rowCount), totalRows, sizeLimited: rowCount < wanted };
}

/**
 * The most bytes the pages of a head read may decode to (their uncompressed sizes, every column): more
 * (text of megabytes per cell, or a page claiming a gigabyte) goes to the SQL engine, as too many rows do.
 */
const MAX_DECODED_BYTES = 512 * 1024 * 1024;

/** The longest footer (the file's metadata) read; a real one is a few KB to a few hundred KB. */
const MAX_FOOTER_BYTES = 16 * 1024 * 1024;

/** The file as hyparquet reads its metadata through: a read longer than MAX_FOOTER_BYTES is refused. */
function boundedFooter(file: AsyncBuffer): AsyncBuffer {
  return {
    byteLength: file.byteLength,
    slice(start: number, end = file.byteLength) {
      if (end - start > MAX_FOOTER_BYTES) {
        throw new Error(`the file's metadata is longer than the ${MAX_FOOTER_BYTES} bytes read (${end - start} asked)`);
      }
      return file.slice(start, end);
    },
  };
}

/**
 * The metadata to read the first `rowCount` rows through: in the row group they end in, each column chunk
 * is cut after the page holding its last needed row (found by reading the page headers), so that hyparquet
 * reads those pages and not the whole chunk (a file written as one row group is not read whole). Columns
 * that are not flat are left whole. `decodedRows`: the rows the read will decode (whole pages).
 */
async function cutToRows(
  file: AsyncBuffer,
  metadata: FileMetaData,
  rowCount: number,
): Promise<{ metadata: FileMetaData; decodedRows: number; decodedBytes: number }> {
  const flat = new Set(
    parquetSchema(metadata)
      .children.filter((c) => c.children.length === 0 && c.element.repetition_type !== 'REPEATED')
      .map((c) => c.element.name),
  );
  let groupStart = 0;
  let decodedRows = 0;
  let decodedBytes = 0;
  const groups = [];
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    const need = rowCount - groupStart;
    groupStart += groupRows;
    if (need <= 0) {
      groups.push(group); // not read
      continue;
    }
    const whole = need >= groupRows;
    const groupFirst = groupStart - groupRows;
    const columns = await Promise.all(
      group.columns.map(async (chunk) => {
        const meta = chunk.meta_data;
        if (meta?.path_in_schema.length !== 1 || !flat.has(meta.path_in_schema[0])) return chunk;
        const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
        // A whole group's pages are walked too, to check them before hyparquet decodes them.
        const cut = await bytesForRows(
          file,
          start,
          Number(meta.total_compressed_size),
          whole ? groupRows : need,
          groupRows,
        );
        decodedRows = Math.max(decodedRows, groupFirst + cut.rows);
        decodedBytes += cut.decodedBytes;
        return whole ? chunk : { ...chunk, meta_data: { ...meta, total_compressed_size: BigInt(cut.bytes) } };
      }),
    );
    groups.push(whole ? group : { ...group, columns });
  }
  return { metadata: { ...metadata, row_groups: groups }, decodedRows, decodedBytes };
}

/** The longest page header read (statistics make them long; a real one is well under a KB). */
const MAX_PAGE_HEADER_BYTES = 1 << 20;

/**
 * The bytes of a flat column chunk (at `start`, `size` long) up to the end of the page holding row `rows`,
 * and the rows of those pages. The file's own numbers are checked as they are read: the chunk lies within
 * the file, each page size is a non-negative integer (so every header read moves past itself and its page:
 * a size of minus the header's length would read the same header forever), each page ends in the chunk,
 * and the pages hold no more values than the row group has rows (`groupRows`).
 */
async function bytesForRows(
  file: AsyncBuffer,
  start: number,
  size: number,
  rows: number,
  groupRows: number,
): Promise<{ bytes: number; rows: number; decodedBytes: number }> {
  if (!(start >= 0 && size >= 0 && start + size <= file.byteLength)) {
    throw new Error(`a column chunk (${size} bytes at ${start}) lies outside the file (${file.byteLength} bytes)`);
  }
  let at = 0;
  let counted = 0;
  let decodedBytes = 0;
  let window = 1024;
  while (at < size && counted < rows) {
    const length = Math.min(window, size - at);
    const reader = { view: new DataView(await file.slice(start + at, start + at + length)), offset: 0 };
    let header: ReturnType<typeof parquetHeader>;
    try {
      header = parquetHeader(reader);
    } catch (e) {
      // A header longer than the window (large statistics): read more of it.
      if (length === size - at) throw e;
      if (window >= MAX_PAGE_HEADER_BYTES)
        throw new Error(`a page header is longer than ${MAX_PAGE_HEADER_BYTES} bytes`);
      window = Math.min(window * 8, MAX_PAGE_HEADER_BYTES);
      continue;
    }
    const pageBytes = header.compressed_page_size;
    const values = header.data_page_header_v2?.num_rows ?? header.data_page_header?.num_values ?? 0;
    if (!(Number.isSafeInteger(pageBytes) && pageBytes >= 0) || !(Number.isSafeInteger(values) && values >= 0)) {
      throw new Error(`a page header at byte ${start + at} says ${pageBytes} bytes and ${values} values`);
    }
    const next = at + reader.offset + pageBytes;
    if (next > size) throw new Error(`a page at byte ${start + at} (${pageBytes} bytes) ends past its column chunk`);
    at = next;
    counted += values;
    decodedBytes += Math.max(0, Number(header.uncompressed_page_size) || 0);
    if (counted > groupRows) {
      // A flat column has one value per row: more would be decoded (and allocated) for nothing.
      throw new Error(
        `the pages of a column hold ${counted} values, more than the ${groupRows} rows of their row group`,
      );
    }
  }
  return { bytes: Math.min(at, size), rows: counted, decodedBytes };
}

async function readRows(file: AsyncBuffer, metadata: FileMetaData, rowCount: number): Promise<Table> {
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  // Decoded chunks as hyparquet gives them (typed arrays for numbers), fed to the builders in row order.
  const chunks = new Map<string, Chunk[]>(names.map((n) => [n, []]));
  if (rowCount > 0) {
    await parquetRead({
      file,
      metadata,
      // Named columns: their byte ranges are fetched apart (hyparquet joins unnamed ones over any gap).
      columns: names,
      rowStart: 0,
      rowEnd: rowCount,
      onChunk: ({ columnName, columnData, rowStart }) => {
        chunks.get(columnName)?.push({ rowStart, data: columnData as ArrayLike<Cell> });
      },
    });
  }
  return { columns: names.map((name) => buildColumn(name, chunks.get(name)!, rowCount)), rowCount };
}

/** Every cell of a column in row order; rows no chunk covers are null. */
function* cellsOf(chunks: Chunk[], rowCount: number): Generator<Cell> {
  chunks.sort((a, b) => a.rowStart - b.rowStart);
  let row = 0;
  for (const { rowStart, data } of chunks) {
    for (; row < rowStart && row < rowCount; row++) yield null;
    for (let i = row - rowStart; i < data.length && row < rowCount; i++, row++) yield data[i];
  }
  for (; row < rowCount; row++) yield null;
}

function buildColumn(name: string, chunks: Chunk[], rowCount: number): Column {
  const info = classifyColumn(name);
  const meta = { name, canonical: info.canonical, metric: info.metric };
  let kind = info.kind;
  if (info.inferred) {
    let sample: Cell;
    for (const c of chunks) {
      for (let i = 0; i < c.data.length && sample == null; i++) sample = c.data[i];
      if (sample != null) break;
    }
    if (typeof sample === 'number' || typeof sample === 'bigint') kind = 'number';
    else if (sample instanceof Date) kind = 'time';
  }
  const values = cellsOf(chunks, rowCount);
  switch (kind) {
    case 'number': {
      const b = new NumberBuilder();
      for (const v of values) b.pushNumber(toNumber(v));
      return b.finish(meta);
    }
    case 'time': {
      const b = new TimeBuilder();
      for (const v of values) b.pushTime(toTime(v));
      return b.finish(meta);
    }
    case 'qcFlags': {
      const b = new FlagsBuilder();
      for (const v of values) b.pushFlags(toFlags(v));
      return b.finish(meta);
    }
    default: {
      const b = new DictBuilder(kind);
      for (const v of values) b.push(v === null || v === undefined ? '' : String(v));
      return b.finish(meta);
    }
  }
}

function toNumber(v: Cell): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') return +v;
  return Number.NaN;
}

function toTime(v: Cell): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'string') return isoToMs(v);
  if (typeof v === 'number' || typeof v === 'bigint') return Number(v);
  return Number.NaN;
}

function toFlags(v: Cell): string[] | undefined {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v !== '') return parseFlags(v) ?? [v];
  return undefined;
}

/** The parquet column data of rows [start, end): numbers DOUBLE, times TIMESTAMP, text and qcFlags STRING. */
function columnDataOf(table: Table, start: number, end: number) {
  const n = end - start;
  return table.columns.map((c) => {
    if (isNumeric(c)) {
      if (c.kind === 'time') {
        const data = new Array<Date | null>(n);
        for (let i = 0; i < n; i++) {
          const v = c.values[start + i];
          data[i] = Number.isNaN(v) ? null : new Date(v);
        }
        return { name: c.name, data, type: 'TIMESTAMP' as const };
      }
      const data = new Array<number | null>(n);
      for (let i = 0; i < n; i++) {
        const v = numberAt(c, start + i);
        data[i] = Number.isNaN(v) ? null : v;
      }
      return { name: c.name, data, type: 'DOUBLE' as const };
    }
    const dict = c.kind === 'qcFlags' ? c.dict.map((f) => JSON.stringify(f)) : c.dict;
    const data = new Array<string | null>(n);
    for (let i = 0; i < n; i++) {
      const code = c.codes[start + i];
      data[i] = code < 0 ? null : dict[code];
    }
    return { name: c.name, data, type: 'STRING' as const };
  });
}

/** A parquet-wide file of the table: numbers as DOUBLE, times as TIMESTAMP (ms), text and qcFlags (JSON text) as STRING. */
export function writeParquet(table: Table): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({ columnData: columnDataOf(table, 0, table.rowCount) }));
}

/** hyparquet-writer's row groups: 1,000 rows, then 100,000 at a time. */
const ROW_GROUPS = [1_000, 100_000];

/**
 * The same file as writeParquet (byte for byte), written one row group at a time with a turn of the event
 * loop between groups: in the extension host, a million rows no longer hold its thread for the whole write
 * (a progressive output's rows are answered meanwhile). Each group's column data is made only for it.
 */
export async function writeParquetInTurns(
  table: Table,
  turn: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
): Promise<Uint8Array> {
  const writer = new ByteWriter();
  const pq = new ParquetWriter({ writer, schema: schemaFromColumnData({ columnData: columnDataOf(table, 0, 0) }) });
  for (let start = 0, g = 0; start < table.rowCount; g++) {
    const end = Math.min(table.rowCount, start + ROW_GROUPS[Math.min(g, ROW_GROUPS.length - 1)]);
    pq.write({ columnData: columnDataOf(table, start, end), rowGroupSize: end - start });
    start = end;
    await turn();
  }
  pq.finish();
  return new Uint8Array(writer.getBuffer());
}
