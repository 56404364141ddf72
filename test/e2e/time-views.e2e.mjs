// Calendar, Trend and Profiles (openair's calendarPlot, TheilSen and timeVariation) on a real notebook output in the
// browser workbench: a report cell of two years of hourly PM2.5 from the built-in Local emulator (3 datasources,
// 52,560 rows), each view opened in the dark and the light theme (Calendar and Trend in High Contrast too) and
// looked at. The Trend's numbers equal scipy's on the same report (python3: monthly means of the report's rows,
// scipy.stats.theilslopes and kendalltau(method='asymptotic'); the emulator's history is the same on every run).
// Screenshots: .artifacts/screenshots/time-views-<view>-<theme>.png (the output, clipped to the notebook).
import assert from 'node:assert/strict';
import {
  eventually,
  openNotebook,
  outputShot,
  revealInNotebook,
  runAll,
  setColorTheme as setTheme,
  tableWithCount,
  useWorkbench,
  writeOneCellNotebook,
} from './workbench.mjs';

const CELL = [
  'report datasource-measurements',
  'datasourceIds: DCZZDK8X, D789SKH9, D26E6AK4',
  'outputFrequency: hour',
  'startTime: 2024-11-01',
  'endTime: 2026-11-01',
  'metricSelect: only pm2_5ConcMass1HourMean',
];

/** The report's output table (its frame and locator), once drawn with all its rows. */
function reportTable(page) {
  return tableWithCount(page, '52,560 rows', 900);
}

/** Opens a view by its tab (dispatched in the frame: the cell list above the webview takes real pointer hits). */
async function openView(page, table, name) {
  await revealInNotebook(page, table);
  const button = table.locator(`.mt-tabs .mt-view-${name}`).first();
  await button.dispatchEvent('click');
  await eventually(async () => (await button.getAttribute('aria-selected')) === 'true', `the ${name} view open`, 50);
}

/** The output as the user sees it (workbench.mjs outputShot), as time-views-<name>.png. */
const shotOf = (page, locator, name) => outputShot(page, locator, `time-views-${name}`);

describe('e2e: Calendar, Trend and Profiles on two years of hourly PM2.5 (a report from the Local emulator)', function () {
  this.timeout(900_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    await writeOneCellNotebook(page, 'time-views.measnb', CELL);
  });

  it('Calendar colours each valid day with its category and letters; Trend matches scipy; Profiles draws four panels and a difference', async () => {
    await openNotebook(page, 'time-views.measnb');
    await runAll(page);
    const table = await reportTable(page);
    for (const theme of ['dark', 'light']) {
      if (theme === 'light') await setTheme(page, 'Light Modern');

      await openView(page, table, 'calendar');
      const calendar = table.locator('.mt-calendar');
      await calendar.locator('.mt-cal-month').first().waitFor({ timeout: 30_000 });
      assert.equal(await calendar.locator('.mt-cal-month').count(), 12, 'a year of month grids');
      assert.equal(await calendar.locator('.mt-cal-year option:checked').textContent(), '2026');
      // 2026-01-01 … 2026-10-31: 304 days, each with a valid mean, its category letters and a tooltip.
      const coloured = await calendar.locator('.mt-cal-day.mt-cal-aqi').count();
      assert.equal(coloured, 304, 'every day of the report in 2026 coloured');
      const letters = await calendar.locator('.mt-cal-day.mt-cal-aqi .mt-cal-cat').allTextContents();
      assert.ok(
        letters.every((l) => ['G', 'M', 'USG', 'U', 'VU', 'H'].includes(l)),
        letters.join(','),
      );
      assert.match(
        await calendar.locator('.mt-cal-day.mt-cal-aqi').first().getAttribute('title'),
        /^2026-01-01: daily mean \d+\.\d µg\/m³ over 24 hours, (Good|Moderate)/,
      );
      assert.match(await calendar.locator('.mt-cal-note').textContent(), /EPA 24-hour PM2\.5 breakpoints/);
      console.log(`      ${await shotOf(page, table, `calendar-${theme}`)}`);

      await openView(page, table, 'trend');
      const trend = table.locator('.mt-trend');
      await trend.locator('.mt-trend-stats').waitFor({ timeout: 30_000 });
      const stats = await trend.locator('.mt-trend-stats').textContent();
      // D26E6AK4 (the first by name): scipy.stats.theilslopes on its 24 monthly means: −0.06941868279568007
      // [−0.30543621700881285, 0.2161520737326946]; kendalltau(asymptotic) p 0.6198322828201616.
      assert.match(stats, /Slope -0\.0694 µg\/m³ per year, 95 % confidence interval -0\.305 to 0\.216 µg\/m³ per year/);
      assert.match(stats, /p = 0\.62 \(Mann–Kendall/);
      assert.match(stats, /24 monthly means, 2024-11 to 2026-10\./);
      assert.match(stats, /Short series \(24 months, fewer than 36\)/);
      assert.equal((await trend.locator('canvas').count()) > 0, true);
      console.log(`      ${await shotOf(page, table, `trend-${theme}`)}`);
      if (theme === 'dark') {
        await trend.locator('.mt-trend-deseason').dispatchEvent('click');
        await eventually(
          async () => /deseasonalised/.test(await trend.locator('.mt-trend-stats').textContent()),
          'the deseasonalised trend',
          50,
        );
        console.log(`      ${await shotOf(page, table, 'trend-deseasonalised-dark')}`);
        await trend.locator('.mt-trend-deseason').dispatchEvent('click');
      }

      await openView(page, table, 'profiles');
      const profiles = table.locator('.mt-profiles');
      await profiles.locator('.mt-weekday canvas').first().waitFor({ timeout: 30_000 });
      assert.equal(await profiles.locator('canvas').count(), 4, 'hour of the week, hour, month, weekday');
      assert.match(
        await profiles.locator('.mt-profiles-note').textContent(),
        /percentile bootstrap, 200 seeded resamples/,
      );
      console.log(`      ${await shotOf(page, table, `profiles-${theme}`)}`);
      if (theme === 'dark') {
        await profiles.locator('.mt-profile-compare').selectOption('datasources');
        await eventually(
          async () =>
            /D789SKH9 − D26E6AK4: over the [\d,]+ periods both have a value in/.test(
              await profiles.locator('.mt-profiles-note').textContent(),
            ),
          'the difference of two datasources',
          50,
        );
        console.log(`      ${await shotOf(page, table, 'profiles-difference-dark')}`);
        await profiles.locator('.mt-profile-compare').selectOption('each');
      }
    }
    // High Contrast: the category colours keep their letters and the cells their outline.
    await setTheme(page, 'Dark High Contrast');
    await eventually(async () => (await page.locator('.monaco-workbench.hc-black').count()) === 1, 'High Contrast', 50);
    await openView(page, table, 'calendar');
    const calendar = table.locator('.mt-calendar');
    await calendar.locator('.mt-cal-month').first().waitFor({ timeout: 30_000 });
    assert.equal(await calendar.locator('.mt-cal-day.mt-cal-aqi .mt-cal-cat').count(), 304);
    console.log(`      ${await shotOf(page, table, 'calendar-hc')}`);
    await openView(page, table, 'trend');
    await table.locator('.mt-trend .mt-trend-stats').waitFor({ timeout: 30_000 });
    console.log(`      ${await shotOf(page, table, 'trend-hc')}`);
  });
});
