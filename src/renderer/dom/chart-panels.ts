// The chart's stacked panels: up to two more metrics ("and"), each in its own panel under the first, with its own
// unit and y axis, on the same time range (each panel's x scale is set to the union of all panels' times) and
// with the cursor synced across panels (uPlot's cursor.sync).
import type uPlot from 'uplot';
import type { Table } from '../../core/table/table';
import { unitOf } from '../model/aq-views';
import { type ChartData, isNone, type LineValues } from '../model/chart-series';
import { h } from './h';

/** At most this many metrics are drawn at once (the first and two more). */
export const MAX_PANELS = 3;

/** A select of the table's metrics with "(none)" first (value -1), on the remembered column name. */
export function extraMetricSelect(
  table: Table,
  metricCols: number[],
  k: number,
  remembered?: string,
): HTMLSelectElement {
  const select = h('select', {
    className: `mt-metric-extra mt-metric-extra-${k}`,
    attrs: { 'aria-label': `Metric ${k + 2}` },
  });
  const none = h('option', { text: '(none)' });
  none.value = '-1';
  select.appendChild(none);
  for (const i of metricCols) {
    const unit = unitOf(table.columns[i]);
    const opt = h('option', { text: unit ? `${table.columns[i].name} [${unit}]` : table.columns[i].name });
    opt.value = String(i);
    if (table.columns[i].name === remembered) opt.selected = true;
    select.appendChild(opt);
  }
  return select;
}

/** The time range (seconds) all panels share: from the earliest to the latest time of any of them. */
export function sharedRange(datas: ChartData<LineValues>[]): [number, number] | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const d of datas) {
    if (!d.xs.length) continue;
    lo = Math.min(lo, d.xs[0]);
    hi = Math.max(hi, d.xs[d.xs.length - 1]);
  }
  return lo <= hi ? [lo, hi] : undefined;
}

/** The x scale of every panel: time, on the shared range when there is one. */
export function sharedXScale(range: [number, number] | undefined): uPlot.Scale {
  return range && range[0] < range[1] ? { time: true, range: () => range } : { time: true };
}

/** A panel's title above it: the metric and its unit. */
export function panelTitle(table: Table, col: number): HTMLElement {
  const unit = unitOf(table.columns[col]);
  return h('div', {
    className: 'mt-panel-title',
    text: unit ? `${table.columns[col].name} [${unit}]` : table.columns[col].name,
  });
}

/** The legend label of a chart's QC-invalid marks (hollow points in the error colour). */
export const QC_INVALID_LABEL = 'QC-invalid';

/**
 * Two metrics on left and right axes: the legend label of each one's QC-invalid marks, by its metric and axis (both
 * metrics' marks look alike, so the label is what tells them apart; stacked panels are titled instead).
 */
export function pairedInvalidLabel(metric: string, side: 'left' | 'right'): string {
  return `${QC_INVALID_LABEL} · ${metric} (${side} axis)`;
}

/**
 * The "Hide QC-invalid (N)" toggle's text: it hides the marks of every metric drawn (each panel, both axes), so N
 * counts them all, not the first metric's alone.
 */
export function hideInvalidText(datas: readonly { invalidCount: number }[]): string {
  const n = datas.reduce((sum, d) => sum + d.invalidCount, 0);
  return ` Hide QC-invalid (${n.toLocaleString('en-US')})`;
}

/** The distinct times of both charts, ascending. */
export function unionTimes(a: ChartData<LineValues>, b: ChartData<LineValues>): number[] {
  return [...new Set([...a.xs, ...b.xs])].sort((x, y) => x - y);
}

/**
 * A chart's lines (and QC-invalid marks) placed on other times (a superset of its own), null where it has none (also
 * where a typed line held NaN).
 */
export function realign(data: ChartData<LineValues>, xs: number[]): ChartData {
  const at = new Map<number, number>();
  xs.forEach((x, i) => {
    at.set(x, i);
  });
  const place = (values: LineValues) => {
    const out = new Array<number | null>(xs.length).fill(null);
    data.xs.forEach((x, i) => {
      out[at.get(x)!] = isNone(values[i]) ? null : values[i];
    });
    return out;
  };
  return {
    ...data,
    xs,
    series: data.series.map((s) => ({ label: s.label, values: place(s.values) })),
    invalid: data.invalid?.map(place),
  };
}
