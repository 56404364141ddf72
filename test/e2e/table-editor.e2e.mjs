// The Measurements Table editor in the browser: a .parquet file through the Explorer's "Open as
// Measurements Table", a .csv.gz through "Open With…", longer than measurements.tableFile.maxRows (the
// first rows and the truncation note), and a malformed file (a clear message, not a blank editor).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import {
  e2eEnv,
  eventually,
  frameWith,
  openWorkbench,
  pickMenuItem,
  runCommand,
  screenshot,
  screenshotIfFailed,
} from './workbench.mjs';

const FIXTURE = path.resolve('test/fixtures/public-node-report-hourly-english.csv');
const FILES = ['part-0.parquet', 'english-report.csv.gz', 'broken.parquet'];

/** A small parquet-wide file: 2 datasources × 24 hours, service column names. */
function parquetFile() {
  const ids = [];
  const times = [];
  const values = [];
  const statuses = [];
  const t0 = Date.parse('2026-11-19T00:00:00Z');
  for (const id of ['DS-ALPHA', 'DS-BETA'])
    for (let h = 0; h < 24; h++) {
      ids.push(id);
      times.push(new Date(t0 + h * 3_600_000));
      values.push(5 + ((h * 7) % 13) + (id === 'DS-BETA' ? 20 : 0));
      statuses.push('valid');
    }
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'datasourceId', data: ids, type: 'STRING' },
        { name: 'time', data: times, type: 'TIMESTAMP' },
        { name: 'pm2_5ConcMass.value', data: values, type: 'DOUBLE' },
        { name: 'pm2_5ConcMass.status', data: statuses, type: 'STRING' },
      ],
    }),
  );
}

/** The webview frame holding a table editor whose widget (or error) is on screen. */
function editorFrame(page, selector) {
  return frameWith(page, selector, `a table editor frame with ${selector}`);
}

/**
 * Right-clicks a file in the Explorer and picks a context menu entry. Just after the workbench opens the
 * extensions' menu entries may not be registered yet: the menu is opened again until the entry is there.
 */
async function explorerMenu(page, file, entry) {
  await runCommand(page, 'View: Show Explorer');
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).first();
  // The Explorer draws only the rows in view, and the shared e2e workspace holds more files than fit: scroll
  // the list up with the wheel, then down, until the file's row is drawn.
  const list = page.locator('.explorer-folders-view').first();
  await list.waitFor({ state: 'visible', timeout: 30_000 });
  let wheels = 0;
  await eventually(
    async () => {
      if (await row.isVisible()) return true;
      await list.hover();
      await page.mouse.wheel(0, wheels++ < 25 ? -200 : 200);
      return false;
    },
    `the Explorer row of ${file}`,
    80,
    200,
  );
  const item = page.locator('.monaco-menu .action-item', { hasText: entry }).first();
  await eventually(
    async () => {
      await page.keyboard.press('Escape');
      await row.click({ button: 'right' });
      return item.waitFor({ state: 'visible', timeout: 2000 }).then(() => true);
    },
    `"${entry}" in the Explorer's context menu of ${file}`,
    20,
  );
  await pickMenuItem(page, item);
}

describe('e2e: Measurements Table editor', () => {
  let browser;
  let page;
  const { workspace } = e2eEnv();
  const settingsFile = path.join(workspace, '.vscode', 'settings.json');
  let settingsBefore;
  before(async () => {
    fs.writeFileSync(path.join(workspace, 'part-0.parquet'), parquetFile());
    fs.writeFileSync(path.join(workspace, 'english-report.csv.gz'), gzipSync(fs.readFileSync(FIXTURE)));
    fs.writeFileSync(path.join(workspace, 'broken.parquet'), 'not a parquet file');
    settingsBefore = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    const settings = settingsBefore ? JSON.parse(settingsBefore) : {};
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'measurements.tableFile.maxRows': 1000 }, null, 2));
    ({ browser, page } = await openWorkbench());
  });
  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, page);
  });
  after(async () => {
    await browser?.close();
    for (const f of FILES) fs.rmSync(path.join(workspace, f), { force: true });
    if (settingsBefore === undefined) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, settingsBefore);
  });

  it('Explorer → Open as Measurements Table on a .parquet file: the table widget with its rows', async () => {
    await explorerMenu(page, 'part-0.parquet', 'Open as Measurements Table');
    const frame = await editorFrame(page, '.measnb-table.mt-fill .mt-count');
    const count = await frame.locator('.mt-count').first().textContent();
    console.log(`      parquet: ${count}`);
    assert.match(String(count), /\b48\b/);
    const headers = await frame.locator('.mt-hname').allTextContents();
    assert.ok(headers.includes('datasourceId'), headers.join(' | '));
    assert.equal(
      (await frame.locator('.mt-body .mt-row:not([hidden]) .mt-cell', { hasText: 'DS-ALPHA' }).count()) > 0,
      true,
    );
    const tab = page.locator('.tabs-container .tab.active');
    assert.match(String(await tab.textContent()), /part-0\.parquet/);
    console.log(`      screenshot: ${await screenshot(page, 'table-editor-parquet')}`);
  });

  it('Open With… → Measurements Table on a .csv.gz report: the first rows and "Showing 1,000 of 2,904 rows"', async () => {
    await explorerMenu(page, 'english-report.csv.gz', 'Open With');
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Measurements Table' }).first();
    await pick.waitFor({ state: 'visible', timeout: 10_000 });
    await pick.click();
    const frame = await editorFrame(page, '.measnb-table.mt-fill .mt-truncated');
    const note = await eventually(async () => {
      const t = await frame.locator('.mt-truncated').first().textContent();
      return /of 2,904 rows/.test(String(t)) && t;
    }, 'the truncation note with the counted rows');
    console.log(`      note: ${note}`);
    assert.match(note, /Showing 1,000 of 2,904 rows/);
    assert.match(note, /measurements\.tableFile\.maxRows/);
    const headers = await frame.locator('.mt-hname').allTextContents();
    assert.ok(
      headers.some((h) => /Start of Period/.test(h)),
      headers.slice(0, 8).join(' | '),
    );
    console.log(`      screenshot: ${await screenshot(page, 'table-editor-csv-gz')}`);
  });

  it('Summary of a file held in part: computed over all 2,904 rows by the host, and says so', async () => {
    // The .csv.gz editor of the test before holds its first 1,000 rows; its Summary asks the extension host,
    // which runs DuckDB over the whole file (issue 28: statistics over every row, not the rows held).
    const frame = await editorFrame(page, '.measnb-table.mt-fill .mt-truncated');
    await frame.locator('.mt-view-summary').first().click();
    const note = await eventually(async () => {
      const t = await frame.locator('.mt-summary-note').first().textContent();
      return /over all 2,904 rows/.test(String(t)) && t;
    }, 'the Summary note naming all the rows of the file');
    console.log(`      summary note: ${note}`);
    assert.match(note, /DuckDB over the whole file/);
    assert.doesNotMatch(note, /first 1,000 rows/);
    await frame.locator('.mt-summary .mt-body .mt-row:not([hidden])').first().waitFor({ timeout: 30_000 });
    console.log(`      screenshot: ${await screenshot(page, 'table-editor-summary-all-rows')}`);
  });

  it('a malformed .parquet file shows why it could not be read', async () => {
    await explorerMenu(page, 'broken.parquet', 'Open as Measurements Table');
    const frame = await editorFrame(page, '.mt-panel-error');
    const text = await frame.locator('.mt-panel-error').textContent();
    console.log(`      error: ${text}`);
    assert.match(String(text), /could not be read as a Parquet table/);
    // No progress left behind (a small file's read is shown in the status bar, and ends with the failure).
    await eventually(
      async () => !(await page.locator('.notification-toast', { hasText: 'as a table' }).isVisible()),
      'no "Opening … as a table" progress notification left',
      50,
    );
    console.log(`      screenshot: ${await screenshot(page, 'table-editor-error')}`);
  });
});
