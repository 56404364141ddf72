// Which columns a chart of a result uses: the time axis, the column that splits lines (datasource),
// and the metric columns worth drawing. One home for the renderer's chart and static exports.
import { isNumeric, type Table } from './table';

const TIME_COLUMN_PREFERENCE = ['time', 'startOfPeriod'];
const GROUP_COLUMN_PREFERENCE = ['datasourceId', 'nodeId', 'sourceId', 'refSiteId'];
const NOT_METRICS = new Set(['locationLatitude', 'locationLongitude', 'lat', 'lon', 'Location Latitude [deg]']);

export function chartTimeColumn(table: Table): number {
  for (const name of TIME_COLUMN_PREFERENCE) {
    const i = table.columns.findIndex((c) => c.name === name && c.kind === 'time');
    if (i >= 0) return i;
  }
  return table.columns.findIndex((c) => c.kind === 'time');
}

export function chartGroupColumn(table: Table): number {
  for (const name of GROUP_COLUMN_PREFERENCE) {
    const i = table.columns.findIndex((c) => c.name === name && !isNumeric(c));
    if (i >= 0) return i;
  }
  return table.columns.findIndex((c) => c.kind === 'identifier');
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
