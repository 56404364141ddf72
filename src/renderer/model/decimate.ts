// Per-pixel min/max decimation of the chart's lines, for drawing only (M4: Jugel, Jerzak, Hackenbroich, Markl,
// "M4: A Visualization-Oriented Time Series Data Aggregation", PVLDB 7(10), 2014): in each pixel column a line
// drawn through its first, last, smallest and largest value covers the same pixels as drawn through all of them.
// Hover values, QC-invalid marks and exports keep reading the real rows.

import { isNone } from './chart-series';

/** Which pixel column (0 … columns-1) an x falls in; -1 left of the range, `columns` right of it. */
function columnOf(x: number, lo: number, span: number, columns: number): number {
  if (x < lo) return -1;
  const c = Math.floor(((x - lo) / span) * columns);
  return c >= columns ? (x > lo + span ? columns : columns - 1) : c;
}

/** Writes a pixel column's run (first, smallest, largest, last point: indices) to `out` at `n`, ascending, once each. */
function emitRun(out: Uint32Array, n: number, first: number, minAt: number, maxAt: number, last: number): number {
  const a = Math.min(minAt, maxAt);
  const b = Math.max(minAt, maxAt);
  let k = n;
  out[k++] = first;
  if (a !== first) out[k++] = a;
  if (b !== a) out[k++] = b;
  if (last !== b) out[k++] = last;
  return k;
}

/**
 * The indices of `xs` (ascending), from `from` to `to`, to draw one line `ys` (aligned on `xs`, null or NaN where it
 * has no value) through so that it covers the same pixels as through every point, on `columns` pixel columns over
 * `range`: per column, each run of values's first, last, smallest and largest point, and the first null of each
 * run of nulls (a gap stays a gap). Points outside the range keep their own (columns -1 and `columns`).
 */
export function decimatedIndices(
  xs: ArrayLike<number>,
  ys: ArrayLike<number | null | undefined>,
  range: readonly [number, number],
  columns: number,
  from = 0,
  to = xs.length - 1,
): Uint32Array {
  const span = range[1] - range[0];
  if (to - from + 1 <= 4 * columns || !(span > 0) || columns < 1)
    return Uint32Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const out = new Uint32Array(to - from + 1);
  const lo = range[0];
  let n = 0;
  let column = Number.NaN;
  let first = -1;
  let minAt = -1;
  let maxAt = -1;
  let last = -1;
  let low = 0;
  let high = 0;
  let previousEmpty = false;
  for (let i = from; i <= to; i++) {
    const c = columnOf(xs[i], lo, span, columns);
    if (c !== column) {
      if (last >= 0) n = emitRun(out, n, first, minAt, maxAt, last);
      last = -1;
      column = c;
      previousEmpty = false;
    }
    const y = ys[i];
    if (isNone(y)) {
      if (last >= 0) n = emitRun(out, n, first, minAt, maxAt, last);
      last = -1;
      if (!previousEmpty) out[n++] = i;
      previousEmpty = true;
      continue;
    }
    if (last < 0) {
      first = minAt = maxAt = i;
      low = high = y;
    } else if (y < low) {
      low = y;
      minAt = i;
    } else if (y > high) {
      high = y;
      maxAt = i;
    }
    last = i;
    previousEmpty = false;
  }
  if (last >= 0) n = emitRun(out, n, first, minAt, maxAt, last);
  return out.slice(0, n);
}

/**
 * A dense line (several points per pixel column) as per-column bars: each column's run of points covers, drawn as a
 * polyline, the column's span from its smallest to its largest value (its points lie within the one column), and
 * the segment from the last point of the column before it spans from that point's value to this column's first, in
 * the same column or the one before: so the bar of a column reaches the previous column's last value too (a gap, a
 * null, breaks the line as it does the polyline). Filling one narrow rectangle per bar paints the pixels stroking
 * the zigzag of every point paints, for a fraction of the rasterising. Points more than a column apart (or off the
 * range) are joined by a segment to stroke instead, as the polyline joins them.
 */
interface ColumnBars {
  /** Per bar: its pixel column (0 … columns-1), its lowest and highest value (triples). */
  bars: number[];
  /** Per join: x0, y0, x1, y1 in the data's units (quads). */
  joins: number[];
}

/** The bars and joins of line `ys` at `xs` (ascending), from `from` to `to`, on `columns` pixel columns over `range`. */
export function columnBars(
  xs: ArrayLike<number>,
  ys: ArrayLike<number | null | undefined>,
  range: readonly [number, number],
  columns: number,
  from = 0,
  to = xs.length - 1,
): ColumnBars {
  const span = range[1] - range[0];
  const bars: number[] = [];
  const joins: number[] = [];
  let column = Number.NaN;
  let low = 0;
  let high = 0;
  let count = 0; // the points (and the joined last point before) the current bar covers
  let last = -1; // the index of the last point since a gap (-1: none)
  const flush = () => {
    if (count >= 2 && column >= 0 && column < columns) bars.push(column, low, high);
    count = 0;
  };
  for (let i = from; i <= to; i++) {
    const y = ys[i];
    if (isNone(y)) {
      flush();
      column = Number.NaN;
      last = -1;
      continue;
    }
    const c = span > 0 ? columnOf(xs[i], range[0], span, columns) : 0;
    if (c === column) {
      if (y < low) low = y;
      else if (y > high) high = y;
      count++;
    } else {
      flush();
      low = high = y;
      count = 1;
      const prev = last >= 0 ? (ys[last] as number) : 0;
      if (last >= 0 && c === column + 1 && column >= 0 && c < columns) {
        low = Math.min(low, prev);
        high = Math.max(high, prev);
        count++;
      } else if (last >= 0) joins.push(xs[last], prev, xs[i], y);
      column = c;
    }
    last = i;
  }
  flush();
  return { bars, joins };
}

/**
 * The distinct device pixels (x, y pairs, rounded) of every line's values (null: none) at `xs` within `range`, in
 * the order first met: `toPixel` places a point on the canvas (`width` × `height`); one mark per pixel draws the same
 * as one per point, as every point lands on one of them. Points off the canvas are left out (nothing to draw there).
 */
export function distinctPixels(
  xs: ArrayLike<number>,
  lines: ReadonlyArray<ArrayLike<number | null | undefined>>,
  range: readonly [number, number],
  toPixel: (x: number, y: number) => [number, number],
  width: number,
  height: number,
): Float64Array {
  const seen = new Uint8Array(Math.max(0, width * height));
  const out: number[] = [];
  for (const ys of lines)
    for (let i = 0; i < xs.length; i++) {
      const y = ys[i];
      if (isNone(y) || xs[i] < range[0] || xs[i] > range[1]) continue;
      const [px, py] = toPixel(xs[i], y);
      const x = Math.round(px);
      const z = Math.round(py);
      if (!(x >= 0 && x < width && z >= 0 && z < height) || seen[z * width + x]) continue;
      seen[z * width + x] = 1;
      out.push(x, z);
    }
  return Float64Array.from(out);
}
