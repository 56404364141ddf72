// Column insights (the toolbar's Insights: a strip under the headers, like Data Wrangler's Quick Insights) on a
// real notebook output in the browser workbench: a day of hourly PM2.5 NowCast of three nodes with their QC from
// the built-in Local emulator (72 rows; Node 3 reads near 70 µg/m³, the others under 15). Insights on, a top value
// of datasourceId clicked: the column's filter box says =<value> and the row count is that value's count; a
// histogram bin of the NowCast clicked: its box says the bin's range and the count is the bin's. Dark, light and
// High Contrast. Screenshots: .artifacts/screenshots/insights-<what>-<theme>.png (the output, clipped).
import assert from 'node:assert/strict';
import {
  eventually,
  openNotebook,
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
  'metricSelect: only pm2_5ConcMassNowcast',
  'startTime: -24h',
  'qcAssessment: true',
  'qcFlags: true',
  'format: csv-wide',
];

/** The column index of the header whose (screen reader) name is `name`. */
async function columnOf(table, name) {
  const col = await table
    .locator('.mt-hrow .mt-hcell')
    .evaluateAll((cells, n) => cells.find((c) => c.querySelector('.mt-hname')?.textContent === n)?.dataset.col, name);
  assert.ok(col !== undefined, `a column ${name}`);
  return Number(col);
}

/** "… : 24 rows (33 %)" → 24. */
const rowsOf = (label) => Number(/: ([\d,]+) rows \(/.exec(label)[1].replace(/,/g, ''));

/** Clicks a strip button and checks the column's filter box and the row count follow it. */
async function clickAndCheck(table, button, col, total) {
  const [label, filter] = [await button.getAttribute('aria-label'), await button.getAttribute('data-filter')];
  await button.dispatchEvent('click');
  const box = table.locator(`.mt-frow input[data-col="${col}"]`);
  await eventually(async () => (await box.inputValue()) === filter, `the filter box showing ${filter}`, 50);
  const n = rowsOf(label);
  assert.equal(await table.locator('.mt-count').first().textContent(), `${n} of ${total} rows`, label);
  assert.equal(await button.getAttribute('aria-pressed'), 'true', 'the bin or value clicked is marked');
  return { label, filter, n };
}

describe('e2e: column insights in the workbench', function () {
  this.timeout(900_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    await writeOneCellNotebook(page, 'insights.measnb', CELL);
  });

  it('shows histograms and top values under the headers; a click on a value or a bin filters to its rows', async () => {
    await openNotebook(page, 'insights.measnb');
    await runAll(page);
    const { table, total } = await outputTable(page);
    assert.equal(total, 72, 'a day of hours of three nodes');
    await table.locator('.mt-insights-toggle').dispatchEvent('click');
    const strip = table.locator('.mt-irow:not([hidden])');
    await strip.waitFor({ timeout: 10_000 });
    assert.equal(await table.locator('.mt-insights-toggle').getAttribute('aria-pressed'), 'true');

    // The columns out of view and the distinct counts of number and time columns follow the strip a frame later.
    await eventually(
      async () => (await strip.getAttribute('data-complete')) === 'true',
      'every column in the strip',
      50,
    );
    const ids = await columnOf(table, 'datasourceId');
    assert.equal(await strip.locator(`.mt-icell[data-col="${ids}"] .mt-idistinct`).textContent(), ' · 3 distinct');
    const time = await columnOf(table, 'startOfPeriod');
    assert.equal(await strip.locator(`.mt-icell[data-col="${time}"] .mt-idistinct`).textContent(), ' · 24 distinct');
    const values = strip.locator(`.mt-icell[data-col="${ids}"] .mt-ival`);
    assert.equal(await values.count(), 3, 'the three nodes as top values');
    const value = await clickAndCheck(table, values.first(), ids, total);
    assert.match(value.filter, /^=D[0-9A-Z]{7}$/);
    assert.equal(value.n, 24);
    console.log(`      ${await outputShot(page, table, 'insights-value-dark')}`);
    // Cleared in the frame without focusing it (a focused webview would take the theme picker's F1 later).
    await table.locator(`.mt-frow input[data-col="${ids}"]`).evaluate((input) => {
      input.value = '';
      input.dispatchEvent(new Event('input'));
    });
    assert.equal(await table.locator('.mt-count').first().textContent(), `${total} rows`);

    const nowcast = await columnOf(table, 'pm2_5ConcMassNowcast.value');
    const bars = strip.locator(`.mt-icell[data-col="${nowcast}"] .mt-ibar`);
    assert.ok((await bars.count()) >= 3, 'a histogram of the NowCast');
    const labels = await bars.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
    const missing = strip.locator(`.mt-icell[data-col="${nowcast}"] .mt-imissing`);
    const missingRows = (await missing.count())
      ? Number(/\((\d+) rows\)/.exec(await missing.getAttribute('aria-label'))[1])
      : 0;
    assert.equal(labels.reduce((s, l) => s + rowsOf(l), 0) + missingRows, total, 'every row in a bin or missing');
    const fullest = labels.map(rowsOf).reduce((best, n, i, all) => (n > all[best] ? i : best), 0);
    const bin = await clickAndCheck(table, bars.nth(fullest), nowcast, total);
    assert.match(bin.filter, /^-?[\d.]+\.\.<?-?[\d.]+$|^[<>]-?[\d.]+$/);
    console.log(`      ${await outputShot(page, table, 'insights-bin-dark')}`);

    for (const [label, name] of [
      ['Light Modern', 'light'],
      ['Dark High Contrast', 'hc'],
    ]) {
      await setColorTheme(page, label);
      await strip.waitFor({ timeout: 10_000 });
      console.log(`      ${await outputShot(page, table, `insights-bin-${name}`)}`);
    }
  });
});
