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
import { parquetWriteBuffer } from 'hyparquet-writer';
import { isoToMs } from '../time/iso';
import { DictBuilder, FlagsBuilder, NumberBuilder, parseFlags, TimeBuilder } from './builders';
import { classifyColumn } from './column-kinds';
import { type Column, isNumeric, type Table } from './table';

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
 * The first `maxRows` rows of a parquet-wide file read through `file` (only the row groups they are in are
 * read), and the file's row count (from its footer).
 */
export async function readParquetHead(
  file: AsyncBuffer,
  maxRows: number,
): Promise<{ table: Table; totalRows: number }> {
  const metadata = await parquetMetadataAsync(file);
  const totalRows = Number(metadata.num_rows);
  return { table: await readRows(file, metadata, Math.min(totalRows, Math.max(0, maxRows))), totalRows };
}

async function readRows(file: AsyncBuffer, metadata: FileMetaData, rowCount: number): Promise<Table> {
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  // Decoded chunks as hyparquet gives them (typed arrays for numbers), fed to the builders in row order.
  const chunks = new Map<string, Chunk[]>(names.map((n) => [n, []]));
  if (rowCount > 0) {
    await parquetRead({
      file,
      metadata,
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

/** A parquet-wide file of the table: numbers as DOUBLE, times as TIMESTAMP (ms), text and qcFlags (JSON text) as STRING. */
export function writeParquet(table: Table): Uint8Array {
  const columnData = table.columns.map((c) => {
    const n = table.rowCount;
    if (isNumeric(c)) {
      if (c.kind === 'time') {
        const data = new Array<Date | null>(n);
        for (let i = 0; i < n; i++) data[i] = Number.isNaN(c.values[i]) ? null : new Date(c.values[i]);
        return { name: c.name, data, type: 'TIMESTAMP' as const };
      }
      const data = new Array<number | null>(n);
      for (let i = 0; i < n; i++) data[i] = Number.isNaN(c.values[i]) ? null : c.values[i];
      return { name: c.name, data, type: 'DOUBLE' as const };
    }
    const dict = c.kind === 'qcFlags' ? c.dict.map((f) => JSON.stringify(f)) : c.dict;
    const data = new Array<string | null>(n);
    for (let i = 0; i < n; i++) data[i] = c.codes[i] < 0 ? null : dict[c.codes[i]];
    return { name: c.name, data, type: 'STRING' as const };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}
