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

export interface ChartData {
  /** Seconds since the epoch (uPlot's unit), ascending. */
  xs: number[];
  series: Array<{ label: string; values: Array<number | null> }>;
  /** Groups beyond MAX_SERIES are left out, and the chart says so. */
  omittedSeries: number;
  points: number;
  /** Per drawn line, its QC-invalid values only (null elsewhere), when an `invalid` test was given. */
  invalid?: Array<Array<number | null>>;
  /** QC-invalid values among the rows (drawn as marks, or left out when hidden). */
  invalidCount: number;
}

interface ChartQcOptions {
  /** Is the value in this table row QC-invalid? */
  invalid: (row: number) => boolean;
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

/** The distinct times, ascending (a run of equal times, as in time-ordered results, is looked at once). */
function distinctTimes(times: Float64Array): Float64Array {
  const seen = new Set<number>();
  let previous = Number.NaN;
  for (const t of times) {
    if (t !== previous) {
      seen.add(t);
      previous = t;
    }
  }
  return Float64Array.from(seen).sort();
}

/** Each time's slot in the sorted distinct times (a run of equal times looked up once). */
function slotsOf(times: Float64Array, xsMs: Float64Array): Int32Array {
  const at = new Map<number, number>();
  xsMs.forEach((t, k) => {
    at.set(t, k);
  });
  const slot = new Int32Array(times.length);
  let previous = Number.NaN;
  let k = -1;
  for (let i = 0; i < times.length; i++) {
    if (times[i] !== previous) {
      previous = times[i];
      k = at.get(previous)!;
    }
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
  for (let i = 0; i < n; i++) {
    const r = layout.rows[i];
    if (isEmptyAt(metric, r)) continue;
    const bad = qc?.invalid(r) === true;
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

/**
 * The drawn lines' values by slot (NaN: none): a later row at the same slot wins, or, resampled (`mean`), the mean
 * of the values in the slot; invalid marks where a slot holds a QC-invalid value; and the slots any point uses.
 */
function slotValues(
  layout: ChartLayout,
  p: ReturnType<typeof keptPoints>,
  metric: NumericColumn,
  seriesOf: Int32Array,
  lines: number,
  mean: boolean,
) {
  const slots = layout.xsMs.length;
  const values = Array.from({ length: lines }, () => new Float64Array(slots).fill(Number.NaN));
  const invalid = Array.from({ length: lines }, () => new Float64Array(slots).fill(Number.NaN));
  const counts = mean ? Array.from({ length: lines }, () => new Uint32Array(slots)) : [];
  const used = new Uint8Array(slots);
  for (let i = 0; i < p.points; i++) {
    const e = p.entries[i];
    const x = layout.slot[e];
    used[x] = 1;
    const k = seriesOf[layout.line[e]];
    if (k < 0) continue;
    const v = numberAt(metric, layout.rows[e]);
    if (mean) {
      counts[k][x]++;
      values[k][x] = (counts[k][x] === 1 ? 0 : values[k][x]) + v;
    } else values[k][x] = v;
    if (p.invalid[i]) invalid[k][x] = v;
  }
  if (mean)
    for (let k = 0; k < lines; k++)
      for (let x = 0; x < slots; x++) {
        if (!counts[k][x]) continue;
        values[k][x] /= counts[k][x];
        if (!Number.isNaN(invalid[k][x])) invalid[k][x] = values[k][x];
      }
  return { values, invalid, used };
}

/** The used slots' values as uPlot's arrays (null where none), and the invalid marks (the value where invalid). */
function compact(v: ReturnType<typeof slotValues>, lines: number) {
  const at: number[] = [];
  for (let x = 0; x < v.used.length; x++) if (v.used[x]) at.push(x);
  const values: Array<Array<number | null>> = [];
  const invalidValues: Array<Array<number | null>> = [];
  for (let k = 0; k < lines; k++) {
    const line = new Array<number | null>(at.length);
    const marks = new Array<number | null>(at.length);
    for (let j = 0; j < at.length; j++) {
      const y = v.values[k][at[j]];
      line[j] = Number.isNaN(y) ? null : y;
      const bad = v.invalid[k][at[j]];
      marks[j] = Number.isNaN(bad) ? null : bad;
    }
    values.push(line);
    invalidValues.push(marks);
  }
  return { at, values, invalidValues };
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
  const slots = slotValues(layout, p, metric, seriesOf, drawn.length, !!qc?.periodStart);
  const { at, values, invalidValues } = compact(slots, drawn.length);
  return {
    xs: at.map((x) => layout.xsMs[x] / 1000),
    series: drawn.map((g, k) => ({ label: layout.oneLine ? metric.name : labels[g], values: values[k] })),
    omittedSeries: present.length - drawn.length,
    points: p.points,
    invalid: qc ? invalidValues : undefined,
    invalidCount: p.invalidCount,
  };
}
