// Table -> a GitHub-flavoured Markdown table (numbers right-aligned), for pasting into issues and notes.
import { markdownInline } from '../text/markdown';
import { cellText, type Table } from './table';

/** The rows given (all rows by default), in that order, with the header. */
export function tableToMarkdown(table: Table, rows?: ArrayLike<number>): string {
  const cols = table.columns;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  let out = line(cols.map((c) => markdownInline(c.name) || ' '));
  out += line(cols.map((c) => (c.kind === 'number' ? '---:' : '---')));
  const n = rows ? rows.length : table.rowCount;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i] : i;
    out += line(cols.map((c) => markdownInline(cellText(c, r))));
  }
  return out;
}
