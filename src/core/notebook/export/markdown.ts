// A notebook with its results as Markdown: markdown cells as written but their raw HTML escaped (markdown-
// cells), query cells in ```measq fences, tables as Markdown tables of their first rows with a note of the
// total; every value from a result is text (core/text/markdown markdownInline).

import { markdownInline, markdownTable } from '../../text/markdown';
import type { Notebook, NotebookCell } from '../model';
import { markdownWithoutHtml } from './markdown-cells';
import { outputView } from './output-view';
import { sliceNote, type TableSlice, tableSlice } from './table-slice';
import type { ExportOptions } from './types';

/** A fence longer than any backtick run inside the text, so no content can close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  return '`'.repeat(longest + 1);
}

function sliceMarkdown(slice: TableSlice): string {
  const table = markdownTable(slice.header, slice.rows);
  const note = sliceNote(slice);
  return note ? `${table}\n\n_${note}_` : table;
}

function cellMarkdown(cell: NotebookCell, options: ExportOptions): string {
  if (cell.kind === 'markup') return markdownWithoutHtml(cell.source);
  const f = fence(cell.source);
  const parts = [`${f}measq\n${cell.source}\n${f}`];
  for (const o of cell.outputs) {
    const view = outputView(o);
    if (view.kind === 'table') {
      if (view.title) parts.push(`**${markdownInline(view.title)}**`);
      for (const n of view.notes) parts.push(`> ${markdownInline(n)}`);
      parts.push(sliceMarkdown(tableSlice(view.table, options.maxRows)));
    } else if (view.kind === 'error') {
      parts.push(`> **${markdownInline(view.name)}**: ${markdownInline(view.message)}`);
    } else if (view.text) {
      const g = fence(view.text);
      parts.push(`${g}text\n${view.text}\n${g}`);
    }
  }
  return parts.join('\n\n');
}

export function notebookToMarkdown(nb: Notebook, options: ExportOptions = {}): string {
  return `${nb.cells.map((c) => cellMarkdown(c, options)).join('\n\n')}\n`;
}
