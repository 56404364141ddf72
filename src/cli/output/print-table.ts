// A result table on stdout: CSV when piped or asked for, a fitted table with the row count on a terminal.
// CSV on a terminal shows control characters escaped (output/stdout.ts); piped, the bytes are kept.
import { writeTableCsv } from '../../core/table/csv-export.node';
import type { Table } from '../../core/table/table';
import { renderFittedTable } from './fitted-table';
import { writeDataToStdout } from './stdout';

export function wantsCsv(flag: boolean | undefined): boolean {
  return Boolean(flag) || !process.stdout.isTTY;
}

export async function printTable(table: Table, csv: boolean): Promise<void> {
  if (csv) {
    // On a terminal, control characters in values are shown escaped; piped, the bytes as they are.
    await writeDataToStdout((out) => writeTableCsv(table, out));
    return;
  }
  process.stdout.write(renderFittedTable(table, { width: process.stdout.columns || 120 }));
}
