// A notebook with its results as one self-contained HTML file: no script, no external resource;
// tables show their first rows with a note of the total, charts are inline SVG.
import MarkdownIt from 'markdown-it';
import type { Notebook, NotebookCell } from '../model';
import { type ChartChoice, chartChoiceOf } from '../renderer-protocol';
import { escapeXml } from './escape';
import { outputView } from './output-view';
import { svgChart } from './svg-chart';
import { sliceNote, tableSlice } from './table-slice';
import type { ExportOptions } from './types';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1f1f1f}
pre.cell{background:#f4f4f4;padding:.6em .8em;border-radius:4px;overflow:auto}
table{border-collapse:collapse;font-size:12px;margin:.4em 0;display:block;overflow:auto;max-width:100%}
th,td{border:1px solid #ccc;padding:2px 6px;white-space:nowrap;text-align:left}
th{background:#eee;position:sticky;top:0}
.note{color:#555;font-size:12px}.error{color:#a1260d;white-space:pre-wrap}
.title{font-weight:600;font-size:12px;color:#333}
@media (prefers-color-scheme: dark){body{background:#1e1e1e;color:#ddd}pre.cell{background:#2a2a2a}th{background:#333}th,td{border-color:#444}.note,.title{color:#aaa}svg{background:#fff}}`;

/** Raw HTML in markdown cells stays text (html: false); markdown-it also refuses javascript: links. */
const markdown = new MarkdownIt({ html: false, linkify: false });

function tableHtml(
  view: Extract<ReturnType<typeof outputView>, { kind: 'table' }>,
  options: ExportOptions,
  choice: ChartChoice | undefined,
): string {
  const slice = tableSlice(view.table, options.maxRows);
  const head = `<tr>${slice.header.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr>`;
  const body = slice.rows.map((r) => `<tr>${r.map((v) => `<td>${escapeXml(v)}</td>`).join('')}</tr>`).join('\n');
  const note = sliceNote(slice);
  const chart = svgChart(view.table, choice, { zone: view.zone, known: view.styles });
  return [
    view.title ? `<div class="title">${escapeXml(view.title)}</div>` : '',
    ...view.notes.map((n) => `<div class="note">${escapeXml(n)}</div>`),
    chart
      ? `<figure>${chart.svg}<figcaption class="note">${chart.notes.map(escapeXml).join('<br>')}</figcaption></figure>`
      : '',
    `<table><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`,
    note ? `<div class="note">${escapeXml(note)}</div>` : '',
  ].join('\n');
}

function cellHtml(cell: NotebookCell, options: ExportOptions): string {
  if (cell.kind === 'markup') return `<section class="md">${markdown.render(cell.source)}</section>`;
  const outputs = cell.outputs.map((o) => {
    const view = outputView(o);
    if (view.kind === 'table') return tableHtml(view, options, chartChoiceOf(cell.metadata?.chart));
    if (view.kind === 'error') return `<div class="error">${escapeXml(`${view.name}: ${view.message}`)}</div>`;
    return view.text ? `<pre>${escapeXml(view.text)}</pre>` : '';
  });
  return `<section><pre class="cell"><code>${escapeXml(cell.source)}</code></pre>\n${outputs.join('\n')}</section>`;
}

export function notebookToHtml(nb: Notebook, options: ExportOptions = {}): string {
  const title = options.title ?? 'Measurements notebook';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeXml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeXml(title)}</h1>
${nb.cells.map((c) => cellHtml(c, options)).join('\n')}
</body></html>
`;
}
