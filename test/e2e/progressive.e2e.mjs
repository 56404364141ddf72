// Progressive outputs as a user meets them in the browser workbench: a sql cell of 500,000 rows x 20
// (78 MB in the wire format, over measurements.notebook.outputHeadMB's default 1 MB) paints its first
// rows from the output item, says "Loading rows N of M…" while the renderer fetches the rest from the
// extension, and ends with every row (the row count and "All … rows loaded"); the last row scrolls into
// view with its own values. Its Summary, chosen once, is where the cell's next output opens: at first paint it
// covers every row of the result (the host's DuckDB over the result it holds), then is drawn again from the rows.
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

  it("its Summary covers every row: the host's at first paint when the output opens on it, then the rows'", async () => {
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
    /** The output's frame and its table (a locator: it finds the cell's next output too). */
    const { frame, table } = await eventually(
      async () => {
        for (const { frame } of await tableFrames(page))
          for (const t of await frame.locator('.measnb-table:not(.mt-panel .measnb-table)').all())
            if (await t.locator('.mt-hname', { hasText: /^note$/ }).count()) return { frame, table: t };
        return undefined;
      },
      'the first rows painted',
      1500,
      200,
    );
    const note = () => table.locator('.mt-summary-note').first().textContent();
    const summaryRow = () =>
      table.locator('.mt-summary .mt-body .mt-row:not([hidden])').first().locator('.mt-cell').allTextContents();
    const checkD0 = (row) => {
      console.log(`      first Summary row: ${row.join(' | ')}`);
      assert.ok(row.includes('D0') && row.includes('i'), row.join(' | '));
      assert.ok(row.includes('250000'), `count 250,000: ${row.join(' | ')}`);
      assert.ok(row.includes('249999'), `mean 249,999: ${row.join(' | ')}`);
    };
    const allRows = async () => {
      const t = await eventually(
        async () => {
          const t = await note();
          return /^Per datasource × metric over all 500,000 rows;/.test(t) && t;
        },
        'the Summary drawn from every row loaded',
        3000,
        300,
      );
      console.log(`      summary note when all rows are in: ${t}`);
      return summaryRow();
    };
    // The user chooses the Summary (the rows may or may not all be in yet): the cell's next output opens on it.
    await openView(page, table, 'summary');
    console.log(`      summary note when opened: ${await note()}`);
    const fromRows = await allRows();
    checkD0(fromRows);

    // Every text the Summary's note takes from now on, in the output's frame (the renderer's own document).
    await frame.evaluate(() => {
      const seen = [];
      window.__summaryNotes = seen;
      new MutationObserver(() => {
        for (const n of document.querySelectorAll('.mt-summary-note')) {
          const text = n.textContent ?? '';
          if (text && seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // Run again: the new output holds only its first rows and opens on the Summary, so the renderer asks the host
    // at its first paint, whatever the speed of the rows that follow.
    await runAll(page);
    const notes = () => frame.evaluate(() => window.__summaryNotes.slice());
    const asked = await eventually(
      async () => (await notes()).find((t) => /rows loaded so far of 500,000 \(more are arriving/.test(t)),
      'the Summary of the first rows at first paint',
      600,
      100,
    );
    console.log(`      summary note at first paint: ${asked}`);
    assert.match(asked, /Computing it over all rows in the extension host…$/, 'the renderer asked the host');
    const host = await eventually(
      async () => (await notes()).find((t) => /DuckDB over the whole result/.test(t)),
      "the host's Summary of every row",
      600,
      100,
    );
    console.log(`      summary note from the host: ${host}`);
    assert.match(host, /over all 500,000 rows \(DuckDB over the whole result, in the extension host[;)]/);
    if (/still loading its rows/.test(await note())) {
      checkD0(await summaryRow());
      await revealInNotebook(page, table);
      console.log(`      screenshot: ${await screenshot(page, 'progressive-summary-all-rows')}`);
    }
    // Once every row is in, the Summary is drawn from them: the same numbers.
    assert.deepEqual(await allRows(), fromRows);
  });
});
