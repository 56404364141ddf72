// --out: a result written as CSV or Parquet, chosen by the file name.

import { UsageError } from '../../core/api/errors';
import { writeFileViaPart, writeViaPart } from '../../core/io/part-file.node';
import { writeTableCsv } from '../../core/table/csv-export.node';
import { formatOfName } from '../../core/table/file-format';
import { writeParquet } from '../../core/table/parquet';
import type { Table } from '../../core/table/table';

type OutFormat = 'csv' | 'parquet';

export function outFormatOf(path: string): OutFormat {
  const format = formatOfName(path);
  if (format === 'csv' || format === 'parquet') return format;
  throw new UsageError(`--out ${path}: the file name must end in .csv or .parquet`);
}

/** Writes through a .part file renamed at the end, so a failed run never leaves a plausible file. */
export async function writeTableFile(table: Table, path: string): Promise<void> {
  if (outFormatOf(path) === 'parquet') await writeFileViaPart(path, writeParquet(table));
  else await writeViaPart(path, (out) => writeTableCsv(table, out));
}
