import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { columnBars, decimatedIndices, distinctPixels } from '../../../../src/renderer/model/decimate';

// M4 (Jugel et al., "M4: A Visualization-Oriented Time Series Data Aggregation", PVLDB 7(10), 2014, §3): a line
// through each pixel column's first, last, smallest and largest point covers the same pixels as through all points.

/** A seeded walk with nulls (gaps), on irregular times. */
function walk(n: number, seed: number): { xs: number[]; ys: Array<number | null> } {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const xs: number[] = [];
  const ys: Array<number | null> = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    x += 1 + Math.floor(rnd() * 3);
    y += rnd() - 0.5;
    xs.push(x);
    ys.push(rnd() < 0.01 ? null : y);
  }
  return { xs, ys };
}

/** Per pixel column: [first, last, min, max] of the values, or null; and the columns' gap positions. */
function perColumn(
  xs: number[],
  ys: Array<number | null>,
  idx: ArrayLike<number>,
  lo: number,
  span: number,
  w: number,
) {
  const cols = new Map<number, number[]>();
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    const y = ys[i];
    if (y == null) continue;
    const c = Math.min(w - 1, Math.floor(((xs[i] - lo) / span) * w));
    const e = cols.get(c);
    if (!e) cols.set(c, [y, y, y, y]);
    else {
      e[1] = y;
      e[2] = Math.min(e[2], y);
      e[3] = Math.max(e[3], y);
    }
  }
  return cols;
}

/** The polyline's pieces between gaps, as [first index, last index] of the values drawn. */
function pieces(ys: Array<number | null>, idx: ArrayLike<number>): string {
  const out: string[] = [];
  let start = -1;
  let last = -1;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    if (ys[i] == null) {
      if (start >= 0) out.push(`${start}-${last}`);
      start = -1;
      continue;
    }
    if (start < 0) start = i;
    last = i;
  }
  if (start >= 0) out.push(`${start}-${last}`);
  return out.join(',');
}

describe('renderer chart decimation (per-pixel min/max, M4)', () => {
  const { xs, ys } = walk(50_000, 7);
  const range: [number, number] = [xs[0], xs[xs.length - 1]];
  const span = range[1] - range[0];
  const all = Array.from(xs, (_, i) => i);

  it('keeps each pixel column first, last, smallest and largest value, and far fewer points', () => {
    for (const w of [300, 1400]) {
      const idx = decimatedIndices(xs, ys, range, w);
      assert.ok(idx.length < xs.length / 5, `${idx.length} of ${xs.length} kept at ${w} px`);
      assert.deepEqual(perColumn(xs, ys, idx, range[0], span, w), perColumn(xs, ys, all, range[0], span, w));
    }
  });

  it('keeps the first and last points, and every gap as a gap (the same pieces between nulls)', () => {
    const idx = decimatedIndices(xs, ys, range, 500);
    assert.equal(idx[0], 0);
    assert.equal(idx[idx.length - 1], xs.length - 1);
    assert.equal(pieces(ys, idx), pieces(ys, all));
    assert.ok(pieces(ys, all).split(',').length > 100, 'the walk has gaps');
  });

  it('decimates only the indices asked for (the points in view), and keeps every point when few', () => {
    const idx = decimatedIndices(xs, ys, [xs[1000], xs[20_000]], 200, 1000, 20_000);
    assert.equal(idx[0], 1000);
    assert.equal(idx[idx.length - 1], 20_000);
    const few = decimatedIndices([1, 2, 3], [1, null, 3], [1, 3], 100);
    assert.deepEqual([...few], [0, 1, 2]);
  });

  it('gives the kept indices ascending, each once (the order the polyline is drawn in)', () => {
    for (const w of [37, 500, 1400]) {
      const idx = decimatedIndices(xs, ys, range, w);
      assert.ok(
        idx.every((i, k) => k === 0 || i > idx[k - 1]),
        `ascending at ${w} px`,
      );
    }
  });
});

describe('renderer chart QC-invalid marks (one per distinct pixel)', () => {
  // Two lines' flagged values on a 201 × 100 canvas: 1 px per x unit, 1 px per y unit (y down from 90).
  const xs = Array.from({ length: 400 }, (_, i) => i / 2);
  const toPixel = (x: number, y: number): [number, number] => [x, 90 - y];
  const a = xs.map((_, i) => (i % 3 === 0 ? (i % 50) + 0.2 : null));
  const b = xs.map((_, i) => (i % 5 === 0 ? (i % 50) - 0.3 : null));
  const key = (x: number, y: number) => `${Math.round(x)},${Math.round(y)}`;

  it('marks every flagged point of every line at its pixel, each pixel once', () => {
    const px = distinctPixels(xs, [a, b], [0, 199.5], toPixel, 201, 100);
    const drawn = new Set<string>();
    for (let k = 0; k < px.length; k += 2) {
      assert.ok(!drawn.has(key(px[k], px[k + 1])), `pixel ${key(px[k], px[k + 1])} twice`);
      drawn.add(key(px[k], px[k + 1]));
    }
    const points = [a, b].flatMap((ys) => xs.flatMap((x, i) => (ys[i] == null ? [] : [key(...toPixel(x, ys[i]!))])));
    for (const p of points) assert.ok(drawn.has(p), `flagged point at ${p} has no mark`);
    assert.equal(drawn.size, new Set(points).size);
    assert.ok(drawn.size < points.length, 'points sharing a pixel are marked once');
    // Line b's flagged points are marked too (not only the first line's at a time).
    assert.ok(drawn.has(key(...toPixel(xs[5], b[5]!))));
  });

  it('leaves out points off the canvas or outside the x range in view', () => {
    const px = distinctPixels(xs, [a], [10, 20], toPixel, 200, 100);
    for (let k = 0; k < px.length; k += 2) assert.ok(px[k] >= 10 && px[k] <= 20, `x ${px[k]} outside 10…20`);
    assert.equal(distinctPixels(xs, [a], [0, 199.5], (x, y) => [x + 500, y], 200, 100).length, 0);
  });
});

describe('renderer chart dense lines as per-column bars', () => {
  const { xs, ys } = walk(50_000, 11);
  const range: [number, number] = [xs[0], xs[xs.length - 1]];
  const span = range[1] - range[0];
  const columnAt = (x: number, w: number) => Math.min(w - 1, Math.floor(((x - range[0]) / span) * w));

  /** The bars by column (several in one column when a gap splits it): [low, high] each. */
  function barsByColumn(bars: number[]): Map<number, Array<[number, number]>> {
    const out = new Map<number, Array<[number, number]>>();
    for (let k = 0; k < bars.length; k += 3)
      out.set(bars[k], [...(out.get(bars[k]) ?? []), [bars[k + 1], bars[k + 2]]]);
    return out;
  }

  it('covers every segment of the polyline: within a column or to the next one by a bar there, further by a join', () => {
    for (const w of [300, 1400]) {
      const { bars, joins } = columnBars(xs, ys, range, w);
      const byColumn = barsByColumn(bars);
      const joined = new Set<string>();
      for (let k = 0; k < joins.length; k += 4)
        joined.add(`${joins[k]},${joins[k + 1]},${joins[k + 2]},${joins[k + 3]}`);
      let segments = 0;
      for (let i = 1; i < xs.length; i++) {
        const [y0, y1] = [ys[i - 1], ys[i]];
        if (y0 == null || y1 == null) continue;
        segments++;
        const [a, b] = [columnAt(xs[i - 1], w), columnAt(xs[i], w)];
        if (b - a > 1) {
          assert.ok(
            joined.has(`${xs[i - 1]},${y0},${xs[i]},${y1}`),
            `segment ${i - 1}–${i} (columns ${a}–${b}) joined`,
          );
          continue;
        }
        const covering = (byColumn.get(b) ?? []).some(([lo, hi]) => lo <= Math.min(y0, y1) && hi >= Math.max(y0, y1));
        assert.ok(covering, `segment ${i - 1}–${i} in column ${b} within a bar at ${w} px`);
      }
      // One bar a column, and one more for each gap splitting a column: far fewer than the segments.
      const gaps = ys.filter((y) => y == null).length;
      assert.ok(bars.length / 3 <= w + gaps, `${bars.length / 3} bars for ${segments} segments on ${w} columns`);
      assert.ok(bars.length / 3 < segments / 20);
    }
  });

  it('reaches no further than the polyline: each bar spans the values of its column and the previous last one', () => {
    const w = 500;
    const { bars } = columnBars(xs, ys, range, w);
    for (let k = 0; k < bars.length; k += 3) {
      const [c, lo, hi] = [bars[k], bars[k + 1], bars[k + 2]];
      // The values the polyline passes through in column c: its points there, and the last point before when it
      // lies in column c - 1 with no gap between.
      const values: number[] = [];
      for (let i = 0; i < xs.length; i++) {
        const y = ys[i];
        const prev = i + 1 < xs.length ? ys[i + 1] : null;
        if (y == null) continue;
        const at = columnAt(xs[i], w);
        if (at === c || (at === c - 1 && prev != null && i + 1 < xs.length && columnAt(xs[i + 1], w) === c))
          values.push(y);
      }
      assert.ok(lo >= Math.min(...values) && hi <= Math.max(...values), `bar ${c} [${lo}, ${hi}] within its values`);
    }
  });

  it('breaks at a gap: no bar reaches across a null, no join spans one', () => {
    // Column 0: 1, 5; a null; column 1: 2, 3 (no reach back to 5); column 3: 4 (joined from 3: two columns on).
    const x = [0, 0.1, 0.2, 1, 1.1, 3];
    const y = [1, 5, null, 2, 3, 4];
    assert.deepEqual(columnBars(x, y, [0, 4], 4), { bars: [0, 1, 5, 1, 2, 3], joins: [1.1, 3, 3, 4] });
    // Without the null, column 1's bar reaches the last value of column 0.
    assert.deepEqual(columnBars([0, 0.1, 1, 1.1], [1, 5, 2, 3], [0, 4], 4).bars, [0, 1, 5, 1, 2, 5]);
  });

  it('joins the points off the range in view, and draws no bar outside it', () => {
    const { bars, joins } = columnBars([-5, 0, 0.5, 1, 9], [1, 2, 3, 4, 5], [0, 4], 4);
    assert.deepEqual(bars, [0, 2, 3, 1, 3, 4]);
    assert.deepEqual(joins, [-5, 1, 0, 2, 1, 4, 9, 5]);
  });
});

describe('renderer chart decimation of typed lines (NaN where a line has no value)', () => {
  const { xs, ys } = walk(20_000, 5);
  const typed = Float64Array.from(ys, (y) => (y == null ? Number.NaN : y));
  const range: [number, number] = [xs[0], xs[xs.length - 1]];

  it('decimates, bars and marks a typed line as the same line with nulls', () => {
    for (const w of [200, 900]) {
      assert.deepEqual(decimatedIndices(xs, typed, range, w), decimatedIndices(xs, ys, range, w));
      assert.deepEqual(columnBars(xs, typed, range, w), columnBars(xs, ys, range, w));
    }
    const toPixel = (x: number, y: number): [number, number] => [(x - range[0]) / 50, 100 - y];
    assert.deepEqual(
      distinctPixels(xs, [typed], range, toPixel, 1000, 300),
      distinctPixels(xs, [ys], range, toPixel, 1000, 300),
    );
    assert.ok(ys.includes(null), 'the walk has gaps');
  });
});
