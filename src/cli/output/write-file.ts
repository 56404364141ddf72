// --out: a result written as CSV or Parquet, chosen by the file name.
import { createWriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { writeTableCsv } from '../../core/table/csv-export.node';
import { writeParquet } from '../../core/table/parquet';
import type { Table } from '../../core/table/table';
import { UsageError } from '../errors';

export type OutFormat = 'csv' | 'parquet';

export function outFormatOf(path: string): OutFormat {
  if (/\.csv$/i.test(path)) return 'csv';
  if (/\.parquet$/i.test(path)) return 'parquet';
  throw new UsageError(`--out ${path}: the file name must end in .csv or .parquet`);
}

/** Writes through a .part file renamed at the end, so a failed run never leaves a plausible file. */
export async function writeTableFile(table: Table, path: string): Promise<void> {
  const format = outFormatOf(path);
  const part = `${path}.part`;
  try {
    if (format === 'parquet') {
      await writeFile(part, writeParquet(table));
    } else {
      const out = createWriteStream(part);
      await writeTableCsv(table, out);
      out.end();
      await finished(out);
    }
    await rename(part, path);
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
}
