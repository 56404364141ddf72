// The first rows of a table as text cells, shared by the HTML, Markdown and ipynb exporters.
import { cellText, type Table } from '../../table/table';

export interface TableSlice {
  header: string[];
  rows: string[][];
  totalRows: number;
}

const DEFAULT_EXPORT_ROWS = 100;

export function tableSlice(table: Table, maxRows: number = DEFAULT_EXPORT_ROWS): TableSlice {
  const n = Math.min(table.rowCount, Math.max(0, maxRows));
  const rows: string[][] = [];
  for (let r = 0; r < n; r++) rows.push(table.columns.map((c) => cellText(c, r)));
  return { header: table.columns.map((c) => c.name), rows, totalRows: table.rowCount };
}

/** "Showing the first 100 of 12,345 rows." or undefined when every row is shown. */
export function sliceNote(slice: TableSlice): string | undefined {
  if (slice.rows.length >= slice.totalRows) return undefined;
  return `Showing the first ${slice.rows.length.toLocaleString('en-US')} of ${slice.totalRows.toLocaleString('en-US')} rows.`;
}
