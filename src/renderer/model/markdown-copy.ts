// "Copy Markdown": the selected rows, or else the rows shown (sorted and filtered), as a Markdown table.
import { tableToMarkdown } from '../../core/table/markdown';
import type { Table } from '../../core/table/table';
import { type Selection, selectionSize } from './selection';

/** More rows than this make a Markdown table nobody reads: the copy stops there and says so. */
export const MARKDOWN_MAX_ROWS = 1000;

export function markdownOfRows(
  table: Table,
  viewRows: Uint32Array,
  selection: Selection,
): { text: string; status: string } {
  const rows: number[] = [];
  if (selectionSize(selection)) {
    for (const [a, b] of selection.ranges)
      for (let pos = a; pos <= b && pos < viewRows.length; pos++) rows.push(viewRows[pos]);
  } else {
    for (let pos = 0; pos < viewRows.length; pos++) rows.push(viewRows[pos]);
  }
  const shown = rows.slice(0, MARKDOWN_MAX_ROWS);
  const n = (x: number) => x.toLocaleString('en-US');
  const status =
    shown.length < rows.length
      ? `Copied the first ${n(shown.length)} of ${n(rows.length)} rows as a Markdown table`
      : `Copied ${n(shown.length)} rows as a Markdown table`;
  return { text: tableToMarkdown(table, shown), status };
}
