// Data for the chart view: one metric over time, one line per datasource, aligned on a shared time axis
// (uPlot's format: [xs, ...ys] with null where a datasource has no value at that time).
import { MAX_CHART_LINES } from '../../core/table/chart-columns';
import { type Column, isEmptyAt, isNumeric, type NumericColumn, numberAt, type Table } from '../../core/table/table';

export {
  chartGroupChoices,
  chartGroupColumn,
  chartMetricColumns,
  chartTimeColumn,
} from '../../core/table/chart-columns';

const MAX_SERIES = MAX_CHART_LINES;

/**
 * A line's values at the chart's times: null where it has none; or, typed (`buildChartLines`, what the view draws and
 * hovers), NaN where it has none: a Float64Array holds each value unboxed, where an array mixing numbers and nulls
 * boxes every non-integer value (8 lines × 125,000 values: a million allocations per panel, and their collection).
 */
export type LineValues = Array<number | null> | Float64Array;

/** No value at a slot: null, or NaN in typed values. */
export function isNone(v: number | null | undefined): v is null | undefined {
  return v == null || Number.isNaN(v);
}

export interface ChartData<V extends LineValues = Array<number | null>> {
  /** Seconds since the epoch (uPlot's unit), ascending. */
  xs: number[];
  series: Array<{ label: string; values: V }>;
  /** Groups beyond MAX_SERIES are left out, and the chart says so. */
  omittedSeries: number;
  points: number;
  /** Per drawn line, its QC-invalid values only (none elsewhere), when an `invalid` test was given. */
  invalid?: V[];
  /** QC-invalid values among the rows (drawn as marks, or left out when hidden). */
  invalidCount: number;
}

interface ChartQcOptions {
  /** Is the value in this table row QC-invalid? (None: no value is; no call per row.) */
  invalid?: (row: number) => boolean;
  /** Leave invalid values out of the lines (and of the marks). */
  hideInvalid: boolean;
  /**
   * Resampling (core/aq/resample's periodStarter): each time becomes its period's start, and a line's value at a
   * period is the mean of its values there (a mark shows the mean where any of them is QC-invalid).
   */
  periodStart?: (ms: number) => number;
}

/** Each row's line: index into the returned labels (distinct group labels), by dictionary code. */
function lineOfCode(group: Column | undefined): { labels: string[]; byCode: Int32Array } {
  if (!group || isNumeric(group)) return { labels: [''], byCode: new Int32Array(1) };
  const labels: string[] = [];
  const index = new Map<string, number>();
  const byCode = new Int32Array(group.dict.length + 1);
  for (let c = -1; c < group.dict.length; c++) {
    const d = c < 0 ? '(none)' : group.dict[c];
    const label = typeof d === 'string' ? d : d.join(',');
    let k = index.get(label);
    if (k === undefined) {
      k = labels.length;
      labels.push(label);
      index.set(label, k);
    }
    byCode[c + 1] = k;
  }
  return { labels, byCode };
}

/**
 * What every metric's lines share (computed once per draw, not once per panel): each row with a time, its time
 * slot (index into `xsMs`, the distinct times or period starts, ascending) and its line (index into `labels`).
 */
export interface ChartLayout {
  /** The lines' labels; with no "Lines by" column one line, named after its metric. */
  labels: string[];
  oneLine: boolean;
  /** Seconds-since-epoch × 1000 of each slot, ascending. */
  xsMs: Float64Array;
  /** The rows with a time, in the order given, and per such row its slot and its line. */
  rows: Uint32Array;
  slot: Int32Array;
  line: Int32Array;
}

/** The distinct times, ascending: a time-ordered result in one pass, any other order sorted first (typed, no boxing). */
function distinctTimes(times: Float64Array): Float64Array {
  let ordered = true;
  for (let i = 1; i < times.length && ordered; i++) ordered = times[i - 1] <= times[i];
  const sorted = ordered ? times : times.slice().sort();
  const out = new Float64Array(sorted.length);
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (n === 0 || sorted[i] !== out[n - 1]) out[n++] = sorted[i];
  return out.slice(0, n);
}

/** The index of `t` in `sorted` (ascending, holding it). */
function indexIn(sorted: Float64Array, t: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each time's slot in the sorted distinct times: the same slot or the next one looked at first, else searched. */
function slotsOf(times: Float64Array, xsMs: Float64Array): Int32Array {
  const slot = new Int32Array(times.length);
  let k = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (xsMs[k] !== t) k = xsMs[k + 1] === t ? k + 1 : indexIn(xsMs, t);
    slot[i] = k;
  }
  return slot;
}

/** The layout of `rows` by time (each time its period's start when resampled) and by the "Lines by" column. */
export function chartLayout(
  table: Table,
  rows: ArrayLike<number>,
  timeCol: number,
  groupCol: number,
  periodStart?: (ms: number) => number,
): ChartLayout {
  const time = table.columns[timeCol] as NumericColumn;
  const group: Column | undefined = groupCol >= 0 ? table.columns[groupCol] : undefined;
  const codes = group && !isNumeric(group) ? group.codes : undefined;
  const { labels, byCode } = lineOfCode(group);
  const kept = new Uint32Array(rows.length);
  const times = new Float64Array(rows.length);
  const line = new Int32Array(rows.length);
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const t = periodStart ? periodStart(numberAt(time, r)) : numberAt(time, r);
    if (Number.isNaN(t)) continue;
    kept[n] = r;
    times[n] = t;
    line[n] = codes ? byCode[codes[r] + 1] : 0;
    n++;
  }
  const xsMs = distinctTimes(times.subarray(0, n));
  const slot = slotsOf(times.subarray(0, n), xsMs);
  return { labels, oneLine: !codes, xsMs, rows: kept.subarray(0, n), slot, line: line.subarray(0, n) };
}

/** The drawn points of one metric: layout entries with a value (invalid ones left out when hidden). */
function keptPoints(layout: ChartLayout, metric: NumericColumn, qc?: ChartQcOptions) {
  const n = layout.rows.length;
  const entries = new Uint32Array(n);
  const invalid = new Uint8Array(n);
  const pointsPerLine = new Uint32Array(layout.labels.length);
  let points = 0;
  let invalidCount = 0;
  const test = qc?.invalid;
  for (let i = 0; i < n; i++) {
    const r = layout.rows[i];
    if (isEmptyAt(metric, r)) continue;
    const bad = test?.(r) === true;
    if (bad) {
      invalidCount++;
      if (qc?.hideInvalid) continue;
    }
    entries[points] = i;
    invalid[points] = bad ? 1 : 0;
    pointsPerLine[layout.line[i]]++;
    points++;
  }
  return { entries, invalid, pointsPerLine, points, invalidCount };
}

/** The slots any kept point uses: each slot's index among them (-1: unused), and their times in seconds. */
function usedSlots(layout: ChartLayout, p: ReturnType<typeof keptPoints>) {
  const atOf = new Int32Array(layout.xsMs.length).fill(-1);
  for (let i = 0; i < p.points; i++) atOf[layout.slot[p.entries[i]]] = 0;
  const xs: number[] = [];
  for (let x = 0; x < atOf.length; x++) {
    if (atOf[x] < 0) continue;
    atOf[x] = xs.length;
    xs.push(layout.xsMs[x] / 1000);
  }
  return { atOf, xs };
}

/**
 * The drawn lines' values on the used slots (null: none), written straight into uPlot's arrays: a later row at the
 * same slot wins, or, resampled (`mean`), the mean of the values in the slot; and per line its invalid marks (the
 * value where a slot holds a QC-invalid one; lines without any share one array of nulls).
 */
function lineValues(
  layout: ChartLayout,
  p: ReturnType<typeof keptPoints>,
  metric: NumericColumn,
  seriesOf: Int32Array,
  lines: number,
  mean: boolean,
  typed: boolean,
) {
  const { atOf, xs } = usedSlots(layout, p);
  const m = xs.length;
  const empty = (): LineValues =>
    typed ? new Float64Array(m).fill(Number.NaN) : new Array<number | null>(m).fill(null);
  const values = Array.from({ length: lines }, empty);
  const invalid = new Array<LineValues | undefined>(lines);
  const sums = mean ? Array.from({ length: lines }, () => new Float64Array(m)) : [];
  const counts = mean ? Array.from({ length: lines }, () => new Uint32Array(m)) : [];
  for (let i = 0; i < p.points; i++) {
    const e = p.entries[i];
    const k = seriesOf[layout.line[e]];
    if (k < 0) continue;
    const j = atOf[layout.slot[e]];
    const v = numberAt(metric, layout.rows[e]);
    if (mean) {
      sums[k][j] += v;
      counts[k][j]++;
    } else values[k][j] = v;
    if (!p.invalid[i]) continue;
    invalid[k] ??= empty();
    invalid[k][j] = v;
  }
  for (let k = 0; k < sums.length; k++)
    for (let j = 0; j < m; j++) {
      if (!counts[k][j]) continue;
      values[k][j] = sums[k][j] / counts[k][j];
      const marks = invalid[k];
      if (marks && !isNone(marks[j])) marks[j] = values[k][j];
    }
  const none = invalid.includes(undefined) ? empty() : [];
  return { xs, values, invalidValues: Array.from(invalid, (v) => v ?? none) };
}

/** One metric's lines (chartDataOf), null or (typed) NaN where a line has no value. */
function chartDataOf(
  table: Table,
  metricCol: number,
  layout: ChartLayout,
  maxSeries: number,
  qc: ChartQcOptions | undefined,
  typed: boolean,
): ChartData<LineValues> {
  const metric = table.columns[metricCol] as NumericColumn;
  const { labels } = layout;
  const p = keptPoints(layout, metric, qc);
  const present = labels.map((_, g) => g).filter((g) => p.pointsPerLine[g] > 0);
  present.sort((a, b) => (labels[a] < labels[b] ? -1 : labels[a] > labels[b] ? 1 : 0));
  const drawn = present.slice(0, maxSeries);
  const seriesOf = new Int32Array(labels.length).fill(-1);
  drawn.forEach((g, k) => {
    seriesOf[g] = k;
  });
  const mean = !!qc?.periodStart;
  const { xs, values, invalidValues } = lineValues(layout, p, metric, seriesOf, drawn.length, mean, typed);
  return {
    xs,
    series: drawn.map((g, k) => ({ label: layout.oneLine ? metric.name : labels[g], values: values[k] })),
    omittedSeries: present.length - drawn.length,
    points: p.points,
    invalid: qc ? invalidValues : undefined,
    invalidCount: p.invalidCount,
  };
}

/**
 * One metric's lines over time, one per "Lines by" group (at most `maxSeries`, by label), from the rows given:
 * `layout` (chartLayout of the same rows, time and group) lets several metrics share one grouping.
 */
export function buildChartData(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  timeCol: number,
  groupCol: number,
  maxSeries = MAX_SERIES,
  qc?: ChartQcOptions,
  layout = chartLayout(table, rows, timeCol, groupCol, qc?.periodStart),
): ChartData {
  return chartDataOf(table, metricCol, layout, maxSeries, qc, false) as ChartData;
}

/** The same lines as buildChartData on a draw's layout, typed: each line a Float64Array, NaN where it has none. */
export function buildChartLines(
  table: Table,
  metricCol: number,
  layout: ChartLayout,
  qc?: ChartQcOptions,
  maxSeries = MAX_SERIES,
): ChartData<Float64Array> {
  return chartDataOf(table, metricCol, layout, maxSeries, qc, true) as ChartData<Float64Array>;
}

/**
 * The smallest and largest value of `lines` (none: null or NaN) from index `from` to `to`: a y scale's data range,
 * without uPlot's own scan (which takes a NaN for a value); undefined when there is none.
 */
export function linesRange(
  lines: ReadonlyArray<ArrayLike<number | null>>,
  from: number,
  to: number,
): [number, number] | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const ys of lines) {
    const end = Math.min(to, ys.length - 1);
    if (ys instanceof Float64Array)
      // One loop for typed lines: it stays fast (monomorphic) over their millions of values.
      for (let i = Math.max(0, from); i <= end; i++) {
        const y = ys[i];
        if (y < lo) lo = y; // NaN compares false: left out
        if (y > hi) hi = y;
      }
    else
      for (let i = Math.max(0, from); i <= end; i++) {
        const y = ys[i];
        if (y == null) continue;
        if (y < lo) lo = y;
        if (y > hi) hi = y;
      }
  }
  return lo <= hi ? [lo, hi] : undefined;
}
