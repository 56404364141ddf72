// Per-pixel min/max decimation of the chart's lines, for drawing only (M4: Jugel, Jerzak, Hackenbroich, Markl,
// "M4: A Visualization-Oriented Time Series Data Aggregation", PVLDB 7(10), 2014): in each pixel column a line
// drawn through its first, last, smallest and largest value covers the same pixels as drawn through all of them.
// Hover values, QC-invalid marks and exports keep reading the real rows.

/** Which pixel column (0 … columns-1) an x falls in; -1 left of the range, `columns` right of it. */
function columnOf(x: number, lo: number, span: number, columns: number): number {
  if (x < lo) return -1;
  const c = Math.floor(((x - lo) / span) * columns);
  return c >= columns ? (x > lo + span ? columns : columns - 1) : c;
}

/**
 * Marks in `keep` the points one line needs: per pixel column, of each run of values the first, last, smallest and
 * largest, and the first empty slot (null) of each run of them, so a gap stays a gap.
 */
function keepLine(
  xs: ArrayLike<number>,
  ys: ArrayLike<number | null | undefined>,
  keep: Uint8Array,
  from: number,
  to: number,
  lo: number,
  span: number,
  columns: number,
): void {
  let column = Number.NaN;
  let minAt = -1;
  let maxAt = -1;
  let last = -1;
  let previousEmpty = false;
  const flush = () => {
    if (last < 0) return;
    keep[minAt - from] = 1;
    keep[maxAt - from] = 1;
    keep[last - from] = 1;
    last = -1;
  };
  for (let i = from; i <= to; i++) {
    const c = columnOf(xs[i], lo, span, columns);
    if (c !== column) {
      flush();
      column = c;
      previousEmpty = false;
    }
    const y = ys[i];
    if (y == null) {
      flush();
      if (!previousEmpty) keep[i - from] = 1;
      previousEmpty = true;
      continue;
    }
    if (last < 0) {
      keep[i - from] = 1; // the run's first point
      minAt = i;
      maxAt = i;
    } else {
      if (y < (ys[minAt] as number)) minAt = i;
      if (y > (ys[maxAt] as number)) maxAt = i;
    }
    last = i;
    previousEmpty = false;
  }
  flush();
}

/**
 * The indices of `xs` (ascending), from `from` to `to`, to draw one line `ys` (aligned on `xs`, null where it has
 * no value) through so that it covers the same pixels as through every point, on `columns` pixel columns over
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
  const keep = new Uint8Array(to - from + 1);
  keepLine(xs, ys, keep, from, to, range[0], span, columns);
  let count = 0;
  for (let i = 0; i < keep.length; i++) count += keep[i];
  const out = new Uint32Array(count);
  for (let i = 0, k = 0; i < keep.length; i++) if (keep[i]) out[k++] = from + i;
  return out;
}
