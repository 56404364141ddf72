import assert from 'node:assert/strict';
import fc from 'fast-check';
import { displayText, formatNumber, formatTime } from '../../../../src/renderer/model/format';
import {
  computeWindow,
  fittedViewportHeight,
  MAX_SCROLL_HEIGHT,
  poolSize,
} from '../../../../src/renderer/model/virtual-window';
import { syntheticTable } from '../../../support/synthetic-table';

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

  it('shows times in UTC, or local with the offset; milliseconds only when present', () => {
    const ms = Date.UTC(2026, 10, 21, 15, 4, 5);
    assert.equal(formatTime(ms, 'utc'), '2026-11-21 15:04:05');
    assert.equal(formatTime(ms + 250, 'utc'), '2026-11-21 15:04:05.250');
    const d = new Date(ms);
    const off = -d.getTimezoneOffset();
    const sign = off < 0 ? '-' : '+';
    const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, '0');
    const mm = String(Math.abs(off) % 60).padStart(2, '0');
    assert.ok(formatTime(ms, 'local').endsWith(` ${sign}${hh}:${mm}`));
    assert.equal(formatTime(Number.NaN, 'utc'), '');
  });

  it('returns data values verbatim as text (the DOM sets them with textContent)', () => {
    const t = syntheticTable(10);
    assert.equal(displayText(t.columns[0], 3, 'utc'), '<img src=x onerror=alert(1)>');
  });
});
