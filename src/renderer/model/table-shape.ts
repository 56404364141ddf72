// What a table holds, as the views ask it (views/registry.ts): a series over time, datasources, coordinates.
// Asked of the whole table (not of the rows a filter shows), so the tabs stay put while the user filters.
import { isNumeric, numberAt, type Table } from '../../core/table/table';
import { locationColumns } from './aq-views';
import { chartGroupColumn, chartMetricColumns, chartTimeColumn } from './chart-series';

/** A metric to compute on over at least two rows (a one-row aggregate has nothing to chart or summarise). */
export function hasMetrics(table: Table): boolean {
  return table.rowCount >= 2 && chartMetricColumns(table).length > 0;
}

/** A series over time: a time column and a metric, at least two rows. */
export function isTimeSeries(table: Table): boolean {
  return hasMetrics(table) && chartTimeColumn(table) >= 0;
}

/** Distinct datasources (values of the chart's line column) in the rows, counted up to `atMost`. */
export function datasourceCount(table: Table, atMost = Number.POSITIVE_INFINITY): number {
  const gi = chartGroupColumn(table);
  const group = gi >= 0 ? table.columns[gi] : undefined;
  if (!group || isNumeric(group)) return table.rowCount ? 1 : 0;
  const seen = new Uint8Array(group.dict.length + 1);
  let n = 0;
  for (let r = 0; r < table.rowCount && n < atMost; r++) {
    const k = group.codes[r] + 1;
    if (!seen[k]) {
      seen[k] = 1;
      n++;
    }
  }
  return n;
}

/**
 * Datasources with coordinates: a datasource column (what the Map marks; an aggregate without one has nothing
 * to mark) and some row with both a latitude and a longitude (locationLatitude/locationLongitude).
 */
export function hasCoordinates(table: Table): boolean {
  const located = locationColumns(table);
  const gi = chartGroupColumn(table);
  if (!located || gi < 0 || isNumeric(table.columns[gi])) return false;
  for (let r = 0; r < table.rowCount; r++)
    if (!Number.isNaN(numberAt(located.lat, r)) && !Number.isNaN(numberAt(located.lon, r))) return true;
  return false;
}
