// Which columns a chart of a result uses: the time axis, the column that splits lines (datasource),
// and the metric columns worth drawing. One home for the renderer's chart and static exports.
import { isNumeric, type NumericColumn, numberAt, type Table } from './table';

const TIME_COLUMN_PREFERENCE = ['time', 'startOfPeriod'];
const GROUP_COLUMN_PREFERENCE = ['datasourceId', 'nodeId', 'sourceId', 'refSiteId'];
/** Lines a chart draws at most (the renderer's chart and exports); the rest are named, not drawn. */
export const MAX_CHART_LINES = 40;

const NOT_METRICS = new Set(['locationLatitude', 'locationLongitude', 'lat', 'lon', 'Location Latitude [deg]']);

export function chartTimeColumn(table: Table): number {
  for (const name of TIME_COLUMN_PREFERENCE) {
    const i = table.columns.findIndex((c) => c.name === name && c.kind === 'time');
    if (i >= 0) return i;
  }
  return table.columns.findIndex((c) => c.kind === 'time');
}

/**
 * The column whose values split the lines: a datasource id by preference, else the first identifier, else
 * the first text column (e.g. a `dataVersion` label a sql cell added to compare versions); -1 for none.
 */
export function chartGroupColumn(table: Table): number {
  for (const name of GROUP_COLUMN_PREFERENCE) {
    const i = table.columns.findIndex((c) => c.name === name && !isNumeric(c));
    if (i >= 0) return i;
  }
  const id = table.columns.findIndex((c) => c.kind === 'identifier');
  return id >= 0 ? id : table.columns.findIndex((c) => c.kind === 'text');
}

/** Columns the lines may be split by (text-like: identifiers, text, statuses). */
export function chartGroupChoices(table: Table): number[] {
  const out: number[] = [];
  table.columns.forEach((c, i) => {
    if (c.kind === 'identifier' || c.kind === 'text' || c.kind === 'status') out.push(i);
  });
  return out;
}

/** Numeric columns worth charting: metric values first; raw/coordinates are left out. */
export function chartMetricColumns(table: Table): number[] {
  const out: number[] = [];
  table.columns.forEach((c, i) => {
    if (c.kind !== 'number' || NOT_METRICS.has(c.name) || /latitude|longitude/i.test(c.name)) return;
    if (c.metric?.field && c.metric.field !== 'value') return;
    out.push(i);
  });
  return out;
}

/**
 * The labels of a "Lines by" column's values in the rows (a list value joined by ","; "(none)" for empty cells),
 * in no particular order: what line styles are given over (core/aq/line-styles), the renderer's and exports'.
 */
export function lineLabels(table: Table, groupCol: number): string[] {
  const group = table.columns[groupCol];
  if (!group || isNumeric(group)) return [];
  const used = new Uint8Array(group.dict.length + 1);
  for (let r = 0; r < table.rowCount; r++) used[group.codes[r] + 1] = 1;
  const out: string[] = used[0] ? ['(none)'] : [];
  group.dict.forEach((d, c) => {
    if (used[c + 1]) out.push(typeof d === 'string' ? d : d.join(','));
  });
  return out;
}

/** The first and last time of the rows (ms), undefined without a time column or times. */
export function rowsTimeRange(table: Table, rows: Uint32Array): [number, number] | undefined {
  const t = chartTimeColumn(table);
  if (t < 0) return undefined;
  let [lo, hi] = [Infinity, -Infinity];
  for (const r of rows) {
    const v = numberAt(table.columns[t] as NumericColumn, r);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : undefined;
}
