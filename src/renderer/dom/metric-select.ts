// A metric picker for the air-quality views: the chartable metrics with their units; by default the first
// with EPA breakpoints (a concentration unless `preferAqi`).
import { dailyMeanPollutant, defaultThreshold } from '../../core/aq/metric-info';
import type { Table } from '../../core/table/table';
import { unitOf } from '../model/aq-views';
import { chartMetricColumns } from '../model/chart-series';
import { h } from './h';

const AGGREGATION_ORDER = ['Nowcast', '1HourMean', 'Individual', '24HourMean', '24HourRollingMean'];

export function metricSelectFor(table: Table, className: string, preferAqi = false): HTMLSelectElement {
  const select = h('select', { className, attrs: { 'aria-label': 'Metric' } });
  const cols = chartMetricColumns(table);
  for (const i of cols) {
    const unit = unitOf(table.columns[i]);
    const opt = h('option', { text: unit ? `${table.columns[i].name} [${unit}]` : table.columns[i].name });
    opt.value = String(i);
    select.appendChild(opt);
  }
  // Metrics with EPA breakpoints first (what these views are for), the NowCast / 1-hour ones before the
  // smoother 24-hour means; AQI columns first only when asked (the map colours by category either way).
  const rank = (i: number) => {
    const m = table.columns[i].metric;
    if (defaultThreshold(m) === undefined) return 9;
    if ((unitOf(table.columns[i]) === 'AQI') !== preferAqi) return 8;
    return AGGREGATION_ORDER.indexOf(m?.aggregation ?? '') + 1 || 7;
  };
  const preferred = [...cols].sort((a, b) => rank(a) - rank(b))[0];
  if (preferred !== undefined && rank(preferred) < 9) select.value = String(preferred);
  return select;
}

/**
 * Starts a daily view (Calendar, Trend) on a PM concentration whose daily mean has EPA 24-hour breakpoints,
 * hourly or finer values first (a day's mean of a NowCast or a rolling mean repeats its neighbours); the
 * select's choice is kept when there is none.
 */
export function preferDailyPm(select: HTMLSelectElement, table: Table): void {
  const order = ['1HourMean', 'Individual', '24HourMean'];
  const rank = (i: number) => {
    const m = table.columns[i].metric;
    const at = order.indexOf(m?.aggregation ?? '');
    return (at < 0 ? order.length : at) + (m?.field === 'raw' ? 0.5 : 0); // the value before its raw reading
  };
  const pm = chartMetricColumns(table).filter((i) => dailyMeanPollutant(table.columns[i].metric) !== undefined);
  const best = pm.sort((a, b) => rank(a) - rank(b))[0];
  if (best !== undefined) select.value = String(best);
}
