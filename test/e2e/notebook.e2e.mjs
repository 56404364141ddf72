// The notebook as a user meets it in the browser workbench: open the tour example, Run All against the
// built-in Local emulator, read the rendered rows, sort, filter, switch to the chart; then a
// 1,000,000-row report that scrolls to its last row. Screenshots: .artifacts/screenshots/notebook-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parquetMetadata } from 'hyparquet';
import {
  answerFileDialog,
  e2eEnv,
  eventually,
  openNotebook,
  openWorkbench,
  qcMarks,
  revealInNotebook,
  runAll,
  runCommand,
  screenshot,
  tableFrames,
} from './workbench.mjs';

/** The NowCast value column of the tour's recent tables (`<label>.value` when QC columns are asked for). */
const METRIC_VALUE = /^pm2_5ConcMassNowcast(\.value)?$/;

async function counts(page) {
  const frames = await tableFrames(page);
  const texts = [];
  for (const { frame } of frames) texts.push(...(await frame.locator('.measnb-table .mt-count').allTextContents()));
  return { frames, texts };
}

describe('e2e: measurement notebooks in the browser workbench', function () {
  this.timeout(1_200_000);
  let browser;
  let page;
  before(async () => {
    // Written before the workbench opens, so that Go to File knows it.
    const { workspace } = e2eEnv();
    const cell = [
      '# about a million minute rows: every datasource, 37 days',
      'report datasource-measurements',
      'allDatasources: true',
      'outputFrequency: minute',
      'startTime: -37d',
      'endTime: now',
      'metricSelect: only pm2_5ConcMassIndividual',
      // The emulator caps a parquet file at 500,000 rows; csv-wide files may be bigger.
      'fileFormat: csv',
    ];
    const nb = {
      measnb: 1,
      metadata: { connection: 'Local emulator' },
      cells: [{ kind: 'code', language: 'measq', source: cell, outputs: [] }],
    };
    fs.writeFileSync(path.join(workspace, 'million.measnb'), JSON.stringify(nb, null, 2));
    // A browser zone away from UTC: the renderer must not use it (times are in the notebook's zone).
    ({ browser, page } = await openWorkbench({ timezoneId: 'Asia/Tokyo' }));
    // Notebooks open as text until the extension's contributions are known: wait for its commands.
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
  });
  after(async () => {
    await browser?.close();
  });

  it('runs the tour example: every verb renders a table with its row count', async () => {
    await openNotebook(page, 'tour.measnb');
    await screenshot(page, 'notebook-tour-opened');
    await page.locator('.statusbar-item', { hasText: 'Local emulator' }).first().waitFor({ timeout: 30_000 });
    await runAll(page);
    // Outputs render as their cells come into view: scroll the notebook while waiting, with the wheel over
    // the left gutter of the cell list (over an output the wheel would scroll that table instead).
    let step = 0;
    const list = await page.locator('.notebook-editor .monaco-list').first().boundingBox();
    const scrollNotebook = async (deltaY) => {
      await page.mouse.move(list.x + 14, list.y + list.height / 2);
      await page.mouse.wheel(0, deltaY);
    };
    const { texts } = await eventually(
      async () => {
        const c = await counts(page);
        if (c.texts.length >= 5) return c;
        await scrollNotebook(++step % 16 === 0 ? -20_000 : 400);
        return undefined;
      },
      'rendered tables (datasources, recent with QC, recent v2026-11-10, follow, report)',
      240,
      500,
    ).catch(async (e) => {
      console.log(`      tables so far: ${(await counts(page)).texts.join(' | ')}`);
      for (const f of page.frames()) {
        const text = await f.evaluate(() => document.body?.textContent ?? '').catch(() => '');
        if (/rows|Report|error|Error/.test(text))
          console.log(`      frame text: ${text.slice(0, 1500).replace(/\s+/g, ' ')}`);
      }
      await scrollNotebook(20_000);
      await page.waitForTimeout(1000);
      console.log(`      screenshot: ${await screenshot(page, 'notebook-tour-failed')}`);
      throw e;
    });
    console.log(`      rendered tables: ${texts.join(' | ')}`);
    console.log(`      screenshot: ${await screenshot(page, 'notebook-tour-bottom')}`);
    await scrollNotebook(-20_000);
    for (const t of texts) assert.match(t, /^[\d,]+ rows?$/);
    // The tour's first lesson: the QC cell marks the out-of-bounds datasource's values invalid.
    const qc = await qcMarks(page);
    console.log(`      QC marks: ${JSON.stringify(qc)}`);
    assert.ok(qc.invalidAssessments > 0, 'qcAssessment cells read "invalid", marked');
    assert.ok(qc.invalidValues > 0, 'the invalid values are marked in their own cells');
    assert.ok(
      texts.every((t) => Number.parseInt(t.replace(/,/g, ''), 10) > 0),
      'every table has rows',
    );
    console.log(`      screenshot: ${await screenshot(page, 'notebook-tour-run-all')}`);
  });

  it('reads rendered rows, sorts by a column, filters, and switches to the chart', async () => {
    const { frames } = await counts(page);
    // The recent query's table: the one with a pm2_5ConcMassNowcast column.
    let frame;
    let table;
    for (const { frame: f } of frames) {
      const t = f.locator('.measnb-table', { has: f.locator('.mt-hname', { hasText: METRIC_VALUE }) });
      if (await t.count()) {
        frame = f;
        table = t.first();
        break;
      }
    }
    assert.ok(table, 'the recent table is rendered');
    await revealInNotebook(page, table);
    const rows = await table.locator('.mt-body .mt-row:not([hidden])').count();
    assert.ok(rows > 0, 'rows are drawn');
    const firstRow = await table
      .locator('.mt-body .mt-row:not([hidden])')
      .first()
      .locator('.mt-cell')
      .allTextContents();
    console.log(`      first row: ${firstRow.join(' | ')}`);

    const header = table.locator('.mt-hcell', { has: frame.locator('.mt-hname', { hasText: METRIC_VALUE }) }).first();
    // Output webviews sit under the workbench's cell list, which takes real pointer hits: events are
    // dispatched in the output frame instead (the renderer handles them like a user's clicks).
    await header.dispatchEvent('click');
    await header.dispatchEvent('click');
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    // The header's place among its row's cells (columns are shown in the table's own order, not the result's).
    const place = await header.evaluate((h) => [...h.parentElement.children].indexOf(h));
    const values = await table
      .locator('.mt-body .mt-row:not([hidden])')
      .evaluateAll((els, k) => els.map((e) => e.children[k]?.textContent ?? ''), place);
    const nums = values.filter((v) => v !== '').map(Number);
    assert.ok(nums.length > 1 && nums.every((v, i) => i === 0 || v <= nums[i - 1]), `descending: ${nums.join(',')}`);
    await header.evaluate((h) => {
      h.closest('.mt-viewport').scrollLeft = h.offsetLeft - 300;
    });
    console.log(`      screenshot: ${await screenshot(page, 'notebook-sorted')}`);

    const total = await table.locator('.mt-count').textContent();
    const firstId = await table
      .locator('.mt-body .mt-row:not([hidden])')
      .first()
      .locator('.mt-cell')
      .nth(1)
      .textContent();
    await table.locator('.mt-filter').evaluate((el, v) => {
      el.value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, firstId);
    await eventually(async () => /of/.test(await table.locator('.mt-count').textContent()), 'the filtered count');
    const filtered = await table.locator('.mt-count').textContent();
    console.log(`      filter "${firstId}": ${filtered} (was ${total})`);
    assert.match(filtered, new RegExp(`^[\\d,]+ of ${total.replace(' rows', '')} rows$`));
    const ids = await table
      .locator('.mt-body .mt-row:not([hidden])')
      .evaluateAll((els) => els.map((e) => e.children[1]?.textContent));
    assert.ok(
      ids.every((id) => id === firstId),
      'only matching rows are drawn',
    );
    console.log(`      screenshot: ${await screenshot(page, 'notebook-filtered')}`);

    // Copy: click the first row, shift-click the third; the status says what was copied.
    const drawn = table.locator('.mt-body .mt-row:not([hidden])');
    await drawn.nth(0).dispatchEvent('mousedown');
    await drawn.nth(2).dispatchEvent('mousedown', { shiftKey: true });
    await table.locator('.mt-copy').dispatchEvent('click');
    await eventually(
      async () => /Copied 3 rows/.test(await table.locator('.mt-toolbar [role=status]').first().textContent()),
      'copy',
    );

    // Save CSV through the extension host: the save dialog (code-server's simple dialog) takes a path.
    const { workspace } = e2eEnv();
    const target = path.join(workspace, 'filtered.csv');
    fs.rmSync(target, { force: true });
    await table.locator('.mt-save-csv').dispatchEvent('click');
    const dialog = page.locator('.quick-input-widget input');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 }).catch(async (e) => {
      console.log(`      status: ${await table.locator('.mt-toolbar [role=status]').first().textContent()}`);
      console.log(`      screenshot: ${await screenshot(page, 'notebook-save-failed')}`);
      throw e;
    });
    await answerFileDialog(page, target, { screenshotAs: 'notebook-save-dialog' });
    await eventually(async () => fs.existsSync(target), 'the saved CSV file');
    const lines = fs.readFileSync(target, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length - 1, Number.parseInt(filtered, 10), 'the saved file holds the filtered rows');
    assert.ok(lines[0].startsWith('datasourceId,'), 'with the header');
    await eventually(
      async () => /Saved/.test(await table.locator('.mt-toolbar [role=status]').first().textContent()),
      'saved status',
    );

    // Save Parquet: the same dialog; the file holds the filtered rows with the same columns.
    const parquetTarget = path.join(workspace, 'filtered.parquet');
    fs.rmSync(parquetTarget, { force: true });
    await table.locator('.mt-save-parquet').dispatchEvent('click');
    await answerFileDialog(page, parquetTarget);
    await eventually(async () => fs.existsSync(parquetTarget), 'the saved Parquet file');
    const bytes = fs.readFileSync(parquetTarget);
    const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    assert.equal(Number(meta.num_rows), Number.parseInt(filtered, 10), 'the Parquet file holds the filtered rows');
    const parquetColumns = meta.schema.slice(1).map((c) => c.name);
    assert.deepEqual(parquetColumns, lines[0].split(','), 'with the columns of the CSV');

    // Times: in the notebook's zone (UTC here: the tour names none), never the browser's (Tokyo): ISO-like 24-hour,
    // no offset in the cells, and no zone button while the notebook's zone is UTC (local-times.e2e.mjs has one).
    const timeCell = async () =>
      (await drawn.first().locator('.mt-cell').allTextContents()).find((t) => /^\d{4}-\d\d-\d\d \d\d:\d\d/.test(t));
    const utcText = await timeCell();
    assert.match(String(utcText), /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/, 'UTC times carry no offset');
    assert.equal(await table.locator('.mt-tz').isHidden(), true, 'no zone to switch to');
    console.log(`      time: ${utcText} (UTC, the browser in Tokyo)`);

    await table.locator('.mt-view-chart').dispatchEvent('click');
    await table.locator('.mt-chart canvas').first().waitFor({ timeout: 30_000 });
    const note = await table.locator('.mt-chart-note').textContent();
    console.log(`      chart: ${note}`);
    assert.match(note, /points, 1 lines/);
    await revealInNotebook(page, table.locator('.mt-chart'));
    console.log(`      screenshot: ${await screenshot(page, 'notebook-chart')}`);
    assert.ok(frame);
  });

  it('a 1,000,000-row report table scrolls to its last row with a bounded DOM', async () => {
    await openNotebook(page, 'million.measnb');
    await runAll(page);
    const table = await eventually(
      async () => {
        for (const { frame } of await tableFrames(page)) {
          for (const t of await frame.locator('.measnb-table').all()) {
            const text = await t.locator('.mt-count').textContent();
            const n = Number.parseInt(text.replace(/,/g, ''), 10);
            if (n >= 1_000_000) return { t, n };
          }
        }
        return undefined;
      },
      'the million-row table',
      300,
      3000,
    ).catch(async (e) => {
      const cellText = await page.locator('.notebook-editor .monaco-list-row.code-cell-row').first().textContent();
      console.log(`      cell: ${cellText.replace(/\s+/g, ' ').slice(0, 300)}`);
      for (const f of page.frames()) {
        const text = await f.evaluate(() => document.body?.textContent ?? '').catch(() => '');
        if (/Report|rows|rror/.test(text) && text.length < 5000)
          console.log(`      output: ${text.replace(/\s+/g, ' ').slice(0, 400)}`);
      }
      console.log(`      screenshot: ${await screenshot(page, 'notebook-million-failed')}`);
      throw e;
    });
    console.log(`      rendered: ${await table.t.locator('.mt-count').textContent()}`);
    await revealInNotebook(page, table.t);
    const viewport = table.t.locator('.mt-viewport');
    await viewport.evaluate((v) => {
      v.scrollTop = v.scrollHeight;
    });
    await eventually(
      async () =>
        (await table.t.locator('.mt-body .mt-row:not([hidden]) .mt-gutter').allTextContents()).includes(
          String(table.n),
        ),
      'the last row drawn',
    );
    const domRows = await table.t.locator('.mt-row').count();
    console.log(`      scrolled to row ${table.n}; row elements in the DOM: ${domRows}`);
    assert.ok(domRows < 500);
    console.log(`      screenshot: ${await screenshot(page, 'notebook-million-end')}`);
  });
});
