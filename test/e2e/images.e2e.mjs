// Images of a view in the browser workbench: a week of hourly PM2.5 for 3 datasources from the built-in Local
// emulator, its Chart saved as SVG and as PNG through "Save image…" (the host's save dialog, the one writer), and
// copied as an image. The SVG must parse strictly (sax) and carry the title, the unit, a legend entry per
// datasource and the data's time range; the PNG must have PNG's signature and 2× the SVG's size (its IHDR).
// The PNG is kept in .artifacts/screenshots/images-chart.png to be looked at.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import sax from 'sax';
import {
  answer,
  answerFileDialog,
  e2eEnv,
  eventually,
  frameWith,
  openNotebook,
  revealInNotebook,
  runAll,
  runCommand,
  SHOTS,
  screenshot,
  tableWithCount,
  useWorkbench,
  writeOneCellNotebook,
} from './workbench.mjs';

const CELL = [
  'report datasource-measurements',
  'datasourceIds: DCZZDK8X, D789SKH9, D26E6AK4',
  'outputFrequency: hour',
  'startTime: 2026-10-01',
  'endTime: 2026-10-08',
  'metricSelect: only pm2_5ConcMass1HourMean + no2Conc1HourMean',
];
const ROWS = '504 rows';

/** The SVG's root attributes and every text (element content), parsed strictly: throws when not well-formed. */
function parseSvg(text) {
  const parser = sax.parser(true);
  const out = { root: undefined, texts: [], elements: [], tags: [] };
  parser.onerror = (e) => {
    throw e;
  };
  parser.onopentag = (tag) => {
    out.root ??= tag;
    out.elements.push(tag.name);
    out.tags.push(tag);
  };
  parser.ontext = (t) => out.texts.push(t);
  parser.write(text).close();
  return out;
}

/** A PNG's width and height from its IHDR chunk (PNG spec §11.2.2), after checking its signature (§5.2). */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function reportTable(page) {
  return tableWithCount(page, ROWS, 600);
}

/** Clicks one of Save image…'s items and answers the save dialog with `target`. */
async function saveImage(page, table, item, target) {
  fs.rmSync(target, { force: true });
  await table.locator('.mt-image-menu').dispatchEvent('click');
  await table.locator(`.mt-image-actions .${item}`).dispatchEvent('click');
  await answerFileDialog(page, target);
  await eventually(async () => fs.existsSync(target), `the saved ${path.basename(target)}`);
  const status = table.locator('.mt-toolbar [role=status]').first();
  await eventually(async () => /Saved the image to/.test(await status.textContent()), 'the saved status', 50);
  return fs.readFileSync(target);
}

/**
 * The Chart with NO2 added under PM2.5 ("and": a second panel) and daily means: its saved SVG has both panels with
 * their units and 7 daily points a line, and its PNG is kept (images-chart-stacked.png) to be looked at.
 */
async function stackedChartImage(page, table, workspace) {
  await table.locator('.mt-metric-extra-0').selectOption({ label: 'no2Conc1HourMean.value [ppb]' });
  await table.locator('.mt-resample').selectOption('day');
  await eventually(async () => (await table.locator('.mt-panel-plot canvas').count()) > 0, 'the NO2 panel', 50);
  const text = (await saveImage(page, table, 'mt-image-svg', path.join(workspace, 'stacked.svg'))).toString('utf8');
  const svg = parseSvg(text);
  const texts = svg.texts.map((t) => t.trim());
  for (const t of [
    'pm2_5ConcMass1HourMean.value [µg/m³]',
    'no2Conc1HourMean.value [ppb]',
    'pm2_5ConcMass1HourMean.value, no2Conc1HourMean.value (daily means)',
    'day starting (UTC), data',
  ])
    assert.ok(texts.includes(t), `${t} in ${texts.join(' | ')}`);
  const points = svg.tags.filter((t) => t.name === 'path').map((t) => (t.attributes.d.match(/[ML]/g) ?? []).length);
  // 2026-10-01 to 2026-10-08 (end excluded) in UTC: 7 days; PM2.5 of 3 datasources, NO2 of the 2 that measure it.
  assert.deepEqual(points, Array(5).fill(7), 'a daily mean per day, each line of each panel');
  const png = await saveImage(page, table, 'mt-image-png', path.join(workspace, 'stacked.png'));
  assert.deepEqual(pngSize(png), {
    width: 2 * Number(svg.root.attributes.width),
    height: 2 * Number(svg.root.attributes.height),
  });
  fs.copyFileSync(path.join(workspace, 'stacked.png'), path.join(SHOTS, 'images-chart-stacked.png'));
  console.log(`      stacked: ${path.join(SHOTS, 'images-chart-stacked.png')}`);
}

describe('e2e: images of a view (Save image… PNG, SVG, Copy image)', function () {
  this.timeout(600_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    await writeOneCellNotebook(page, 'images.measnb', CELL);
  });

  it('saves the Chart as SVG and PNG (the same drawing, 2× pixels) and copies it', async () => {
    await openNotebook(page, 'images.measnb');
    await runAll(page);
    const table = await reportTable(page);
    await revealInNotebook(page, table);
    assert.equal(await table.locator('.mt-image-bar').isHidden(), true, 'no image control on the Table tab');
    await table.locator('.mt-tabs .mt-view-chart').dispatchEvent('click');
    await table.locator('.mt-chart canvas').first().waitFor({ timeout: 30_000 });
    // The result has NO2 (first in its columns) and PM2.5: the chart on PM2.5, NO2 is added under it below.
    await table.locator('.mt-chart .mt-metric').first().selectOption({ label: 'pm2_5ConcMass1HourMean.value [µg/m³]' });
    console.log(`      screenshot: ${await screenshot(page, 'images-chart-view')}`);

    const { workspace } = e2eEnv();
    const svgText = (await saveImage(page, table, 'mt-image-svg', path.join(workspace, 'chart.svg'))).toString('utf8');
    const svg = parseSvg(svgText);
    assert.equal(svg.root.name, 'svg');
    assert.ok(!svg.elements.includes('script'), 'no script');
    const texts = svg.texts.map((t) => t.trim());
    assert.ok(texts.includes('pm2_5ConcMass1HourMean.value'), 'the title names the metric');
    assert.ok(texts.includes('µg/m³'), 'the unit');
    assert.ok(texts.includes('2026-10-01 00:00 – 2026-10-07 23:00'), `the time range in ${texts.join(' | ')}`);
    assert.ok(texts.includes('hour starting (UTC), data'), 'the zone named once, on the time axis');
    for (const id of ['DCZZDK8X', 'D789SKH9', 'D26E6AK4']) assert.ok(texts.includes(id), `${id} in the legend`);

    const png = await saveImage(page, table, 'mt-image-png', path.join(workspace, 'chart.png'));
    const size = pngSize(png);
    assert.deepEqual(size, {
      width: 2 * Number(svg.root.attributes.width),
      height: 2 * Number(svg.root.attributes.height),
    });
    fs.mkdirSync(SHOTS, { recursive: true });
    fs.copyFileSync(path.join(workspace, 'chart.png'), path.join(SHOTS, 'images-chart.png'));
    console.log(`      png: ${size.width}×${size.height}, ${path.join(SHOTS, 'images-chart.png')}`);

    // The Calendar, the Trend, the Profiles, the Collocation and the Map draw theirs: SVG that parses, PNG at 2×; kept to be looked at.
    for (const [view, expect] of [
      ['calendar', ['October 2026', '2026-10-01 – 2026-10-07 (days in UTC)']],
      ['trend', ['needs at least 12 monthly means']],
      ['profiles', ['Hour of the week (Monday 00:00 first)', '2026-10-01 00:00 – 2026-10-07 23:00 UTC']],
      [
        'collocation',
        ['Sensor vs reference, 24-hour averages (n = 7)', 'pm2_5ConcMass1HourMean.value [µg/m³]', '1:1', 'fit y = '],
      ],
      // The Map: its markers' categories in letters, the datasources' names, towns, the scale bar, the key.
      [
        'map',
        [
          'Map of 3 datasources',
          'data 2026-10-01 00:00 – 2026-10-07 23:00 UTC',
          'Unhealthy for Sensitive Groups',
          ' km',
        ],
      ],
    ]) {
      await table.locator(`.mt-tabs .mt-view-${view}`).dispatchEvent('click');
      await eventually(async () => !(await table.locator('.mt-image-bar').isHidden()), `${view}: Save image…`, 50);
      const text = (await saveImage(page, table, 'mt-image-svg', path.join(workspace, `${view}.svg`))).toString('utf8');
      const parsed = parseSvg(text).texts.map((t) => t.trim());
      for (const e of expect)
        assert.ok(
          parsed.some((t) => t.includes(e)),
          `${view}: ${e} in ${parsed.join(' | ')}`,
        );
      const viewPng = await saveImage(page, table, 'mt-image-png', path.join(workspace, `${view}.png`));
      const root = parseSvg(text).root.attributes;
      assert.deepEqual(pngSize(viewPng), { width: 2 * Number(root.width), height: 2 * Number(root.height) });
      fs.copyFileSync(path.join(workspace, `${view}.png`), path.join(SHOTS, `images-${view}.png`));
      console.log(`      ${view}: ${path.join(SHOTS, `images-${view}.png`)}`);
    }
    // Summary is a table: its rows are saved as CSV by its own table, no image offered.
    await table.locator('.mt-tabs .mt-view-summary').dispatchEvent('click');
    await eventually(async () => await table.locator('.mt-image-bar').isHidden(), 'no Save image… on Summary', 50);
    await table.locator('.mt-tabs .mt-view-chart').dispatchEvent('click');

    // Copy image: the clipboard takes it, or the status says it refused and the PNG is offered to save.
    const status = table.locator('.mt-toolbar [role=status]').first();
    await status.evaluate((el) => {
      el.textContent = '';
    });
    await table.locator('.mt-image-menu').dispatchEvent('click');
    await table.locator('.mt-image-actions .mt-image-copy').dispatchEvent('click');
    const said = await eventually(async () => {
      const t = await status.textContent();
      return /Copied the image|clipboard refused/.test(t) ? t : undefined;
    }, 'the copy status');
    console.log(`      copy: ${said}`);
    if (/refused/.test(said)) {
      const copyTarget = path.join(workspace, 'copy.png');
      await answerFileDialog(page, copyTarget);
      await eventually(async () => fs.existsSync(copyTarget), 'the PNG saved instead of copied');
      assert.deepEqual(pngSize(fs.readFileSync(copyTarget)), size);
    }
    await stackedChartImage(page, table, workspace);
  });
  it('a table panel (Run Recent Query) saves its Chart as PNG too: its page allows the data: image it rasterises', async () => {
    await runCommand(page, 'Measurements: Run Recent Query', { timeoutMs: 90_000 });
    await answer(page, 'All datasources', { expect: 'Datasources', keys: ['ArrowDown', 'Enter'] });
    await answer(page, 'hour', { expect: 'outputFrequency' });
    await answer(page, 'csv-wide', { expect: 'format' });
    const frame = await frameWith(page, '.measnb-table.mt-fill .mt-count', 'the table panel');
    const table = frame.locator('.measnb-table.mt-fill').first();
    await table.locator('.mt-view-chart').first().dispatchEvent('click');
    await table.locator('.mt-chart canvas').first().waitFor({ timeout: 30_000 });
    const target = path.join(e2eEnv().workspace, 'panel-chart.png');
    const size = pngSize(await saveImage(page, table, 'mt-image-png', target));
    console.log(`      panel png: ${size.width}×${size.height}`);
    assert.ok(size.width >= 1000 && size.height >= 400, 'a 2× drawing');
  });
});
