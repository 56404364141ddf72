import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { codeCell, errorOutput, markdownCell, type Notebook } from '../../../../src/core/notebook';
import { exportNotebook } from '../../../../src/core/notebook/export';
import { resultOutput, runCell } from '../../../../src/core/run/index.node';
import { tableOutput } from '../../../../src/core/run/outputs';
import { tableToCsv } from '../../../../src/core/table/csv-export';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { systemClock } from '../../../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../../../src/emulator';
import { hourlyMetrics } from '../../../support/core/metric-table';

const HOSTILE = '<img src=x onerror=alert(1)>|</td><script>alert(2)</script>';
const IMAGE = '![p](http://host/x.png)';
/** A viewer of the .md export as permissive as any: raw HTML on. */
const viewer = new MarkdownIt({ html: true });

describe('notebook export (html, md, ipynb)', () => {
  let emu: RunningEmulator;
  let nb: Notebook;
  let hourRows: number;

  before(async () => {
    emu = await startEmulator({ seed: 4, clock: '2026-11-20T12:00:30Z' });
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const now = new Date(emu.clock.now());
    const ids = emu.facts.datasources
      .slice(0, 3)
      .map((d) => d.datasourceId)
      .join(', ');
    const source = `recent\ndatasourceIds: ${ids}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast\nstartTime: -12h`;
    const result = await runCell(source, { client, org: emu.org, now });
    hourRows = result.table.rowCount;
    const hostile = await parseCsvWide(
      `datasourceId,note\n"${HOSTILE.replace(/"/g, '""')}",x\nD2,"a|b\nc"\nD3,"${IMAGE}"\n`,
    );
    nb = {
      metadata: {},
      cells: [
        markdownCell(
          `# PM2.5 this morning\n\nRaw HTML stays text: ${HOSTILE}\n\n<div>\n<iframe src="http://host/"></iframe>\n</div>\n\n[bad](javascript:alert(3)) \`<b>code</b>\``,
        ),
        codeCell(source, [resultOutput(result)]),
        codeCell('datasources', [resultOutput({ ...result, table: hostile, warnings: [], notice: undefined })]),
        codeCell('recent\ndatasourceIds: NOPE', [errorOutput('CellError', `line 2: ${HOSTILE}`)]),
      ],
    };
  });
  after(() => emu.close());

  it('html: self-contained and script-free, markdown rendered, every value escaped', () => {
    const html = exportNotebook(nb, 'html', { maxRows: 5, title: 'x.measnb' });
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.match(html, /<h1>PM2\.5 this morning<\/h1>/, 'markdown cells are rendered');
    assert.doesNotMatch(
      html,
      /<script|<img|<[^>]* onerror=|href="javascript:|src="http/i,
      'nothing active, nothing fetched',
    );
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'hostile text shown as text');
    assert.ok(hourRows > 5, String(hourRows));
    assert.ok(html.includes(`Showing the first 5 of ${hourRows} rows.`), 'the total is stated');
    const firstTable = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    assert.equal((firstTable.match(/<tr>/g) ?? []).length, 1 + 5, 'header + the first 5 rows');
    assert.match(html, /<svg [^>]*role="img"[^>]*>[\s\S]*<path d="M/, 'a static chart of the metric');
    assert.match(html, /pm2_5ConcMassNowcast/);
  });

  it('md: fenced query cells, tables whose values are text (pipes, breaks, HTML, images), the total stated', () => {
    const md = exportNotebook(nb, 'md', { maxRows: 3 });
    assert.match(md, /^# PM2\.5 this morning/);
    assert.match(md, /```measq\nrecent\n/);
    assert.ok(md.includes(`_Showing the first 3 of ${hourRows} rows._`));
    assert.ok(md.includes('| D2 | a\\|b c |'), 'a cell cannot break the table');
    const rendered = viewer.render(md);
    assert.doesNotMatch(
      rendered,
      /<(img|script|iframe|div)\b|<[^>]* onerror=/i,
      'no HTML, no image: from values or markdown cells',
    );
    assert.ok(rendered.includes('<td>![p](http://host/x.png)</td>'), 'the image value shows as its text');
    assert.ok(rendered.includes('&lt;img src=x onerror=alert(1)&gt;'), 'raw HTML of a markdown cell shows as text');
    assert.ok(rendered.includes('&lt;iframe src=&quot;http://host/&quot;&gt;'), 'an HTML block too');
    assert.ok(rendered.includes('<code>&lt;b&gt;code&lt;/b&gt;</code>'), 'a code span stays as written');
    assert.match(md, /> \*\*CellError\*\*: line 2:/);
  });

  it('ipynb: valid nbformat 4 with markdown cells and code cells whose outputs carry text/html and text/csv', () => {
    const doc = JSON.parse(exportNotebook(nb, 'ipynb', { maxRows: 4 }));
    assert.equal(doc.nbformat, 4);
    assert.equal(doc.cells.length, 4);
    assert.equal(doc.cells[0].cell_type, 'markdown');
    const markdown = doc.cells[0].source.join('');
    assert.ok(markdown.startsWith('# PM2.5 this morning\n\nRaw HTML stays text: \\<img src=x'), markdown);
    assert.doesNotMatch(viewer.render(markdown), /<(img|script|iframe|div)\b/, 'raw HTML of markdown cells as text');
    const code = doc.cells[1];
    assert.equal(code.cell_type, 'code');
    assert.equal(code.source.join(''), nb.cells[1].source);
    const [out] = code.outputs;
    assert.equal(out.output_type, 'display_data');
    const csv = out.data['text/csv'].join('');
    assert.equal(csv.trim().split('\n').length, 1 + 4, 'header + the first 4 rows');
    assert.ok(out.data['text/html'].join('').includes(`Showing the first 4 of ${hourRows} rows.`));
    assert.equal(doc.cells[3].outputs[0].output_type, 'error');
    // Every line but the last of a multi-line string ends in \n (nbformat's rule).
    for (const c of doc.cells) for (const l of c.source.slice(0, -1)) assert.ok(l.endsWith('\n'), JSON.stringify(l));
  });

  it('the csv in ipynb is the table CSV of those rows, byte for byte', async () => {
    const doc = JSON.parse(exportNotebook(nb, 'ipynb', { maxRows: 1000 }));
    const hostileCsv = doc.cells[2].outputs[0].data['text/csv'].join('');
    const table = await parseCsvWide(
      `datasourceId,note\n"${HOSTILE.replace(/"/g, '""')}",x\nD2,"a|b\nc"\nD3,"${IMAGE}"\n`,
    );
    assert.equal(hostileCsv, tableToCsv(table));
  });
});

describe('notebook export (md): names and notes from data are literal text', () => {
  // Datasource and metric-like names a notebook or the service may carry: emphasis, links, HTML, code, and
  // lines that would start a list, a rule or indented code when a note is a paragraph of its own.
  const NAMES = ['a_b_c', '*x*', '[l](javascript:alert(1))', '<script>alert(1)</script>', '`code`', 'end_', 'pm2_5 *'];
  const BLOCKS = ['- item', '1. one', '---', '    indented', ' spaced '];
  const ids = [...NAMES, ...BLOCKS, ...Array.from({ length: 40 }, (_, i) => `D${i}`)];
  const table = hourlyMetrics(Date.UTC(2026, 10, 25), ids, 2, { 'pm2_5ConcMassNowcast.value': (r) => r });
  const nb: Notebook = {
    metadata: {},
    cells: [
      codeCell('recent', [
        tableOutput(table, { info: { title: ` ${NAMES.join(' ')} `, notes: [...NAMES, ...BLOCKS] } }),
      ]),
      codeCell('recent', [errorOutput(' *E_rr* ', NAMES.join(' '))]),
    ],
  };
  /** CommonMark with GFM tables and strikethrough (markdown-it's default preset), raw HTML on. */
  const tokens = viewer.parse(exportNotebook(nb, 'md', { maxRows: 3 }), {});
  /** An inline run as it renders: text as it reads, `em(…)`, `strong(…)`; any other token by its type. */
  const read = (t: (typeof tokens)[number]) =>
    (t.children ?? [])
      .map((c) => (c.type === 'text' ? c.content : c.type.replace(/_open$/, '(').replace(/^\w+_close$/, ')')))
      .join('');
  const inlines = tokens.filter((t) => t.type === 'inline').map(read);

  it('a note is one paragraph of its text in a quote, whatever it holds (no list, rule, code, link, HTML)', () => {
    const quoted = tokens.flatMap((t, i) =>
      t.type === 'blockquote_open' ? [tokens[i + 1].type, read(tokens[i + 2])] : [],
    );
    const notes = [...NAMES, ...BLOCKS].flatMap((n) => ['paragraph_open', n.trim()]);
    assert.deepEqual(quoted, [...notes, 'paragraph_open', `strong(*E_rr*): ${NAMES.join(' ')}`], 'and the error');
  });

  it('the title, chart captions (names of the lines not drawn), table cells read as written', () => {
    assert.ok(inlines.includes(`strong(${NAMES.join(' ')})`), 'the title in bold, literal');
    const notDrawn = inlines.find((l) => l.startsWith('em(Not drawn')) ?? '';
    assert.ok(notDrawn.endsWith('.)'), inlines.join('\n'));
    // The 40 first in sort order are drawn; the rest are named, each as written.
    const named = notDrawn.slice('em(Not drawn (over 40 lines): '.length, -2).split(', ');
    assert.equal(named.length, ids.length - 40);
    assert.ok(
      named.every((n) => ids.some((id) => id.trim() === n)),
      named.join(' · '),
    );
    for (const n of ['a_b_c', '[l](javascript:alert(1))', '`code`', 'end_', 'pm2_5 *']) assert.ok(named.includes(n), n);
    assert.ok(inlines.includes('em(Showing the first 3 of 104 rows.)'));
    const cells = tokens.filter((_, i) => tokens[i - 1]?.type === 'td_open').map(read);
    assert.deepEqual(
      cells.filter((_, i) => i % 3 === 0),
      ids.slice(0, 3),
    );
  });
});
