// parquet-wide <-> Table with hyparquet / hyparquet-writer. Columns are classified by name exactly
// like csv-wide; the parquet types only settle what the header cannot tell (unknown columns).

import { parquetMetadata, parquetRead, parquetSchema } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { DictBuilder, FlagsBuilder, NumberBuilder, parseFlags, TimeBuilder } from './builders';
import { classifyColumn } from './column-kinds';
import { type Column, isNumeric, type Table } from './table';

type Cell = unknown;

export async function readParquet(bytes: Uint8Array | ArrayBuffer): Promise<Table> {
  const file =
    bytes instanceof ArrayBuffer
      ? bytes
      : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const metadata = parquetMetadata(file);
  const rowCount = Number(metadata.num_rows);
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  const cells = new Map<string, Cell[]>(names.map((n) => [n, new Array<Cell>(rowCount).fill(null)]));
  await parquetRead({
    file,
    metadata,
    onChunk: ({ columnName, columnData, rowStart }) => {
      const target = cells.get(columnName);
      if (!target) return;
      for (let i = 0; i < columnData.length && rowStart + i < rowCount; i++) target[rowStart + i] = columnData[i];
    },
  });
  return { columns: names.map((name) => buildColumn(name, cells.get(name)!)), rowCount };
}

function buildColumn(name: string, values: Cell[]): Column {
  const info = classifyColumn(name);
  const meta = { name, canonical: info.canonical, metric: info.metric };
  let kind = info.kind;
  if (info.inferred) {
    const sample = values.find((v) => v !== null && v !== undefined);
    if (typeof sample === 'number' || typeof sample === 'bigint') kind = 'number';
    else if (sample instanceof Date) kind = 'time';
  }
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
  if (typeof v === 'string') return Date.parse(v);
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
