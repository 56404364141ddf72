// A local table file (.csv, .csv.gz, .parquet) -> its first rows as a Table and its row count, streamed:
// a CSV goes through the reader chunk by chunk (gunzipped by content), a Parquet file is read through
// positioned reads (its footer, then only the row groups of the rows kept). Memory is bounded by the rows
// kept, whatever the file's size.

import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { AsyncBuffer } from 'hyparquet';
import { gunzipIfGzipped } from '../api/gzip.node';
import { readCsvWideHead } from './csv-read.node';
import { readParquetHead } from './parquet';
import type { Table } from './table';

export type TableFileFormat = 'csv' | 'csv.gz' | 'parquet';

/** The format a file name says it has (.csv, .csv.gz, .parquet; any case), or undefined. */
export function tableFileFormat(name: string): TableFileFormat | undefined {
  const m = /\.(csv|csv\.gz|parquet)$/i.exec(name);
  return m ? (m[1].toLowerCase() as TableFileFormat) : undefined;
}

export interface TableFileOptions {
  /** Rows kept; the rest are counted. */
  maxRows: number;
  signal?: AbortSignal;
  /** Bytes of the file read so far (of `total`), as the read goes. */
  onProgress?: (read: number, total: number) => void;
  /** A CSV with more than maxRows rows: its kept rows, as soon as they are read (the count goes on). */
  onFirstRows?: (table: Table) => void;
}

export interface TableFileRead {
  table: Table;
  /** Rows in the whole file (table.rowCount of them are in the table). */
  totalRows: number;
  format: TableFileFormat;
  bytes: number;
}

export class TableFileError extends Error {
  readonly code = 'TABLE_FILE';
}

/** Reads a local table file; a file that is not one of the formats, or is malformed, rejects with TableFileError. */
export async function readTableFile(filePath: string, options: TableFileOptions): Promise<TableFileRead> {
  const format = tableFileFormat(filePath);
  if (!format) throw new TableFileError(`${filePath} is not a .csv, .csv.gz or .parquet file.`);
  const { size } = await fs.promises.stat(filePath);
  try {
    const read =
      format === 'parquet'
        ? await readParquetFile(filePath, size, options)
        : await readCsvFile(filePath, size, options);
    return { ...read, format, bytes: size };
  } catch (e) {
    if (options.signal?.aborted) throw e;
    const kind = format === 'parquet' ? 'a Parquet' : 'a CSV';
    throw new TableFileError(`This file could not be read as ${kind} table: ${(e as Error).message}`);
  }
}

async function readCsvFile(
  filePath: string,
  size: number,
  options: TableFileOptions,
): Promise<{ table: Table; totalRows: number }> {
  const file = fs.createReadStream(filePath, { highWaterMark: 1 << 20 });
  file.on('data', () => options.onProgress?.(file.bytesRead, size));
  const text = gunzipIfGzipped();
  // The pipeline ends with the file (or its first error); the reader pulls the decoded text at its pace.
  const piped = pipeline(file, text, { signal: options.signal });
  piped.catch(() => undefined);
  try {
    const read = await readCsvWideHead(text, options);
    await piped;
    return read;
  } finally {
    file.destroy();
    text.destroy();
  }
}

async function readParquetFile(
  filePath: string,
  size: number,
  options: TableFileOptions,
): Promise<{ table: Table; totalRows: number }> {
  const handle = await fs.promises.open(filePath, 'r');
  try {
    return await readParquetHead(fileBuffer(handle, size, options), options.maxRows);
  } finally {
    await handle.close();
  }
}

/** Positioned reads of an open file, as hyparquet reads a Parquet file (footer first, then column chunks). */
function fileBuffer(handle: fs.promises.FileHandle, size: number, options: TableFileOptions): AsyncBuffer {
  let read = 0;
  return {
    byteLength: size,
    async slice(start: number, end = size): Promise<ArrayBuffer> {
      options.signal?.throwIfAborted();
      const out = new Uint8Array(Math.max(0, end - start));
      let at = 0;
      while (at < out.length) {
        const { bytesRead } = await handle.read(out, at, out.length - at, start + at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      read += at;
      options.onProgress?.(Math.min(read, size), size);
      return out.buffer;
    },
  };
}
