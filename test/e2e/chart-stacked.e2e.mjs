// The Chart with several metrics at once on a real notebook output in the browser workbench: two days of hourly
// PM2.5 NowCast, NO2 (1-hour mean) and relative humidity of three nodes from the built-in Local emulator. "and"
// two metrics → three stacked panels, each titled with its metric and unit, each with its own metric's AQI
// bands (PM2.5 in µg/m³, NO2 in ppb; none for RH, which has no AQI scale), the cursor shared; left/right axes
// with one extra metric; resampled to daily means in the notebook's zone → fewer points, the time axis says
// "day starting". Dark and light. Screenshots: .artifacts/screenshots/chart-stacked-workbench-<theme>.png (the
// one for README), chart-two-axes-workbench-dark.png, chart-stacked-daily-workbench-<theme>.png.
import assert from 'node:assert/strict';
import {
  eventually,
  openNotebook,
  openView,
  outputShot,
  outputTable,
  runAll,
  setColorTheme,
  useWorkbench,
  writeOneCellNotebook,
} from './workbench.mjs';

const CELL = [
  'recent',
  'datasourceIds: DFV2F2UA, DKUHQDHC, D4UZJBAC',
  'outputFrequency: hour',
  'metricSelect: only pm2_5ConcMassNowcast + no2Conc1HourMean + relHumidAmbient1HourMean',
  'startTime: -2d',
  'format: csv-wide',
];

const PM = 'pm2_5ConcMassNowcast';
const NO2 = 'no2Conc1HourMean';
const RH = 'relHumidAmbient1HourMean';

/** Picks an option of a select in the output by the start of its text ('' picks "(none)"). */
async function choose(chart, selector, start) {
  const select = chart.locator(selector);
  const labels = await select.locator('option').allTextContents();
  const label = start ? labels.find((l) => l.startsWith(`${start} [`) || l === start) : '(none)';
  assert.ok(label, `${start} among ${labels.join(', ')}`);
  await select.selectOption({ label });
}

/** Sets the left/right axes toggle in the frame (the cell list above the webview takes real pointer hits). */
function twoAxes(chart, on) {
  return chart.locator('.mt-two-axes').evaluate((box, checked) => {
    box.checked = checked;
    box.dispatchEvent(new Event('change'));
  }, on);
}

/** The points the chart draws, from its note: "<n> points, …" (raw), "<n> values → <m> means, …" (resampled). */
async function pointsOf(chart) {
  const note = await chart.locator('.mt-chart-note').textContent();
  const [, n] = /^(?:[\d,]+ values → )?([\d,]+) (?:points|means),/.exec(note) ?? ['', 'NaN'];
  return Number(n.replace(/,/g, ''));
}

/** Each stacked panel: its title, its AQI legend's text ('' when none) and the share of its plot's canvas drawn on. */
function panels(chart) {
  return chart.locator('.mt-panel').evaluateAll((ps) =>
    ps.map((p) => {
      const canvas = p.querySelector('canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let drawn = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
      return {
        title: p.querySelector('.mt-panel-title')?.textContent ?? '',
        aqi: p.querySelector('.mt-aqi-legend')?.textContent ?? '',
        aqiUnits: [...p.querySelectorAll('.mt-aqi-legend .mt-legend-item')].map((i) => i.getAttribute('title')),
        drawn: drawn / (data.length / 4),
      };
    }),
  );
}

describe('e2e: the Chart with three metrics stacked, left/right axes and daily means in the workbench', function () {
  this.timeout(900_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    // Tall enough for the three panels in one picture.
    await page.setViewportSize({ width: 1400, height: 1300 });
    await writeOneCellNotebook(page, 'chart-stacked.measnb', CELL);
  });
  after(async () => {
    // The theme is the profile's, shared with the suites after this one: put it back.
    await setColorTheme(page, 'Dark Modern').catch(() => {});
  });

  it('"and" two metrics: three panels with their units and own AQI bands; left/right axes; daily means', async () => {
    await openNotebook(page, 'chart-stacked.measnb');
    await runAll(page);
    const { table, total } = await outputTable(page);
    assert.ok(total >= 3 * 48, `two days of hours of three nodes: ${total} rows`);
    await openView(page, table, 'chart');
    const chart = table.locator('.mt-chart');
    await choose(chart, '.mt-metric', PM);
    await choose(chart, '.mt-metric-extra-0', NO2);
    await choose(chart, '.mt-metric-extra-1', RH);
    await eventually(
      async () => (await chart.locator('.mt-panel canvas').count()) === 2,
      'two panels under the first',
      50,
    );
    const stacked = await panels(chart);
    assert.deepEqual(
      stacked.map((p) => p.title),
      [`${NO2} [ppb]`, `${RH} [%]`],
    );
    // The first panel's unit in its legend values, its AQI bands (PM2.5) in the chart's legend.
    assert.match(await chart.locator('.u-legend').first().textContent(), /µg\/m³/);
    assert.match(await chart.locator('.mt-chart-legend .mt-aqi-legend').textContent(), /Good/);
    // NO2 has EPA breakpoints of its own (ppb): its panel draws and names its bands; RH has none.
    assert.match(stacked[0].aqi, /US EPA AQI: Good.*Moderate/);
    assert.ok(
      stacked[0].aqiUnits.every((t) => / ppb$/.test(t)),
      stacked[0].aqiUnits.join(', '),
    );
    assert.equal(stacked[1].aqi, '', 'no AQI bands for relative humidity');
    assert.ok(stacked[0].drawn > 0.5, `the NO2 panel's plot filled by its bands: ${stacked[0].drawn}`);
    assert.ok(stacked[1].drawn < 0.3, `the RH panel's plot: lines and grid only: ${stacked[1].drawn}`);
    const raw = await pointsOf(chart);
    assert.ok(raw >= total * 0.9, `${raw} points of ${total} rows`);
    console.log(`      ${await outputShot(page, chart, 'chart-stacked-workbench-dark')}`);

    // One extra metric on a right axis, in the first panel.
    await choose(chart, '.mt-metric-extra-1', '');
    await twoAxes(chart, true);
    await eventually(async () => (await chart.locator('.mt-panel').count()) === 0, 'no panels under the first', 50);
    assert.match(await chart.locator('.u-legend').first().textContent(), new RegExp(` · ${NO2}`));
    console.log(`      ${await outputShot(page, chart, 'chart-two-axes-workbench-dark')}`);

    // Three panels again, resampled to daily means in the notebook's zone: fewer points, days on the axis.
    await twoAxes(chart, false);
    await choose(chart, '.mt-metric-extra-1', RH);
    await chart.locator('.mt-resample').selectOption('day');
    await eventually(
      async () => /daily means/.test(await chart.locator('.mt-chart-note').textContent()),
      'daily means',
      50,
    );
    const daily = await pointsOf(chart);
    assert.ok(daily > 0 && daily <= 3 * 3, `at most three days of three nodes: ${daily} points (raw: ${raw})`);
    assert.match(await chart.locator('.u-legend').first().textContent(), /day starting/);
    assert.equal(await chart.locator('.mt-panel canvas').count(), 2);
    console.log(`      ${await outputShot(page, chart, 'chart-stacked-daily-workbench-dark')}`);

    await setColorTheme(page, 'Light Modern');
    await chart.locator('.mt-panel canvas').first().waitFor({ timeout: 10_000 });
    console.log(`      ${await outputShot(page, chart, 'chart-stacked-daily-workbench-light')}`);
    await chart.locator('.mt-resample').selectOption('raw');
    await eventually(async () => (await pointsOf(chart)) === raw, 'the raw points again', 50);
    console.log(`      ${await outputShot(page, chart, 'chart-stacked-workbench-light')}`);
  });
});
