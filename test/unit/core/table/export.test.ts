// Save as JSON (records) and Copy as Markdown: the writers behind every table surface's toolbar.
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { tableToJsonRecords } from '../../../../src/core/table/json-export';
import { tableToMarkdown } from '../../../../src/core/table/markdown';
import { MARKDOWN_MAX_ROWS, markdownOfRows } from '../../../../src/renderer/model/markdown-copy';
import { emptySelection, selectAll } from '../../../../src/renderer/model/selection';

const CSV = [
  'datasourceId,time,pm2_5ConcMass.value,pm2_5ConcMass.qcFlags,note',
  'D1,2026-11-01T10:00:00.000Z,12.5,"[""QC.I.OOB.001""]",a|b',
  'D2,2026-11-01T11:00:00.000Z,,,',
  '',
].join('\n');

describe('table export: JSON records and Markdown', () => {
  it('JSON records: numbers as numbers, times as ISO UTC, flags as arrays, empty cells as null', async () => {
    const table = await parseCsvWide(CSV);
    assert.deepEqual(JSON.parse(tableToJsonRecords(table)), [
      {
        datasourceId: 'D1',
        time: '2026-11-01T10:00:00.000Z',
        'pm2_5ConcMass.value': 12.5,
        'pm2_5ConcMass.qcFlags': ['QC.I.OOB.001'],
        note: 'a|b',
      },
      {
        datasourceId: 'D2',
        time: '2026-11-01T11:00:00.000Z',
        'pm2_5ConcMass.value': null,
        'pm2_5ConcMass.qcFlags': null,
        note: null,
      },
    ]);
    assert.deepEqual(JSON.parse(tableToJsonRecords({ columns: [], rowCount: 0 })), []);
  });

  it('Markdown: the header, numbers right-aligned, pipes escaped, the rows in the order given', async () => {
    const table = await parseCsvWide(CSV);
    assert.equal(
      tableToMarkdown(table, [1, 0]),
      [
        '| datasourceId | time | pm2_5ConcMass.value | pm2_5ConcMass.qcFlags | note |',
        '| --- | --- | ---: | --- | --- |',
        '| D2 | 2026-11-01T11:00:00.000Z |  |  |  |',
        '| D1 | 2026-11-01T10:00:00.000Z | 12.5 | \\["QC.I.OOB.001"\\] | a\\|b |',
        '',
      ].join('\n'),
    );
  });

  it('Markdown: a value is text, never markup (the one escape of every Markdown table writer)', async () => {
    const table = await parseCsvWide(
      'name,note\n"![p](http://host/x.png)","<img src=x onerror=y> [l](command:x) `c`"\n',
    );
    const md = tableToMarkdown(table);
    const html = new MarkdownIt({ html: true }).render(md);
    assert.doesNotMatch(html, /<img|<a |<code>|onerror=y>/);
    assert.match(html, /<td>!\[p\]\(http:\/\/host\/x\.png\)<\/td>/);
    assert.equal(
      md.split('\n')[2],
      '| \\!\\[p\\](http://host/x.png) | \\<img src=x onerror=y\\> \\[l\\](command:x) \\`c\\` |',
    );
  });

  it('Copy Markdown takes the selection, else the rows shown, up to a bound it names', async () => {
    const table = await parseCsvWide(CSV);
    const view = Uint32Array.from([1, 0]);
    const all = markdownOfRows(table, view, emptySelection());
    assert.equal(all.text.split('\n')[2], '| D2 | 2026-11-01T11:00:00.000Z |  |  |  |');
    assert.equal(all.status, 'Copied 2 rows as a Markdown table');
    const one = markdownOfRows(table, view, { ranges: [[1, 1]], anchor: 1 });
    assert.equal(one.text.split('\n').length, 4, 'header, rule, one row');
    assert.match(one.text, /\| D1 \|/);
    const many = await parseCsvWide(`n\n${Array.from({ length: MARKDOWN_MAX_ROWS + 5 }, (_, i) => i).join('\n')}\n`);
    const rows = Uint32Array.from({ length: many.rowCount }, (_, i) => i);
    const capped = markdownOfRows(many, rows, selectAll(rows.length));
    assert.equal(capped.text.trimEnd().split('\n').length, MARKDOWN_MAX_ROWS + 2);
    assert.equal(capped.status, 'Copied the first 1,000 of 1,005 rows as a Markdown table');
  });
});
