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
function lineOfCode(metric: NumericColumn, group: Column | undefined): { labels: string[]; byCode: Int32Array } {
  if (!group || isNumeric(group)) return { labels: [metric.name], byCode: new Int32Array(1) };
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

/** The distinct times, ascending (a run of equal times, as in time-ordered results, is looked at once). */
function distinctTimes(times: Float64Array, n: number): Float64Array {
  const seen = new Set<number>();
  let previous = Number.NaN;
  for (let i = 0; i < n; i++) {
    const t = times[i];
    if (t !== previous) {
      seen.add(t);
      previous = t;
    }
  }
  return Float64Array.from(seen).sort();
}

/** Pass 1: the drawn points (table row, time, line, invalid?) in typed arrays, and the points per line. */
function keptPoints(
  rows: ArrayLike<number>,
  metric: NumericColumn,
  time: NumericColumn,
  lineOf: (r: number) => number,
  lines: number,
  qc?: ChartQcOptions,
) {
  const kept = new Uint32Array(rows.length);
  const keptTimes = new Float64Array(rows.length);
  const line = new Int32Array(rows.length);
  const invalid = new Uint8Array(rows.length);
  const pointsPerLine = new Uint32Array(lines);
  let points = 0;
  let invalidCount = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const t = qc?.periodStart ? qc.periodStart(numberAt(time, r)) : numberAt(time, r);
    if (Number.isNaN(t) || isEmptyAt(metric, r)) continue;
    const bad = qc?.invalid(r) === true;
    if (bad) {
      invalidCount++;
      if (qc?.hideInvalid) continue;
    }
    const g = lineOf(r);
    kept[points] = r;
    keptTimes[points] = t;
    line[points] = g;
    invalid[points] = bad ? 1 : 0;
    pointsPerLine[g]++;
    points++;
  }
  return { kept, keptTimes, line, invalid, pointsPerLine, points, invalidCount };
}

/**
 * Pass 2: the drawn lines' values by time slot: a later row at the same time wins, or, resampled (`mean`),
 * the mean of the values in the slot; invalid marks where a slot holds a QC-invalid value.
 */
function lineValues(
  p: ReturnType<typeof keptPoints>,
  metric: NumericColumn,
  seriesOf: Int32Array,
  lines: number,
  slot: Map<number, number>,
  mean: boolean,
) {
  const values = Array.from({ length: lines }, () => new Array<number | null>(slot.size).fill(null));
  const invalidValues = Array.from({ length: lines }, () => new Array<number | null>(slot.size).fill(null));
  const counts = mean ? Array.from({ length: lines }, () => new Uint32Array(slot.size)) : [];
  for (let i = 0; i < p.points; i++) {
    const k = seriesOf[p.line[i]];
    if (k < 0) continue;
    const x = slot.get(p.keptTimes[i])!;
    const v = numberAt(metric, p.kept[i]);
    if (mean) {
      counts[k][x]++;
      values[k][x] = (values[k][x] ?? 0) + v;
    } else values[k][x] = v;
    if (p.invalid[i]) invalidValues[k][x] = v;
  }
  if (mean) {
    for (let k = 0; k < lines; k++) {
      const line = values[k];
      for (let x = 0; x < line.length; x++) {
        if (line[x] === null) continue;
        line[x] = (line[x] as number) / counts[k][x];
        if (invalidValues[k][x] !== null) invalidValues[k][x] = line[x];
      }
    }
  }
  return { values, invalidValues };
}

export function buildChartData(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  timeCol: number,
  groupCol: number,
  maxSeries = MAX_SERIES,
  qc?: ChartQcOptions,
): ChartData {
  const metric = table.columns[metricCol] as NumericColumn;
  const time = table.columns[timeCol] as NumericColumn;
  const group: Column | undefined = groupCol >= 0 ? table.columns[groupCol] : undefined;
  const codes = group && !isNumeric(group) ? group.codes : undefined;
  const { labels, byCode } = lineOfCode(metric, group);
  const p = keptPoints(rows, metric, time, (r) => (codes ? byCode[codes[r] + 1] : 0), labels.length, qc);
  const present = labels.map((_, g) => g).filter((g) => p.pointsPerLine[g] > 0);
  present.sort((a, b) => (labels[a] < labels[b] ? -1 : labels[a] > labels[b] ? 1 : 0));
  const drawn = present.slice(0, maxSeries);
  const xsMs = distinctTimes(p.keptTimes, p.points);
  const slot = new Map<number, number>();
  xsMs.forEach((t, k) => {
    slot.set(t, k);
  });
  const seriesOf = new Int32Array(labels.length).fill(-1);
  drawn.forEach((g, k) => {
    seriesOf[g] = k;
  });
  const { values, invalidValues } = lineValues(p, metric, seriesOf, drawn.length, slot, !!qc?.periodStart);
  return {
    xs: Array.from(xsMs, (t) => t / 1000),
    series: drawn.map((g, k) => ({ label: labels[g], values: values[k] })),
    omittedSeries: present.length - drawn.length,
    points: p.points,
    invalid: qc ? invalidValues : undefined,
    invalidCount: p.invalidCount,
  };
}
