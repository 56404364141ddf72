import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { decimatedIndices } from '../../../../src/renderer/model/decimate';

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
});
