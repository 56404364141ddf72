import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseIsoMs } from '../../../../src/core/time/iso';
import { UTC, zoneOf } from '../../../../src/core/time/zone';
import {
  displayText,
  formatNumber,
  formatTime,
  timeAxisTitle,
  timeTickIncrements,
  timeTickLabels,
} from '../../../../src/renderer/model/format';
import {
  computeWindow,
  fittedViewportHeight,
  MAX_SCROLL_HEIGHT,
  poolSize,
} from '../../../../src/renderer/model/virtual-window';
import { syntheticTable } from '../../../support/synthetic-table';
import { withTimeZone } from '../../../support/time-zone';

describe('renderer virtual window', () => {
  it('draws the rows under the viewport plus overscan, positioned at their offset', () => {
    const w = computeWindow({ scrollTop: 2200, viewportHeight: 220, rowHeight: 22, rowCount: 1000, overscan: 5 });
    assert.deepEqual(w, { first: 95, count: 21, offsetTop: 95 * 22, totalHeight: 22_000 });
  });

  it('caps the scroll height for a million rows and still reaches the last row at the bottom', () => {
    const rowCount = 1_000_000;
    const viewportHeight = 374;
    const top = computeWindow({ scrollTop: 0, viewportHeight, rowHeight: 22, rowCount });
    assert.equal(top.first, 0);
    assert.equal(top.totalHeight, MAX_SCROLL_HEIGHT);
    const bottom = computeWindow({ scrollTop: MAX_SCROLL_HEIGHT, viewportHeight, rowHeight: 22, rowCount });
    assert.equal(bottom.first + bottom.count, rowCount);
    // The last row lies inside the viewport.
    const lastRowTop = bottom.offsetTop + (bottom.count - 1) * 22;
    const scrollTop = MAX_SCROLL_HEIGHT - viewportHeight;
    assert.ok(lastRowTop >= scrollTop && lastRowTop + 22 <= scrollTop + viewportHeight);
  });

  it('never draws more rows than the pool holds, for any scroll position and row count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 200_000_000 }),
        fc.integer({ min: 22, max: 2000 }),
        (rowCount, scrollTop, viewportHeight) => {
          const w = computeWindow({ scrollTop, viewportHeight, rowHeight: 22, rowCount });
          assert.ok(w.count <= poolSize(viewportHeight, 22));
          assert.ok(w.first >= 0 && w.first + w.count <= rowCount);
          assert.ok(w.totalHeight <= MAX_SCROLL_HEIGHT);
        },
      ),
    );
  });

  it('fits a short table whole, its horizontal scrollbar counted, so it never scrolls (the wheel goes to the notebook)', () => {
    // 3 rows under a 44 px header: 110 px of content; a wide table's horizontal scrollbar (15 px in chromium)
    // takes its height from the box, so the box must be 125 px or the rows scroll by 15 px and catch the wheel.
    assert.equal(fittedViewportHeight(44, 3, 22, 0, 420), 110);
    assert.equal(fittedViewportHeight(44, 3, 22, 15, 420), 125);
    // No rows: one empty row's height; many rows: the maximum (they scroll, as they should).
    assert.equal(fittedViewportHeight(44, 0, 22, 0, 420), 66);
    assert.equal(fittedViewportHeight(44, 1000, 22, 15, 420), 420);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 30 }), (rows, chrome) => {
        const h = fittedViewportHeight(44, rows, 22, chrome, 420);
        // Whenever it is below the maximum, the header, every row and the scrollbar fit.
        if (h < 420) assert.ok(h - chrome >= 44 + Math.max(1, rows) * 22);
      }),
    );
  });
});

describe('renderer formatting', () => {
  it('keeps integers and short fractions exact and shortens long fractions for reading', () => {
    assert.equal(formatNumber(42), '42');
    assert.equal(formatNumber(-122.3), '-122.3');
    assert.equal(formatNumber(1 / 3), '0.333333');
    assert.equal(formatNumber(Number.NaN), '');
    assert.equal(formatNumber(1.5e-9), '1.5e-9');
  });

  it("shows times ISO-like and 24-hour in the zone, never the machine's; seconds and ms only when present", () => {
    const ms = Date.UTC(2026, 10, 21, 15, 4, 5);
    assert.equal(formatTime(ms, UTC), '2026-11-21 15:04:05');
    assert.equal(formatTime(ms + 250, UTC), '2026-11-21 15:04:05.250');
    assert.equal(formatTime(Date.UTC(2026, 10, 25, 21, 0), UTC), '2026-11-25 21:00');
    // America/Denver is UTC−7 in November (zoneinfo), whatever TZ the process runs in.
    const denver = zoneOf('America/Denver');
    const shown = withTimeZone('Asia/Kolkata', () => formatTime(Date.UTC(2026, 10, 25, 21, 0), denver));
    assert.equal(shown, '2026-11-25 14:00');
    // The 25-hour day: 01:30 happens twice (07:30Z MDT, 08:30Z MST), both read 01:30.
    assert.equal(formatTime(Date.UTC(2026, 10, 1, 7, 30), denver), '2026-11-01 01:30');
    assert.equal(formatTime(Date.UTC(2026, 10, 1, 8, 30), denver), '2026-11-01 01:30');
    assert.equal(formatTime(Number.NaN, UTC), '');
    assert.equal(formatTime(1e20, UTC), '');
  });

  it('names the zone once: axis titles say what the times mean ("hour starting") and the zone', () => {
    assert.equal(timeAxisTitle('hour', zoneOf('America/Denver')), 'hour starting (America/Denver)');
    assert.equal(timeAxisTitle('day', UTC), 'day starting (UTC)');
    assert.equal(timeAxisTitle('minute', UTC), 'time (UTC)');
  });

  it('labels chart ticks in the one format: 24-hour times, the date where it changes, days alone', () => {
    const denver = zoneOf('America/Denver');
    const s = (iso: string) => (parseIsoMs(iso) as number) / 1000;
    // Ticks every 6 hours across local midnight in Denver (UTC−7): 18:00, 00:00 (a new date), 06:00.
    const ticks = [s('2026-11-26T01:00Z'), s('2026-11-26T07:00Z'), s('2026-11-26T13:00Z')];
    assert.deepEqual(timeTickLabels(ticks, 6 * 3600, denver), ['18:00\n2026-11-25', '00:00\n2026-11-26', '06:00']);
    assert.deepEqual(timeTickLabels([s('2026-11-25T07:00Z')], 86_400, denver), ['2026-11-25']);
    assert.deepEqual(timeTickLabels([s('2026-11-25T07:00:30Z')], 30, denver), ['00:00:30\n2026-11-25']);
    assert.deepEqual(timeTickLabels([s('2026-11-25T07:00Z')], 30, denver), ['00:00:00\n2026-11-25']);
  });

  it('ticks the time axis no finer than the data: daily means by days (dates alone), hourly by hours', () => {
    // uPlot's increments (seconds, its genTimeStuffs ladder) from the period up.
    const daily = timeTickIncrements(86_400);
    assert.deepEqual(daily.slice(0, 4), [86_400, 2 * 86_400, 3 * 86_400, 4 * 86_400]);
    assert.ok(!daily.includes(3 * 3600), 'no 3-hour ticks for daily means');
    assert.deepEqual(timeTickIncrements(3600).slice(0, 3), [3600, 7200, 10_800]);
    assert.equal(timeTickIncrements(60)[0], 60);
    assert.equal(timeTickIncrements(60).length, timeTickIncrements(1).length - 5);
    // A day's ticks are labelled with the date alone (timeTickLabels, at increments of a day or more).
    const s = (iso: string) => (parseIsoMs(iso) as number) / 1000;
    assert.deepEqual(timeTickLabels([s('2026-11-25T00:00Z')], daily[0], UTC), ['2026-11-25']);
  });

  it('returns data values verbatim as text (the DOM sets them with textContent)', () => {
    const t = syntheticTable(10);
    assert.equal(displayText(t.columns[0], 3, UTC), '<img src=x onerror=alert(1)>');
  });
});
