// A notebook with its results as Jupyter's .ipynb (nbformat 4.4): markdown cells as markdown,
// query cells as code cells whose outputs carry text/html (a table of the first rows) and text/csv,
// so Jupyter and GitHub show them without this extension.
import { tableToCsv } from '../../table/csv-export';
import type { Notebook, NotebookCell } from '../model';
import { chartChoiceOf } from '../renderer-protocol';
import { escapeXml } from './escape';
import { markdownWithoutHtml } from './markdown-cells';
import { outputView } from './output-view';
import { svgChart } from './svg-chart';
import { sliceNote, tableSlice } from './table-slice';
import type { ExportOptions } from './types';

/** nbformat stores multi-line strings as a list of lines, each but the last ending in \n. */
function lines(text: string): string[] {
  const parts = text.split('\n');
  return parts.map((l, i) => (i < parts.length - 1 ? `${l}\n` : l)).filter((l) => l !== '');
}

function chartHtml(chart: ReturnType<typeof svgChart>): string {
  return chart ? `${chart.svg}\n${chart.notes.map((n) => `<p><i>${escapeXml(n)}</i></p>`).join('')}` : '';
}

function outputsOf(cell: NotebookCell, options: ExportOptions): unknown[] {
  return cell.outputs.map((o) => {
    const view = outputView(o);
    if (view.kind === 'error') return { output_type: 'error', ename: view.name, evalue: view.message, traceback: [] };
    if (view.kind === 'text') return { output_type: 'stream', name: 'stdout', text: lines(view.text) };
    const slice = tableSlice(view.table, options.maxRows);
    const note = sliceNote(slice);
    const html = [
      view.title ? `<p><b>${escapeXml(view.title)}</b></p>` : '',
      chartHtml(svgChart(view.table, chartChoiceOf(cell.metadata?.chart), { zone: view.zone, known: view.styles })),
      '<table>',
      `<thead><tr>${slice.header.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead>`,
      `<tbody>${slice.rows.map((r) => `<tr>${r.map((v) => `<td>${escapeXml(v)}</td>`).join('')}</tr>`).join('')}</tbody>`,
      '</table>',
      note ? `<p><i>${escapeXml(note)}</i></p>` : '',
    ].join('\n');
    const firstRows = { columns: view.table.columns, rowCount: slice.rows.length };
    return {
      output_type: 'display_data',
      data: {
        'text/html': lines(html),
        'text/csv': lines(tableToCsv(firstRows)),
        'text/plain': [`${view.title ?? 'table'}: ${slice.totalRows} rows × ${slice.header.length} columns`],
      },
      metadata: {},
    };
  });
}

export function notebookToIpynb(nb: Notebook, options: ExportOptions = {}): string {
  let count = 0;
  const cells = nb.cells.map((c) =>
    c.kind === 'markup'
      ? { cell_type: 'markdown', metadata: {}, source: lines(markdownWithoutHtml(c.source)) }
      : {
          cell_type: 'code',
          execution_count: c.outputs.length ? ++count : null,
          metadata: {},
          source: lines(c.source),
          outputs: outputsOf(c, options),
        },
  );
  const doc = {
    nbformat: 4,
    nbformat_minor: 4,
    metadata: {
      kernelspec: { name: 'measq', display_name: 'Measurement Query', language: 'measq' },
      language_info: { name: 'measq', file_extension: '.measq' },
    },
    cells,
  };
  return `${JSON.stringify(doc, null, 1)}\n`;
}
