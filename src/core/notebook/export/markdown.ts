// A notebook with its results as Markdown: markdown cells as they are, query cells in ```measq
// fences, tables as Markdown tables of their first rows with a note of the total.
import type { Notebook, NotebookCell } from '../model';
import { escapeMarkdownCell } from './escape';
import { outputView } from './output-view';
import { sliceNote, type TableSlice, tableSlice } from './table-slice';
import type { ExportOptions } from './types';

/** A fence longer than any backtick run inside the text, so no content can close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  return '`'.repeat(longest + 1);
}

export function markdownTable(slice: TableSlice): string {
  const row = (cells: string[]) => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  const lines = [row(slice.header), `|${slice.header.map(() => ' --- ').join('|')}|`, ...slice.rows.map(row)];
  const note = sliceNote(slice);
  return note ? `${lines.join('\n')}\n\n_${note}_` : lines.join('\n');
}

function cellMarkdown(cell: NotebookCell, options: ExportOptions): string {
  if (cell.kind === 'markup') return cell.source;
  const f = fence(cell.source);
  const parts = [`${f}measq\n${cell.source}\n${f}`];
  for (const o of cell.outputs) {
    const view = outputView(o);
    if (view.kind === 'table') {
      if (view.title) parts.push(`**${escapeMarkdownCell(view.title)}**`);
      for (const n of view.notes) parts.push(`> ${escapeMarkdownCell(n)}`);
      parts.push(markdownTable(tableSlice(view.table, options.maxRows)));
    } else if (view.kind === 'error') {
      parts.push(`> **${escapeMarkdownCell(view.name)}**: ${escapeMarkdownCell(view.message)}`);
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
