// What a new user saw (issue 30 items 2, 7, 10, 11; issue 28 §2): in the browser workbench with the built-in
// Local emulator, a notebook of every datasource's PM2.5 NowCast and NO2 (hourly, 2 days) and the collocated pair
// DCZZDK8X / D789SKH9. The chart keeps a datasource's colour across metrics (never the QC red or an AQI hue);
// Export Notebook draws the chart the output showed (NO2, every line, its unit, ISO 24-hour ticks); the output
// caption says the row order; Export Sensor Evaluation Report writes EPA's report, opened in chromium.
// Screenshots: .artifacts/screenshots/newuser-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../host/browser.mjs';
import {
  answer,
  answerFileDialog,
  e2eEnv,
  eventually,
  notebookList,
  openNotebook,
  runAll,
  runCommand,
  SHOTS,
  screenshot,
  tableFrames,
  useWorkbench,
} from './workbench.mjs';

const NOTEBOOK = 'new-user.measnb';
const ALL = [
  'recent',
  'allDatasources: true',
  'outputFrequency: hour',
  'metricSelect: only pm2_5ConcMassNowcast + no2Conc1HourMean',
  'startTime: -2d',
  'format: csv-wide',
];
const PAIR = [
  'recent',
  'datasourceIds: DCZZDK8X, D789SKH9',
  'outputFrequency: hour',
  'metricSelect: only pm2_5ConcMass1HourMean',
  'startTime: -2d',
  'format: csv-wide',
];
/** With QC fields: the metric's value is `pm2_5ConcMass1HourMean.value`. */
const WITH_QC = [
  'recent as pm',
  'datasourceIds: DCZZDK8X',
  'outputFrequency: hour',
  'metricSelect: only pm2_5ConcMass1HourMean',
  'startTime: -1d',
  'qcAssessment: true',
  'format: csv-wide',
];
/** Written for a result without QC fields (the bare name): runs on `pm` too. */
const SQL = [
  'sql',
  'SELECT datasourceId, round(avg(pm2_5ConcMass1HourMean), 2) AS mean_pm, count(*) AS hours FROM pm GROUP BY 1',
];
/** core/aq/line-styles LINE_COLOURS as the browser reports them (rgb). */
const LINE_RGB = [
  '#3c69b4',
  '#0f96ff',
  '#8787ff',
  '#1e96b4',
  '#007878',
  '#1ea596',
  '#96785a',
  '#b48700',
  '#78690f',
  '#87960f',
  '#ff00c3',
  '#b47896',
  '#696969',
  '#8787a5',
  '#879687',
].map((h) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)).join(', ')})`);

/** The output table whose headers include `header`, scrolling the notebook until it is drawn. */
async function tableWith(page, header) {
  const list = await notebookList(page);
  let step = 0;
  return eventually(
    async () => {
      for (const { frame } of await tableFrames(page)) {
        const t = frame
          .locator('.measnb-table:not(.mt-panel .measnb-table)')
          .filter({ has: frame.locator('.mt-hname', { hasText: header }) });
        if (await t.count()) return { frame, table: t.first() };
      }
      await page.mouse.move(list.x + 14, list.y + list.height / 2);
      await page.mouse.wheel(0, ++step % 30 === 0 ? -30_000 : 500);
      return undefined;
    },
    `a table with ${header}`,
    240,
    500,
  );
}

/** Each line's legend label and its colour in the chart (uPlot's legend rows: label and marker). */
async function legendColours(table) {
  // The legend's first row is the x series (its title names the time and the zone): not a line.
  return table.locator('.u-legend .u-series').evaluateAll((rows) =>
    rows
      .slice(1)
      .map((r) => ({
        label: r.querySelector('.u-label')?.textContent ?? '',
        colour: getComputedStyle(r.querySelector('.u-marker')).borderColor,
      }))
      .filter((r) => r.label && !/QC-invalid/.test(r.label)),
  );
}

/** Wheels the notebook until `locator` (a cell row, or inside an output) starts `below` px under the list's top. */
async function reveal(page, locator, below = 8) {
  const list = await notebookList(page);
  for (let i = 0; i < 40; i++) {
    const box = (await locator.count()) ? await locator.boundingBox() : null;
    const delta = box ? Math.round(box.y - (list.y + below)) : i < 20 ? 600 : -600;
    if (box && Math.abs(delta) < 10) return;
    await page.mouse.move(list.x + 14, list.y + list.height / 2);
    await page.mouse.wheel(0, delta);
    await page.waitForTimeout(250);
  }
}

/** The page clipped to `locator` (an output), as the user sees it. */
async function shot(page, locator, name) {
  await reveal(page, locator);
  const list = await notebookList(page);
  const box = await locator.boundingBox();
  const y = Math.max(box.y - 4, list.y);
  const bottom = Math.min(box.y + box.height + 4, list.y + list.height);
  const file = path.join(SHOTS, `newuser-${name}.png`);
  await page.screenshot({
    path: file,
    clip: { x: list.x, y, width: list.width - 14, height: Math.max(40, bottom - y) },
  });
  return file;
}

/** Opens an exported HTML file in its own chromium page and takes a full-page screenshot. */
async function shotOfFile(file, name) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    const out = path.join(SHOTS, `newuser-${name}.png`);
    await page.screenshot({ path: out, fullPage: true });
    // The top of the page as a reader first sees it (the full page of a long export is too tall to look at).
    await page.screenshot({ path: path.join(SHOTS, `newuser-${name}-top.png`) });
    return { out, svgs: await page.locator('svg').count() };
  } finally {
    await browser.close();
  }
}

describe('e2e: what a new user saw (export, colours, row order, evaluation report)', function () {
  this.timeout(600_000);
  let page;
  const { workspace } = e2eEnv();
  before(() => {
    const cell = (source) => ({ kind: 'code', language: 'measq', source, outputs: [] });
    const nb = {
      measnb: 1,
      metadata: { connection: 'Local emulator' },
      cells: [cell(ALL), cell(PAIR), cell(WITH_QC), cell(SQL)],
    };
    fs.writeFileSync(path.join(workspace, NOTEBOOK), JSON.stringify(nb, null, 2));
  });
  useWorkbench(async (opened) => {
    page = opened;
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
    await openNotebook(page, NOTEBOOK);
    await runAll(page);
  });

  it('the chart: a datasource keeps its colour from PM2.5 to NO2, none red or an AQI hue; the caption says oldest first', async () => {
    const { frame, table } = await tableWith(page, /^no2Conc1HourMean/);
    const notes = await table.locator('.mt-note').allTextContents();
    assert.ok(
      notes.some((n) => /^Rows oldest first \(by time\); click a column header to sort\.$/.test(n)),
      notes.join(' | '),
    );
    await table.locator('.mt-view-chart').first().dispatchEvent('click');
    await eventually(async () => (await table.locator('.u-legend .u-series').count()) > 3, 'the chart drawn');
    const pm = await legendColours(table);
    const select = table.locator('select.mt-metric');
    const no2 = await select
      .locator('option')
      .evaluateAll((os) => os.find((o) => o.text.startsWith('no2Conc1HourMean'))?.value);
    await select.selectOption(no2);
    await eventually(
      async () => (await legendColours(table)).length > 0 && (await select.inputValue()) === no2,
      'the NO2 chart',
    );
    await page.waitForTimeout(500);
    const nox = await legendColours(table);
    console.log(`      ${pm.length} PM2.5 lines, ${nox.length} NO2 lines`);
    assert.ok(nox.length >= 9, `more NO2 lines than the old export's 8: ${nox.length}`);
    for (const l of [...pm, ...nox]) assert.ok(LINE_RGB.includes(l.colour), `${l.label}: ${l.colour} is a line colour`);
    const byLabel = new Map(pm.map((l) => [l.label, l.colour]));
    for (const l of nox)
      if (byLabel.has(l.label)) assert.equal(l.colour, byLabel.get(l.label), `${l.label} keeps its colour`);
    // Hover over the plot: the nearest line stays, the others dim (uPlot focus).
    const over = table.locator('.u-over').first();
    const box = await over.boundingBox();
    await over.dispatchEvent('mousemove', { clientX: box.x + box.width * 0.6, clientY: box.y + box.height * 0.5 });
    await page.waitForTimeout(300);
    console.log(`      screenshot: ${await shot(page, table, 'chart-no2')}`);
    void frame;
  });

  it('Export Notebook (HTML) draws the NO2 chart the output shows: every line, the unit, ISO 24-hour ticks', async () => {
    const target = path.join(workspace, 'new-user.html');
    fs.rmSync(target, { force: true });
    await runCommand(page, 'Measurements: Export Notebook with Results');
    await answer(page, 'HTML', { expect: 'Export Notebook' });
    await answerFileDialog(page, target);
    await eventually(async () => fs.existsSync(target), 'the exported HTML');
    const html = fs.readFileSync(target, 'utf8');
    const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>'));
    assert.match(svg, /aria-label="no2Conc1HourMean/, 'the metric chosen in the output');
    const lines = (svg.match(/<path d="M/g) ?? []).length;
    assert.ok(lines >= 9, `${lines} lines`);
    assert.equal((svg.match(/<g><title>/g) ?? []).length, lines, 'a legend entry per line');
    assert.match(html, /lines by datasourceId: (\d+) of \1 lines drawn/);
    assert.match(svg, />\d\d:00<\/text>/, '24-hour time ticks');
    const { out, svgs } = await shotOfFile(target, 'export-html');
    assert.ok(svgs >= 2);
    console.log(`      screenshot: ${out}`);
  });

  it('Export Sensor Evaluation Report on the pair: EPA’s report with the reference chosen by place, opened in chromium', async () => {
    const { table } = await tableWith(page, /^pm2_5ConcMass1HourMean$/);
    // Select the pair's cell: its output is in view; click the cell's editor above it.
    // Monaco draws spaces as no-break spaces: \s matches both. The cell's editor is the top of its row: wheel the
    // list until it sits below the breadcrumbs, then click into it (the cell becomes the active one).
    const row = page.locator('.notebook-editor .monaco-list-row', { hasText: /DCZZDK8X,\s*D789SKH9/ }).first();
    await reveal(page, row, 90);
    const editor = row.locator('.cell-editor-container, .monaco-editor').first();
    const eb = await editor.boundingBox();
    await page.mouse.click(eb.x + Math.min(300, eb.width / 2), eb.y + Math.min(30, eb.height / 2));
    await page.waitForTimeout(300);
    void table;
    const target = path.join(workspace, 'pair-evaluation.html');
    fs.rmSync(target, { force: true });
    await runCommand(page, 'Measurements: Export Sensor Evaluation Report');
    await answer(page, '', { expect: 'metric' });
    await answer(page, '', { expect: 'sensor' });
    await answer(page, '', { expect: 'reference' });
    await answer(page, 'HTML', { expect: 'format' });
    await answerFileDialog(page, target);
    await eventually(async () => fs.existsSync(target), 'the report file');
    const html = fs.readFileSync(target, 'utf8');
    assert.match(html, /<th>Sensor<\/th><td>DCZZDK8X/);
    assert.match(html, /<th>Reference<\/th><td>D789SKH9/);
    assert.match(html, /<th>Distance<\/th><td>0\.000 km<\/td>/);
    assert.match(html, /<td>Slope<\/td><td class="num">1\.\d\d<\/td>/);
    const { out, svgs } = await shotOfFile(target, 'evaluation-report');
    assert.ok(svgs >= 2, `${svgs} charts`);
    console.log(`      screenshot: ${out}`);
    console.log(`      notebook: ${await screenshot(page, 'newuser-workbench')}`);
  });

  it('a sql cell written with the bare metric name runs on a result whose column is "….value" (QC fields on)', async () => {
    const { table } = await tableWith(page, /^mean_pm$/);
    const headers = await table.locator('.mt-hname').allTextContents();
    assert.deepEqual(headers.slice(0, 3), ['datasourceId', 'mean_pm', 'hours']);
    const cells = await table.locator('.mt-body .mt-row:not([hidden])').first().locator('.mt-cell').allTextContents();
    const at = cells.indexOf('DCZZDK8X'); // after the row number
    assert.ok(at >= 0, cells.join(' | '));
    assert.ok(Number(cells[at + 1]) > 0 && Number(cells[at + 2]) >= 20, cells.join(' | '));
    console.log(`      screenshot: ${await shot(page, table, 'sql-bare-name')}`);
  });
});
