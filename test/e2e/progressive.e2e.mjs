// Progressive outputs as a user meets them in the browser workbench: a sql cell of 500,000 rows x 20
// (78 MB in the wire format, over measurements.notebook.outputHeadMB's default 1 MB) paints its first
// rows from the output item, says "Loading rows N of M…" while the renderer fetches the rest from the
// extension, and ends with every row (the row count and "All … rows loaded"); the last row scrolls into
// view with its own values. Its Summary, opened while the rows still arrive, covers every row of the result
// (the host's DuckDB over the result it holds), then is drawn again from the rows once all are in.
// Screenshots: .artifacts/screenshots/progressive-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bigSqlCellLines } from '../support/big-sql-cell.mjs';
import {
  e2eEnv,
  eventually,
  openNotebook,
  openView,
  revealInNotebook,
  runAll,
  runCommand,
  screenshot,
  tableFrames,
  useWorkbench,
  writeOneCellNotebook,
} from './workbench.mjs';

const ROWS = 500_000;
const CELL = bigSqlCellLines(ROWS);
const fmt = (n) => n.toLocaleString('en-US');

/** The new table's state in its output frame: row count text, loading line, status line. */
async function tableState(page) {
  for (const { frame } of await tableFrames(page)) {
    for (const t of await frame.locator('.measnb-table').all()) {
      if (!(await t.locator('.mt-hname', { hasText: /^m17$/ }).count())) continue;
      const rows = await t.locator('.mt-body .mt-row:not([hidden])').count();
      const loading = await t
        .locator('.mt-loading:not([hidden])')
        .textContent()
        .catch(() => null);
      const count = await t.locator('.mt-count').textContent();
      const status = await t.locator('.mt-toolbar .mt-status').textContent();
      return { t, rows, loading, count, status };
    }
  }
  return undefined;
}

describe('e2e: progressive outputs (the first rows at once, the rest through renderer messaging)', function () {
  this.timeout(1_500_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    const { workspace } = e2eEnv();
    const nb = {
      measnb: 1,
      metadata: { connection: 'Local emulator' },
      cells: [{ kind: 'code', language: 'measq', source: CELL, outputs: [] }],
    };
    fs.writeFileSync(path.join(workspace, 'progressive.measnb'), JSON.stringify(nb, null, 2));
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
  });

  it('a 500,000-row result paints its first rows, shows its loading, and ends with every row', async () => {
    await openNotebook(page, 'progressive.measnb');
    const t0 = Date.now();
    await runAll(page);
    const first = await eventually(
      async () => {
        const s = await tableState(page);
        return s && s.rows > 0 ? s : undefined;
      },
      'the first rows painted',
      1500,
      200,
    );
    const firstAt = Date.now();
    console.log(`      first rows ${((firstAt - t0) / 1000).toFixed(1)} s after Run All; count "${first.count}"`);
    console.log(`      loading: ${first.loading}`);
    await revealInNotebook(page, first.t);
    console.log(`      screenshot: ${await screenshot(page, 'progressive-loading')}`);
    assert.ok(first.loading?.startsWith('Loading rows '), `a loading line while rows arrive: ${first.loading}`);
    assert.match(first.loading, new RegExp(`of ${fmt(ROWS)}…`));
    assert.ok(Number.parseInt(first.count.replace(/,/g, ''), 10) < ROWS, 'the first rows before the others');

    const done = await eventually(
      async () => {
        const s = await tableState(page);
        return s && s.count === `${fmt(ROWS)} rows` && !s.loading ? s : undefined;
      },
      'every row loaded',
      3000,
      300,
    );
    console.log(
      `      every row ${((Date.now() - firstAt) / 1000).toFixed(1)} s after the first; status "${done.status}"`,
    );
    assert.equal(done.status, `All ${fmt(ROWS)} rows loaded`);
    await done.t.locator('.mt-viewport').evaluate((v) => {
      v.scrollTop = v.scrollHeight;
    });
    // The drawn row whose gutter reads the last row's number: its cells' text.
    const cells = await eventually(
      () =>
        done.t.evaluate((el, n) => {
          for (const row of el.querySelectorAll('.mt-body .mt-row:not([hidden])')) {
            if (row.querySelector('.mt-gutter')?.textContent === String(n))
              return [...row.querySelectorAll('.mt-cell')].map((c) => c.textContent);
          }
          return undefined;
        }, ROWS),
      'the last row drawn',
    );
    assert.ok(cells.includes(String(ROWS - 1)), `the last row's own values: ${cells.join(' | ')}`);
    assert.ok(cells.includes(`D${String((ROWS - 1) % 400).padStart(7, '0')}`));
    console.log(`      screenshot: ${await screenshot(page, 'progressive-done')}`);
  });

  it("its Summary covers every row of the result: the host's while rows still arrive, then the rows'", async () => {
    // 500,000 rows: two datasources (i even / odd), i = 0 … 499,999, and a 160-character text per row that makes
    // the rows slow to arrive (it is no metric: the Summary's plan is time, datasourceId and i only).
    // Over every row, D0 (the even i) has 250,000 rows and mean i = 249,999 (the mean of 0, 2, …, 499,998);
    // the first rows held have a few thousand, of a mean far below.
    await writeOneCellNotebook(page, 'progressive-summary.measnb', [
      'sql',
      'SELECT TIMESTAMPTZ \'2026-11-01 00:00:00+00\' + to_minutes(i) AS "time",',
      "  'D' || CAST(i % 2 AS VARCHAR) AS datasourceId,",
      '  CAST(i AS DOUBLE) AS i,',
      "  repeat('x', 152) || lpad(CAST(i AS VARCHAR), 8, '0') AS note",
      `FROM range(${ROWS}) AS t(i)`,
    ]);
    await openNotebook(page, 'progressive-summary.measnb');
    await runAll(page);
    const table = await eventually(
      async () => {
        for (const { frame } of await tableFrames(page))
          for (const t of await frame.locator('.measnb-table:not(.mt-panel .measnb-table)').all())
            if (await t.locator('.mt-hname', { hasText: /^note$/ }).count()) return t;
        return undefined;
      },
      'the first rows painted',
      1500,
      200,
    );
    await openView(page, table, 'summary');
    const note = () => table.locator('.mt-summary-note').first().textContent();
    const first = await note();
    console.log(`      summary note at first: ${first}`);
    const summaryRow = () =>
      table.locator('.mt-summary .mt-body .mt-row:not([hidden])').first().locator('.mt-cell').allTextContents();
    const checkD0 = (row) => {
      console.log(`      first Summary row: ${row.join(' | ')}`);
      assert.ok(row.includes('D0') && row.includes('i'), row.join(' | '));
      assert.ok(row.includes('250000'), `count 250,000: ${row.join(' | ')}`);
      assert.ok(row.includes('249999'), `mean 249,999: ${row.join(' | ')}`);
    };
    let d0;
    if (/rows loaded so far of 500,000 \(more are arriving/.test(first)) {
      const host = await eventually(
        async () => {
          const t = await note();
          return /DuckDB over the whole result/.test(t) && t;
        },
        "the host's Summary of every row",
        600,
        100,
      );
      console.log(`      summary note from the host: ${host}`);
      assert.match(
        host,
        /over all 500,000 rows \(DuckDB over the whole result, in the extension host; this view is still loading its rows\)/,
      );
      d0 = await summaryRow();
      checkD0(d0);
      await revealInNotebook(page, table);
      console.log(`      screenshot: ${await screenshot(page, 'progressive-summary-all-rows')}`);
    } else {
      // A quiet machine can load every row before the Summary opens: then the host is not asked (its answer is
      // tested in the real extension host by test/integration/table-progressive.test.ts), and the Summary of the
      // rows must still cover all 500,000 with the same numbers.
      console.log('      every row arrived before the Summary opened: drawn from the rows');
      assert.match(first, /^Per datasource × metric over all 500,000 rows;/);
    }
    // Once every row is in, the Summary is drawn from them: the same numbers, "all 500,000 rows".
    const local = await eventually(
      async () => {
        const t = await note();
        return /^Per datasource × metric over all 500,000 rows;/.test(t) && t;
      },
      'the Summary drawn again from every row loaded',
      3000,
      300,
    );
    console.log(`      summary note when all rows are in: ${local}`);
    const again = await summaryRow();
    checkD0(again);
    if (d0) assert.deepEqual(again, d0);
  });
});
