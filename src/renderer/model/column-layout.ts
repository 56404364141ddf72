// The table's column layout: the default order (datasource, time, the metrics, then the other identifying
// and location columns), which columns are pinned while scrolling sideways, and the text a column's
// width should fit (the 95th percentile of its first values' lengths, so one long outlier does not widen
// it and a common value such as `REFERENCE_SITE` is not cut).
import { type Column, isNumeric, type Table } from '../../core/table/table';
import { chartGroupColumn, chartTimeColumn } from './chart-series';
import { displayText, type TimeZoneMode } from './format';

/** Display order of the columns (indices into table.columns). */
export function defaultColumnOrder(table: Table): number[] {
  const group = chartGroupColumn(table);
  const time = chartTimeColumn(table);
  const first = [group, time].filter((i, k, a) => i >= 0 && a.indexOf(i) === k);
  const values: number[] = [];
  const fields: number[] = [];
  const rest: number[] = [];
  table.columns.forEach((c, i) => {
    if (first.includes(i)) return;
    if (!c.metric) rest.push(i);
    else if (!c.metric.field || c.metric.field === 'value') values.push(i);
    else fields.push(i);
  });
  // The values asked for first; their raw/status/QC columns after them, in the service's order.
  return [...first, ...values, ...fields, ...rest];
}

/** How many of the first visible columns stay in place while scrolling sideways. */
const PINNED_COLUMNS = 2;

/** The first `PINNED_COLUMNS` visible columns of the order. */
export function pinnedColumns(order: readonly number[], hidden: ReadonlySet<number>): number[] {
  return order.filter((i) => !hidden.has(i)).slice(0, PINNED_COLUMNS);
}

/**
 * The text a column should be wide enough for: of the first `sample` non-empty values, the one at the
 * 95th percentile of length (the header when longer). Times as shown in `mode`.
 */
export function representativeText(column: Column, rowCount: number, mode: TimeZoneMode, sample = 1000): string {
  const texts: string[] = [];
  for (let r = 0; r < rowCount && texts.length < sample; r++) {
    const t = displayText(column, r, mode);
    if (t) texts.push(t);
  }
  if (!texts.length) return '';
  texts.sort((a, b) => a.length - b.length);
  return texts[Math.min(texts.length - 1, Math.ceil(0.95 * texts.length) - 1)];
}

/**
 * The text a time column must be wide enough for: its longest of the first `sample` values (a time is never cut,
 * so a value with seconds among whole minutes counts), every digit as `digit`. Times are drawn with tabular
 * digits (styles.css .mt-time), each as wide as the widest digit: measure them as that digit.
 */
export function timeWidthText(
  column: Column,
  rowCount: number,
  mode: TimeZoneMode,
  sample = 1000,
  digit = '0',
): string {
  let longest = '';
  for (let r = 0, seen = 0; r < rowCount && seen < sample; r++) {
    const t = displayText(column, r, mode);
    if (!t) continue;
    seen++;
    if (t.length > longest.length) longest = t;
  }
  return longest.replace(/[0-9]/g, digit);
}

/** A column's width in px from measured text widths: the representative value or the header, bounded. */
export function fitWidth(valuePx: number, headerPx: number, column: Column): number {
  const padding = 14; // cell padding and border
  const headerExtra = 18; // sort arrow
  // A long metric header may be cut (its tooltip and the column menu have it whole); values may not. A time
  // column's header names the zone its times are in ("startOfPeriod America/Denver"): it gets more room.
  const header = Math.min(
    headerPx + padding + headerExtra,
    column.kind === 'time' ? MAX_TIME_HEADER_PX : MAX_HEADER_PX,
  );
  const max = isNumeric(column) ? 240 : 420;
  // A time is read whole: its value gets its measured width and a rounding pixel, whatever the header.
  if (column.kind === 'time') return Math.ceil(Math.min(max, Math.max(56, valuePx + padding + 1, header)));
  return Math.round(Math.min(max, Math.max(56, valuePx + padding, header)));
}

/** A header wider than this is cut (its tooltip and the column menu have it whole); a metric's two lines fit. */
export const MAX_HEADER_PX = 220;
/** A time column's header: its name and its zone ("startOfPeriod America/Denver"), as wide as a time column gets. */
export const MAX_TIME_HEADER_PX = 240;
