// Data for the chart view: one metric over time, one line per datasource, aligned on a shared time axis
// (uPlot's format: [xs, ...ys] with null where a datasource has no value at that time).
import { type Column, isNumeric, type NumericColumn, type Table } from '../../core/table/table';

export { chartGroupColumn, chartMetricColumns, chartTimeColumn } from '../../core/table/chart-columns';

export const MAX_SERIES = 40;

export interface ChartData {
  /** Seconds since the epoch (uPlot's unit), ascending. */
  xs: number[];
  series: Array<{ label: string; values: Array<number | null> }>;
  /** Groups beyond MAX_SERIES are left out, and the chart says so. */
  omittedSeries: number;
  points: number;
}

export function buildChartData(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  timeCol: number,
  groupCol: number,
  maxSeries = MAX_SERIES,
): ChartData {
  const metric = table.columns[metricCol] as NumericColumn;
  const time = table.columns[timeCol] as NumericColumn;
  const group: Column | undefined = groupCol >= 0 ? table.columns[groupCol] : undefined;
  const groupOf = (r: number): string => {
    if (!group || isNumeric(group)) return metric.name;
    const c = group.codes[r];
    if (c < 0) return '(none)';
    return group.kind === 'qcFlags' ? group.dict[c].join(',') : group.dict[c];
  };
  const byGroup = new Map<string, Map<number, number>>();
  const times = new Set<number>();
  let points = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const t = time.values[r];
    const v = metric.values[r];
    if (Number.isNaN(t) || Number.isNaN(v)) continue;
    const g = groupOf(r);
    let m = byGroup.get(g);
    if (!m) {
      m = new Map();
      byGroup.set(g, m);
    }
    m.set(t, v);
    times.add(t);
    points++;
  }
  const groups = [...byGroup.keys()].sort();
  const kept = groups.slice(0, maxSeries);
  const xsMs = [...times].sort((a, b) => a - b);
  return {
    xs: xsMs.map((t) => t / 1000),
    series: kept.map((g) => {
      const m = byGroup.get(g)!;
      return { label: g, values: xsMs.map((t) => m.get(t) ?? null) };
    }),
    omittedSeries: groups.length - kept.length,
    points,
  };
}
