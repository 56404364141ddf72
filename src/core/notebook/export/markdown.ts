// A notebook with its results as Markdown: markdown cells as written but their raw HTML escaped (markdown-
// cells), query cells in ```measq fences, tables as Markdown tables of their first rows with a note of the
// total, and the chart the output showed as an SVG data image (svg-chart, as the HTML export draws it); every value
// from a result or the notebook is text (core/text/markdown: markdownInline in table cells and after a label,
// markdownLine for a paragraph of its own: notes, titles, captions).

import { bytesToBase64 } from '../../text/base64';
import { markdownInline, markdownLine, markdownTable } from '../../text/markdown';
import type { Notebook, NotebookCell } from '../model';
import { chartChoiceOf } from '../renderer-protocol';
import { markdownWithoutHtml } from './markdown-cells';
import { outputView } from './output-view';
import { svgChart } from './svg-chart';
import { sliceNote, type TableSlice, tableSlice } from './table-slice';
import type { ExportOptions } from './types';

/** A fence longer than any backtick run inside the text, so no content can close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  return '`'.repeat(longest + 1);
}

/** An SVG drawing as a Markdown image (a data: URL: no file beside the document, nothing fetched). */
export function svgMarkdownImage(alt: string, svg: string): string {
  return `![${markdownInline(alt)}](data:image/svg+xml;base64,${bytesToBase64(new TextEncoder().encode(svg))})`;
}

/** A value as one paragraph in `mark` (`_` italics, `**` bold), literal; nothing when it is blank. */
function emphasised(mark: string, text: string): string[] {
  const line = markdownLine(text);
  return line ? [`${mark}${line}${mark}`] : [];
}

function sliceMarkdown(slice: TableSlice): string {
  return [markdownTable(slice.header, slice.rows), ...emphasised('_', sliceNote(slice) ?? '')].join('\n\n');
}

function cellMarkdown(cell: NotebookCell, options: ExportOptions): string {
  if (cell.kind === 'markup') return markdownWithoutHtml(cell.source);
  const f = fence(cell.source);
  const parts = [`${f}measq\n${cell.source}\n${f}`];
  for (const o of cell.outputs) {
    const view = outputView(o);
    if (view.kind === 'table') {
      parts.push(...emphasised('**', view.title ?? ''));
      for (const line of view.notes.map(markdownLine)) if (line) parts.push(`> ${line}`);
      const chart = svgChart(view.table, chartChoiceOf(cell.metadata?.chart), { zone: view.zone, known: view.styles });
      if (chart) parts.push(svgMarkdownImage('chart', chart.svg), ...chart.notes.flatMap((n) => emphasised('_', n)));
      parts.push(sliceMarkdown(tableSlice(view.table, options.maxRows)));
    } else if (view.kind === 'error') {
      parts.push(`> **${markdownLine(view.name) || 'Error'}**: ${markdownInline(view.message)}`);
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
