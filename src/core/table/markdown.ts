// Table -> a GitHub-flavoured Markdown table (numbers right-aligned), for pasting into issues and notes.
import { cellText, type Table } from './table';

/** Pipes escaped, line breaks as spaces: one cell stays one cell. */
function mdCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, ' ');
}

/** The rows given (all rows by default), in that order, with the header. */
export function tableToMarkdown(table: Table, rows?: ArrayLike<number>): string {
  const cols = table.columns;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  let out = line(cols.map((c) => mdCell(c.name) || ' '));
  out += line(cols.map((c) => (c.kind === 'number' ? '---:' : '---')));
  const n = rows ? rows.length : table.rowCount;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i] : i;
    out += line(cols.map((c) => mdCell(cellText(c, r))));
  }
  return out;
}
