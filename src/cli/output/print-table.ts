// A result table on stdout: CSV when piped or asked for, a fitted table with the row count on a terminal.
import { writeTableCsv } from '../../core/table/csv-export.node';
import type { Table } from '../../core/table/table';
import { renderFittedTable } from './fitted-table';

export function wantsCsv(flag: boolean | undefined): boolean {
  return Boolean(flag) || !process.stdout.isTTY;
}

export async function printTable(table: Table, csv: boolean): Promise<void> {
  if (csv) {
    await writeTableCsv(table, process.stdout);
    return;
  }
  process.stdout.write(renderFittedTable(table, { width: process.stdout.columns || 120 }));
}
