// A local table file (.csv, .csv.gz, .parquet) -> its first rows as a Table and its row count, streamed:
// a CSV goes through the reader chunk by chunk (gunzipped by content), a Parquet file is read through
// positioned reads (its footer, then only the pages of the rows kept; a file whose pages are far longer than
// that, as DuckDB writes them, through the SQL engine). Memory is bounded by the rows kept, whatever the
// file's size.

import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { AsyncBuffer } from 'hyparquet';
import { gunzipIfGzipped } from '../io/gzip.node';
import { readCsvWideHead } from '../table/csv-read.node';
import { ParquetPagesTooLarge, readParquetHead } from '../table/parquet';
import type { Table } from '../table/table';
import { quoteString, SqlEngine } from './engine.node';

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
  /**
   * Parquet: the most rows the pages holding the kept rows may hold (all are decoded) before the file is
   * read through the SQL engine instead; default max(2 × maxRows, 1,000,000).
   */
  maxDecodedRows?: number;
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
    // Pages far longer than the rows kept (DuckDB writes one page per column and row group) would all be
    // decoded in JavaScript: those files are read by the SQL engine instead, streaming, up to the limit.
    const maxDecodedRows = options.maxDecodedRows ?? Math.max(2 * options.maxRows, MIN_DECODED_ROWS);
    return await readParquetHead(fileBuffer(handle, size, options), options.maxRows, { maxDecodedRows });
  } catch (e) {
    if (!(e instanceof ParquetPagesTooLarge)) throw e;
    return { table: await readParquetWithEngine(filePath, options), totalRows: e.totalRows };
  } finally {
    await handle.close();
  }
}

/** Rows a Parquet read may decode beyond the ones kept before the SQL engine reads the file instead. */
const MIN_DECODED_ROWS = 1_000_000;

async function readParquetWithEngine(filePath: string, options: TableFileOptions): Promise<Table> {
  const engine = await SqlEngine.openBeside(filePath);
  try {
    const limit = Math.max(0, Math.floor(options.maxRows));
    return await engine.query(`SELECT * FROM read_parquet(${quoteString(filePath)}) LIMIT ${limit}`, {
      signal: options.signal,
    });
  } finally {
    engine.close();
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
