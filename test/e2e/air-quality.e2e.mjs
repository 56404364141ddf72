// The air-quality views on real notebook outputs in the browser workbench (code-server, the installed .vsix,
// the built-in Local emulator): the compare-data-versions example draws legacy and v2026-11-10 NowCast in
// one chart; air-quality.measnb, opened by Measurements: Open Example, shows every view on the first result in
// the dark and the light theme (the chart, Exceedances and the map in High Contrast too), and the Summary and
// Collocation numbers equal the model's on the rows the workbench saved in the file; the json-long pair pairs
// PM2.5 on 24-hour means and names its datasources (the connection's names); the NO2 chart's 15 lines each
// have their own style, and hovering a legend entry emphasises its line (aq-wb-chart-no2-lines/-hover.png).
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
  findTable,
  openNotebook,
  openView,
  runAll,
  runCommand,
  screenshot,
  setColorTheme as setTheme,
  shotOf,
  useWorkbench,
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
    external: ['@duckdb/node-api', '@duckdb/node-bindings'],
  });
  return createRequire(import.meta.url)(out).savedModel;
}

/** From any view back to the rows (the Table tab). */
async function backToTable(table) {
  const tab = table.locator('.mt-tabs .mt-view-table').first();
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.dispatchEvent('click');
  await table.locator('.mt-viewport:not([hidden])').first().waitFor({ state: 'attached', timeout: 10_000 });
}

describe('e2e: air-quality views on notebook outputs in the workbench', function () {
  this.timeout(1_200_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    // Tall enough for a view below its toolbar; the side bar closed for the notebook's width.
    await page.setViewportSize({ width: 1400, height: 1200 });
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
  });
  after(async () => {
    // The theme and the side bar are the profile's, shared with the suites after this one: put them back.
    await setTheme(page, 'Dark Modern').catch(() => {});
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility').catch(() => {});
  });

  it('compare-data-versions: legacy and v2026-11-10 NowCast of one datasource in one chart, a line per dataVersion', async () => {
    await openNotebook(page, 'compare-data-versions.measnb');
    await runAll(page);
    const { table } = await findTable(
      page,
      { has: ['dataVersion', 'pm2_5ConcMassNowcast'] },
      'the sql output with a dataVersion column',
    );
    // No locationLatitude/locationLongitude in this sql result: nothing to map, so no Map button.
    assert.equal(await table.locator('.mt-view-map').count(), 0, 'a result without locations offers no Map');
    assert.equal(await table.locator('.mt-view-summary').count(), 1, 'the other views stay');
    await openView(page, table, 'chart');
    await table.locator('.mt-chart canvas').first().waitFor({ timeout: 30_000 });
    const linesBy = await table.locator('.mt-chart .mt-lines-by option:checked').textContent();
    assert.equal(linesBy, 'dataVersion');
    const labels = await table.locator('.mt-chart .u-legend .u-series .u-label').allTextContents();
    assert.ok(labels.includes('legacy') && labels.includes('v2026-11-10'), `legend: ${labels.join(', ')}`);
    assert.match(await table.locator('.mt-chart-note').textContent(), / 2 lines/);
    const legend = await table.locator('.mt-chart .mt-aqi-legend').textContent();
    assert.ok(legend.includes('Unhealthy') && legend.includes('Good'), legend);
    console.log(`      ${await shotOf(page, table, 'compare-versions-dark')}`);
  });

  it('air-quality.measnb (Open Example): each view on the first result in dark and light, chart/Exceedances/map in High Contrast; Summary and Collocation equal the model of the saved rows', async () => {
    const savedModel = await loadSavedModel();
    // Opened as the tour's link and the walkthrough step open it: the Open Example command.
    await runCommand(page, 'Measurements: Open Example');
    await answer(page, 'air-quality', { expect: 'Open a bundled example notebook' });
    await page.locator('.tab.active', { hasText: 'air-quality.measnb' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.notebook-editor .monaco-list-row').first().waitFor({ state: 'attached', timeout: 60_000 });
    await runAll(page);
    const { table } = await findTable(
      page,
      { has: ['pm2_5ConcMass24HourRollingMean.value'] },
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
    assert.equal(
      await table.locator('.mt-count').first().textContent(),
      `${model.rowCount.toLocaleString('en-US')} rows`,
    );
    const [sensor, reference] = ['DCZZDK8X', 'D789SKH9'];
    assert.ok(model.references.includes(reference), `references: ${model.references}`);

    for (const theme of ['dark', 'hc', 'light']) {
      if (theme === 'light') await setTheme(page, 'Light Modern');
      if (theme === 'hc') await setTheme(page, 'Dark High Contrast');
      await checkTable(table);
      console.log(`      ${await shotOf(page, table, `table-${theme}`)}`);
      await checkChart(page, table);
      console.log(`      ${await shotOf(page, table, `chart-${theme}`)}`);
      for (const view of theme === 'hc' ? ['exceedances', 'map'] : VIEWS) {
        await openView(page, table, view);
        await table.locator(`.mt-${view}`).first().waitFor({ timeout: 30_000 });
        if (view === 'summary') await checkSummary(table, model);
        if (view === 'collocation') await checkCollocation(table, model, sensor, reference);
        if (view === 'profiles') await checkProfiles(table, model);
        if (view === 'map') await checkMap(table, model);
        await page.waitForTimeout(600);
        console.log(`      ${await shotOf(page, table, `${view}-${theme}`)}`);
        if (view === 'map' && theme === 'dark') console.log(`      ${await mapAtRegionScale(page, table)}`);
      }
      await backToTable(table);
    }
    await screenshot(page, 'aq-wb-notebook-light');
  });

  it('air-quality.measnb: the NO2 chart draws a line per datasource in distinct colours; hovering a legend entry widens its line and dims the others', async () => {
    await openNotebook(page, 'air-quality.measnb');
    await runAll(page);
    const { table } = await findTable(
      page,
      { has: ['pm2_5ConcMass24HourRollingMean.value'] },
      'the first recent output (NowCast, 24-hour mean, NO2 with QC)',
    );
    await openView(page, table, 'chart');
    const chart = table.locator(':scope > .mt-chart');
    await chart.locator('canvas').first().waitFor({ timeout: 30_000 });
    const no2 = await chart
      .locator('.mt-metric option')
      .evaluateAll((os) => os.find((o) => o.textContent.startsWith('no2Conc1HourMean.value'))?.value);
    await chart.locator('.mt-metric').selectOption(no2);
    await chart.locator('.mt-hide-invalid, .mt-chart-note').first().waitFor({ state: 'attached' });
    await page.waitForTimeout(500);
    // The legend's rows: the time (x) first, the lines, the QC-invalid marks last (when shown).
    const rows = chart.locator('.u-legend .u-series');
    const labels = await rows.locator('th .u-label').allTextContents();
    const lines = labels.slice(1).filter((l) => l !== 'QC-invalid');
    assert.ok(lines.length >= 12, `lines: ${lines.join(', ')}`);
    // Each line's legend marker shows its colour and dash: 15 colours solid, then dashed ones (core/aq/line-styles).
    const markers = await rows
      .locator('th .u-marker')
      .evaluateAll((ms) =>
        ms.map((m) => `${getComputedStyle(m).borderTopColor} ${getComputedStyle(m).borderTopStyle}`),
      );
    const styles = markers.slice(1, 1 + lines.length);
    assert.equal(new Set(styles).size, lines.length, `a style per line: ${styles.join(', ')}`);
    // Styles are given over every datasource of the result (20), not only the lines with NO2 values: more than
    // 15 datasources take dashed variants, and their legend markers are dashed.
    assert.ok(
      styles.some((m) => m.endsWith(' dashed')),
      `dashed markers for the lines past 15 colours: ${styles.join(', ')}`,
    );
    console.log(`      ${lines.length} NO2 lines: ${await shotOf(page, table, 'chart-no2-lines')}`);

    // Hover (uPlot's focus): the entry's row stays opaque, the others fade to focus.alpha 0.25, the line widens.
    const k = 3;
    await rows.nth(k).locator('th').dispatchEvent('mouseenter');
    const plot = chart.locator('.uplot');
    await eventually(async () => (await plot.getAttribute('data-focused')) === labels[k], 'the line focused', 50);
    const opacities = await rows.evaluateAll((trs) => trs.map((tr) => tr.style.opacity));
    assert.equal(opacities[k], '1', `the hovered entry: ${opacities.join(' ')}`);
    const others = opacities.slice(1).filter((_, i) => i + 1 !== k);
    assert.ok(
      others.every((o) => o === '0.25'),
      `the others dimmed: ${opacities.join(' ')}`,
    );
    console.log(`      hovering ${labels[k]}: ${await shotOf(page, table, 'chart-no2-hover')}`);
    // Leaving the legend gives every line its colour back.
    await chart.locator('.u-legend').dispatchEvent('mouseleave');
    await eventually(async () => (await plot.getAttribute('data-focused')) === '', 'no line focused', 50);
    assert.ok((await rows.evaluateAll((trs) => trs.map((tr) => tr.style.opacity))).every((o) => o === '1'));
  });

  it('air-quality.measnb: the json-long result knows its reference site from the connection (Collocation)', async () => {
    // The json-long pair: DCZZDK8X and D789SKH9, one metric, no sourceType column (run by the test before).
    await openNotebook(page, 'air-quality.measnb');
    const { table } = await findTable(
      page,
      { has: ['datasourceId', 'time', 'pm2_5ConcMass1HourMean.value'], hasNot: ['sourceType'] },
      'the json-long pair output (no sourceType column)',
    );
    await openView(page, table, 'collocation');
    const panel = table.locator('.mt-collocation');
    await panel.locator('.mt-reference option').first().waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await panel.locator('.mt-reference').inputValue(), 'D789SKH9', 'the reference site is picked first');
    // Named from the connection's datasources (ResultInfo.datasourceNames).
    assert.match(
      await panel.locator('.mt-reference option:checked').textContent(),
      /^D789SKH9 Reference site \d+.* \(reference site\)$/,
    );
    assert.equal(await panel.locator('.mt-sensor').inputValue(), 'DCZZDK8X', 'the sensor is the other one');
    assert.match(
      await panel.locator('.mt-sensor option:checked').textContent(),
      /^DCZZDK8X Node \d+ \(at Reference site/,
    );
    // EPA's evaluation: 1-hour and 24-hour averages side by side, each with its n; two days of recent hours hold
    // one or two valid days (by the hour of the day the test runs).
    const stats = await eventually(
      async () => {
        const text = String(await panel.locator('.mt-colloc-stats').textContent());
        return text.includes('n (pairs)') ? text : undefined;
      },
      'the 1-hour and 24-hour evaluation',
      60,
      500,
    );
    assert.match(stats, /Averages left out \(< 75 % complete\)/);
    assert.match(stats, /needs 3 sensors/);
    assert.equal(await panel.locator('.mt-colloc-table th').count(), 6, '1-hour, 24-hour and the EPA target columns');
    assert.match(await panel.locator('.mt-colloc-pairing').textContent(), /within 1 km/);
    assert.match(await panel.locator('.mt-colloc-verdict').textContent(), /24-hour averages/);
    console.log(`      ${await shotOf(page, table, 'collocation-json-long')}`);
  });
});

/** Units in the headers and AQI chips (category named in the tooltip) on the table. */
async function checkTable(table) {
  await backToTable(table);
  const unit = await table
    .locator('.mt-hcell')
    .evaluateAll(
      (cells) =>
        cells
          .find((c) => c.querySelector('.mt-hname')?.textContent === 'pm2_5ConcMassNowcast.value')
          ?.querySelector('.mt-unit')?.textContent,
    );
  assert.equal(unit, 'µg/m³');
  const chip = table.locator('.mt-body .mt-row:not([hidden]) .mt-cell.mt-aqi').first();
  assert.match(
    await chip.getAttribute('title'),
    /AQI category: (Good|Moderate|Unhealthy for Sensitive Groups|Unhealthy|Very Unhealthy|Hazardous)$/,
  );
}

/** The NowCast chart: AQI bands with their legend, QC-invalid points counted, the QC legend opened. */
async function checkChart(page, table) {
  await openView(page, table, 'chart');
  const chart = table.locator(':scope > .mt-chart'); // not the Exceedances view's chart
  await chart.locator('canvas').first().waitFor({ timeout: 30_000 });
  await chart.locator('.mt-metric').selectOption({ label: 'pm2_5ConcMassNowcast.value [µg/m³]' });
  await page.waitForTimeout(500);
  const legend = await chart.locator('.mt-aqi-legend').textContent();
  assert.ok(legend.includes('Good') && legend.includes('Unhealthy'), legend);
  const invalid = await chart.locator('.mt-invalid-count').textContent();
  const count = /\((\d[\d,]*)\)/.exec(invalid)?.[1];
  assert.ok(Number(count?.replace(/,/g, '')) > 0, `QC-invalid count: ${invalid}`);
  // Before a hover, the marks' legend entry says how many values are marked (it was empty).
  const marks = chart.locator('.u-legend .u-series', { hasText: 'QC-invalid' }).locator('.u-value');
  assert.equal(await marks.textContent(), `${count} marked`);
  const qc = chart.locator('.mt-qc-legend');
  if (!(await qc.evaluate((d) => d.open))) await qc.locator('summary').dispatchEvent('click');
  assert.match(await qc.textContent(), /QC\.I\.OOB\.001: invalid, out of bounds/);
}

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

/** Four profile charts (openair's timeVariation panels); with more datasources than lines drawn, the note says so. */
async function checkProfiles(table, model) {
  await table.locator('.mt-profiles .mt-weekday canvas').first().waitFor({ timeout: 30_000 });
  assert.equal(await table.locator('.mt-profiles canvas').count(), 4, 'hour of the week, hour, month, weekday');
  const note = await table.locator('.mt-profiles .mt-status').first().textContent();
  if (model.datasources > 12)
    assert.match(note, new RegExp(`Only the first 12 of ${model.datasources} datasources \\(by name\\) are drawn`));
  else assert.doesNotMatch(note, /Only the first/);
}

/** The map: every datasource of the rows placed, the moved one counted. */
async function checkMap(table, model) {
  await table.locator('.mt-map canvas').first().waitFor({ timeout: 30_000 });
  assert.match(
    await table.locator('.mt-map-note').textContent(),
    new RegExp(`^${model.mapPoints} datasources, 1 moved`),
  );
  // The collocated pair shares one (split) marker: the canvas's text alternative names both.
  assert.match(
    await table.locator('.mt-map canvas').getAttribute('aria-label'),
    /sharing a place: .*D789SKH9 \+ DCZZDK8X/,
  );
  // Towns (GeoNames places) are named around the datasources, clear of their markers and names.
  assert.match(await table.locator('.mt-map canvas').getAttribute('aria-label'), /; towns: \S/);
}

/** Wheeled out from the city to the region: the 1:50m coast, state boundaries (admin-1) and towns; its picture. */
async function mapAtRegionScale(page, table) {
  const box = await table.locator('.mt-map canvas').first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 16; i++) {
    await page.mouse.wheel(0, 100);
    await page.waitForTimeout(60);
  }
  await page.waitForTimeout(600);
  return shotOf(page, table, 'map-region-dark');
}

async function checkCollocation(table, model, sensor, reference) {
  const panel = table.locator('.mt-collocation');
  await panel.locator('.mt-colloc-metric').selectOption({ label: 'pm2_5ConcMassNowcast.value [µg/m³]' });
  await panel.locator('.mt-reference').selectOption(reference);
  await panel.locator('.mt-sensor').selectOption(sensor);
  // Two days hold one full day: the 1-hour column is checked (the 24-hour one on the week-long pair).
  assert.match(await panel.locator('.mt-reference option:checked').textContent(), /\(reference site\)$/);
  await panel.locator('.mt-colloc-table').waitFor({ timeout: 30_000 });
  const rows = await panel
    .locator('.mt-colloc-table tbody tr')
    .evaluateAll((trs) => Object.fromEntries(trs.map((r) => [r.dataset.stat, [...r.cells].map((c) => c.textContent)])));
  const fit = model.collocation(sensor, reference, 'hour');
  const r3 = (v) => Math.round(v * 1000) / 1000;
  assert.equal(Number(rows['n (pairs)'][1]), fit.n);
  assert.ok(near(Number.parseFloat(rows.Slope[1]), r3(fit.slope)), `slope ${rows.Slope[1]} vs ${fit.slope}`);
  assert.ok(near(Number.parseFloat(rows.Intercept[1]), r3(fit.intercept)));
  assert.ok(near(Number.parseFloat(rows['R²'][1]), r3(fit.r2)));
  assert.ok(near(Number.parseFloat(rows['RMSE (sensor − reference)'][1]), r3(fit.rmse)));
  assert.ok(near(Number.parseFloat(rows['Mean bias (sensor − reference)'][1]), r3(fit.meanBias)));
  for (const t of fit.targets) {
    const row = Object.entries(rows).find(([k]) => k.startsWith(t.name));
    assert.equal(row[1][4], t.met ? '✓ met' : '✗ not met', t.name); // Met (1-hour)
  }
  console.log(`      collocation ${sensor} vs ${reference}: n ${fit.n}, slope ${r3(fit.slope)}, R² ${r3(fit.r2)}`);
}
