// The air-quality views on real notebook outputs in the browser workbench (code-server, the installed .vsix,
// the built-in Local emulator): the compare-data-versions example draws legacy and v2026-11-10 NowCast in
// one chart; on air-quality.measnb every view opens on the first result, in the dark and the light theme,
// and the Summary and Collocation numbers equal the model's on the rows the workbench saved in the file.
// Screenshots: .artifacts/screenshots/aq-wb-<view>-<theme>.png (the output element only).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { CACHE, ROOT } from '../host/toolchain.mjs';
import { drawnRows } from './notebook-renderer-page.mjs';
import {
  answer,
  e2eEnv,
  eventually,
  openNotebook,
  openWorkbench,
  revealInNotebook,
  runAll,
  runCommand,
  SHOTS,
  screenshot,
  screenshotIfFailed,
  tableFrames,
} from './workbench.mjs';

const near = (a, b, eps = 1e-6) => Math.abs(a - b) <= eps * Math.max(1, Math.abs(b));
const VIEWS = ['summary', 'exceedances', 'profiles', 'collocation', 'map'];

async function loadSavedModel() {
  const out = path.join(CACHE, 'aq-e2e', 'saved-model.cjs');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/e2e/air-quality/saved-model.ts')],
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    logLevel: 'warning',
    external: ['@duckdb/node-api'],
  });
  return createRequire(import.meta.url)(out).savedModel;
}

/** The rendered table whose headers satisfy `match`, scrolling the notebook until its output is drawn. */
async function findTable(page, match, what) {
  const list = await page.locator('.notebook-editor .monaco-list').first().boundingBox();
  let step = 0;
  return eventually(
    async () => {
      for (const { frame } of await tableFrames(page))
        for (const t of await frame.locator('.measnb-table').all()) {
          const headers = await t.locator('.mt-hrow .mt-hname').allTextContents();
          if (match(headers)) return { frame, table: t };
        }
      await page.mouse.move(list.x + 14, list.y + list.height / 2);
      await page.mouse.wheel(0, ++step % 40 === 0 ? -40_000 : 500);
      return undefined;
    },
    what,
    240,
    500,
  );
}

/** Opens a view by its button in the output (the same button again goes back to the table). */
async function openView(page, table, name) {
  const button = table.locator(name === 'chart' ? '.mt-view-toggle' : `.mt-view-${name}`).first();
  await revealInNotebook(page, button);
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
}

async function shotOf(locator, name) {
  const file = path.join(SHOTS, `aq-wb-${name}.png`);
  await locator.screenshot({ path: file });
  return file;
}

describe('e2e: air-quality views on notebook outputs in the workbench', function () {
  this.timeout(1_200_000);
  let browser;
  let page;
  before(async () => {
    ({ browser, page } = await openWorkbench());
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
  });
  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, page);
  });
  after(async () => {
    await browser?.close();
  });

  it('compare-data-versions: legacy and v2026-11-10 NowCast of one datasource in one chart, a line per dataVersion', async () => {
    await openNotebook(page, 'compare-data-versions.measnb');
    await runAll(page);
    const { table } = await findTable(
      page,
      (h) => h.includes('dataVersion') && h.includes('pm2_5ConcMassNowcast'),
      'the sql output with a dataVersion column',
    );
    await revealInNotebook(page, table);
    await openView(page, table, 'chart');
    await table.locator('.mt-chart canvas').first().waitFor({ timeout: 30_000 });
    const linesBy = await table.locator('.mt-chart .mt-lines-by option:checked').textContent();
    assert.equal(linesBy, 'dataVersion');
    const labels = await table.locator('.mt-chart .u-legend .u-series .u-label').allTextContents();
    assert.ok(labels.includes('legacy') && labels.includes('v2026-11-10'), `legend: ${labels.join(', ')}`);
    assert.match(await table.locator('.mt-chart-note').textContent(), / 2 lines/);
    const legend = await table.locator('.mt-chart .mt-aqi-legend').textContent();
    assert.ok(legend.includes('Unhealthy') && legend.includes('Good'), legend);
    console.log(`      ${await shotOf(table, 'compare-versions-dark')}`);
  });

  it('air-quality.measnb: each view on the first result in dark and light; Summary and Collocation equal the model of the saved rows', async () => {
    const savedModel = await loadSavedModel();
    await openNotebook(page, 'air-quality.measnb');
    await runAll(page);
    const { table } = await findTable(
      page,
      (h) => h.includes('pm2_5ConcMass24HourRollingMean.value'),
      'the first recent output (NowCast, 24-hour mean, NO2 with QC)',
    );
    // Saved now, the file holds the rows this output shows (later cells may still run; they are not read).
    await page.locator('.tab', { hasText: 'air-quality.measnb' }).first().click();
    await page.keyboard.press('Control+S');
    const file = path.join(e2eEnv().workspace, 'air-quality.measnb');
    const model = await eventually(
      async () => savedModel(file, 2, 'pm2_5ConcMassNowcast.value'),
      'the notebook saved with its outputs',
      60,
      1000,
    );
    await revealInNotebook(page, table);
    assert.equal(
      await table.locator('.mt-count').first().textContent(),
      `${model.rowCount.toLocaleString('en-US')} rows`,
    );
    const [sensor, reference] = ['DCZZDK8X', 'D789SKH9'];
    assert.deepEqual(model.references.includes(reference), true, `references: ${model.references}`);

    for (const theme of ['dark', 'light']) {
      if (theme === 'light') {
        await runCommand(page, 'Preferences: Color Theme');
        await answer(page, 'Light Modern');
        await page.waitForTimeout(1500);
        await revealInNotebook(page, table);
      }
      console.log(`      ${await shotOf(table, `table-${theme}`)}`);
      await openView(page, table, 'chart');
      await table.locator('.mt-chart canvas').first().waitFor({ timeout: 30_000 });
      await table.locator('.mt-chart .mt-metric').selectOption({ label: 'pm2_5ConcMassNowcast.value [µg/m³]' });
      await page.waitForTimeout(500);
      console.log(`      ${await shotOf(table, `chart-${theme}`)}`);
      await openView(page, table, 'chart'); // back to the table
      for (const view of VIEWS) {
        await openView(page, table, view);
        await table.locator(`.mt-${view}`).first().waitFor({ timeout: 30_000 });
        if (view === 'summary') await checkSummary(table, model);
        if (view === 'collocation') await checkCollocation(table, model, sensor, reference);
        await page.waitForTimeout(400);
        await revealInNotebook(page, table);
        console.log(`      ${await shotOf(table, `${view}-${theme}`)}`);
      }
      await openView(page, table, 'map'); // closes the last view
    }
    await screenshot(page, 'aq-wb-notebook-light');
  });
});

async function checkSummary(table, model) {
  await table.locator('.mt-summary .mt-body .mt-row:not([hidden])').first().waitFor({ timeout: 30_000 });
  assert.equal(
    await table.locator('.mt-summary .mt-count').textContent(),
    `${model.summaryRows.length.toLocaleString('en-US')} rows`,
  );
  const header = await table.locator('.mt-summary .mt-hcell .mt-hname').allTextContents();
  const shown = await drawnRows(table, '.mt-summary');
  assert.ok(shown.length >= 5, `summary rows drawn: ${shown.length}`);
  shown.slice(0, 8).forEach((cells, i) => {
    const want = model.summaryRows[i];
    header.forEach((name, k) => {
      const w = want[name];
      if (typeof w !== 'number') assert.equal(cells[k], w, `${name} row ${i}`);
      else if (Number.isNaN(w)) assert.equal(cells[k], '', `${name} row ${i}`);
      else assert.ok(near(Number(cells[k]), w), `${name} row ${i}: shown ${cells[k]}, model ${w}`);
    });
  });
}

async function checkCollocation(table, model, sensor, reference) {
  const panel = table.locator('.mt-collocation');
  await panel.locator('.mt-colloc-metric').selectOption({ label: 'pm2_5ConcMassNowcast.value [µg/m³]' });
  await panel.locator('.mt-reference').selectOption(reference);
  await panel.locator('.mt-sensor').selectOption(sensor);
  assert.match(await panel.locator('.mt-reference option:checked').textContent(), /\(reference site\)$/);
  await panel.locator('.mt-colloc-table').waitFor({ timeout: 30_000 });
  const rows = await panel
    .locator('.mt-colloc-table tbody tr')
    .evaluateAll((trs) => Object.fromEntries(trs.map((r) => [r.dataset.stat, [...r.cells].map((c) => c.textContent)])));
  const fit = model.collocation(sensor, reference);
  const r3 = (v) => Math.round(v * 1000) / 1000;
  assert.equal(Number(rows['n (paired periods)'][1]), fit.n);
  assert.ok(near(Number.parseFloat(rows.Slope[1]), r3(fit.slope)), `slope ${rows.Slope[1]} vs ${fit.slope}`);
  assert.ok(near(Number.parseFloat(rows.Intercept[1]), r3(fit.intercept)));
  assert.ok(near(Number.parseFloat(rows['R²'][1]), r3(fit.r2)));
  assert.ok(near(Number.parseFloat(rows['RMSE (sensor − reference)'][1]), r3(fit.rmse)));
  assert.ok(near(Number.parseFloat(rows['Mean bias (sensor − reference)'][1]), r3(fit.meanBias)));
  for (const t of fit.targets) {
    const row = Object.entries(rows).find(([k]) => k.startsWith(t.name));
    assert.equal(row[1][3], t.met ? '✓ met' : '✗ not met', t.name);
  }
  console.log(`      collocation ${sensor} vs ${reference}: n ${fit.n}, slope ${r3(fit.slope)}, R² ${r3(fit.r2)}`);
}
