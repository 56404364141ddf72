// Table -> a GitHub-flavoured Markdown table (numbers right-aligned), for pasting into issues and notes.
import { markdownTable } from '../text/markdown';
import { cellText, type Table } from './table';

/** The rows given (all rows by default), in that order, with the header. */
export function tableToMarkdown(table: Table, rows?: ArrayLike<number>): string {
  const cols = table.columns;
  const n = rows ? rows.length : table.rowCount;
  const cells: string[][] = [];
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i] : i;
    cells.push(cols.map((c) => cellText(c, r)));
  }
  const header = cols.map((c) => c.name || ' '); // an empty name stays a cell
  return `${markdownTable(
    header,
    cells,
    cols.map((c) => c.kind === 'number'),
  )}\n`;
}
