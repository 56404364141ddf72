// A local table file (.csv, .csv.gz, .parquet) -> its first rows as a Table and its row count, streamed:
// a CSV goes through the reader chunk by chunk (gunzipped by content), a Parquet file is read through
// positioned reads (its footer, then only the pages of the rows kept; a file whose pages are far longer than
// that, as DuckDB writes them, through the SQL engine). Memory is bounded by the rows kept, whatever the
// file's size.

import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AsyncBuffer } from 'hyparquet';
import { ParquetPagesTooLarge, TableFileError } from '../api/errors';
import { gunzipIfGzipped } from '../io/gzip.node';
import { readCsvWideHead } from '../table/csv-read.node';
import { formatOfName, notATableFile, type TableFileFormat } from '../table/file-format';
import { readParquetHead } from '../table/parquet';
import type { Table } from '../table/table';
import { quoteString, SqlEngine } from './engine.node';

interface TableFileOptions {
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
  /**
   * Fewer rows than maxRows are kept because they would pass what a table keeps (MAX_KEPT_CELLS cells,
   * MAX_KEPT_BYTES of text: core/table/csv-wide-reader.ts).
   */
  sizeLimited?: boolean;
  format: TableFileFormat;
  bytes: number;
}

/** Reads a local table file; a file that is not one of the formats, or is malformed, rejects with TableFileError. */
export async function readTableFile(filePath: string, options: TableFileOptions): Promise<TableFileRead> {
  const format = formatOfName(filePath);
  if (!format) throw new TableFileError(notATableFile(filePath));
  const handle = await openRegularFile(filePath);
  try {
    const { size } = await handle.stat();
    try {
      const read =
        format === 'parquet'
          ? await readParquetFile(filePath, handle, size, options)
          : await readCsvFile(handle, size, options);
      return { ...read, format, bytes: size };
    } catch (e) {
      if (options.signal?.aborted) throw e;
      const kind = format === 'parquet' ? 'a Parquet' : 'a CSV';
      throw new TableFileError(`This file could not be read as ${kind} table: ${(e as Error).message}`, { cause: e });
    }
  } finally {
    await handle.close();
  }
}

/** What a path that is not a regular file is, for the refusal. */
function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** O_NONBLOCK where the platform has it: opening a FIFO then returns at once instead of waiting for a writer. */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Opens a regular file for reading (links followed); anything else (a device such as /dev/zero, a FIFO, a
 * socket, a folder, or a link to one) is refused with TableFileError before a byte is read. Checked twice:
 * by path first (a FIFO is never opened, so no open waits for a writer in libuv's threadpool), then on the
 * open file (the path may have been swapped in between; O_NONBLOCK keeps that open from waiting too).
 */
export async function openRegularFile(filePath: string): Promise<fs.promises.FileHandle> {
  const name = path.basename(filePath);
  const refuse = (stat: fs.Stats, linked: boolean) =>
    new TableFileError(
      `${name} is ${kindOf(stat)}${linked ? ' (through a symbolic link)' : ''}, not a regular file: only regular files open as a table.`,
    );
  const [link, stat] = await Promise.all([fs.promises.lstat(filePath), fs.promises.stat(filePath)]);
  if (!stat.isFile()) throw refuse(stat, link.isSymbolicLink());
  const handle = await fs.promises.open(filePath, OPEN_FLAGS);
  const opened = await handle.stat().catch(async (e: unknown) => {
    await handle.close();
    throw e;
  });
  if (!opened.isFile()) {
    await handle.close();
    throw refuse(opened, link.isSymbolicLink());
  }
  return handle;
}

async function readCsvFile(
  handle: fs.promises.FileHandle,
  size: number,
  options: TableFileOptions,
): Promise<{ table: Table; totalRows: number; sizeLimited?: boolean }> {
  // The handle stays open (closed by readTableFile): the stream reads through it.
  const file = handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false });
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
  handle: fs.promises.FileHandle,
  size: number,
  options: TableFileOptions,
): Promise<{ table: Table; totalRows: number; sizeLimited?: boolean }> {
  try {
    // Pages far longer than the rows kept (DuckDB writes one page per column and row group) would all be
    // decoded in JavaScript: those files are read by the SQL engine instead, streaming, up to the limit.
    const maxDecodedRows = options.maxDecodedRows ?? Math.max(2 * options.maxRows, MIN_DECODED_ROWS);
    return await readParquetHead(fileBuffer(handle, size, options), options.maxRows, { maxDecodedRows });
  } catch (e) {
    if (!(e instanceof ParquetPagesTooLarge)) throw e;
    return { table: await readParquetWithEngine(filePath, options), totalRows: e.totalRows };
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
      // Never past the file's end: offsets come from the file itself (a claimed size allocates nothing).
      const out = new Uint8Array(Math.max(0, Math.min(end, size) - Math.max(0, start)));
      start = Math.max(0, start);
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
