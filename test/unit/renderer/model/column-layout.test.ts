// The table's column layout: default order, pinned columns, and the text widths are fitted to.

import assert from 'node:assert/strict';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import type { Column, DictColumn, Table } from '../../../../src/core/table/table';
import { UTC, zoneOf } from '../../../../src/core/time/zone';
import {
  defaultColumnOrder,
  fitWidth,
  MAX_HEADER_PX,
  MAX_TIME_HEADER_PX,
  pinnedColumns,
  representativeText,
  timeWidthText,
} from '../../../../src/renderer/model/column-layout';

const text = (name: string, values: string[], kind: 'text' | 'identifier' = 'text'): DictColumn => {
  const dict = [...new Set(values)];
  return { name, kind, dict, codes: Int32Array.from(values, (v) => dict.indexOf(v)) };
};
const num = (name: string, values: number[]): Column => ({
  name,
  kind: 'number',
  values: Float64Array.from(values),
  metric: parseCanonicalLabel(name),
});

describe('renderer column layout', () => {
  // The service's csv-wide order (identifying columns first, location, then metrics sorted by label).
  const table: Table = {
    rowCount: 2,
    columns: [
      text('datasourceId', ['D1', 'D2'], 'identifier'),
      text('sourceId', ['A1', 'A2'], 'identifier'),
      text('sourceType', ['SERVICE_NODE', 'REFERENCE_SITE']),
      text('outputFrequency', ['hour', 'hour']),
      { name: 'startOfPeriod', kind: 'time', values: Float64Array.from([0, 0]) },
      { name: 'endOfPeriod', kind: 'time', values: Float64Array.from([0, 0]) },
      num('locationLatitude', [1, 2]),
      num('locationLongitude', [1, 2]),
      num('no2Conc1HourMean.value', [1, 2]),
      {
        ...text('no2Conc1HourMean.status', ['sensor-ready', 'sensor-ready']),
        metric: parseCanonicalLabel('no2Conc1HourMean.status'),
      },
      num('pm2_5ConcMassNowcast.value', [1, 2]),
    ],
  };

  it('orders datasource, period start, the metric values, their other fields, then the other identifying and location columns', () => {
    const names = defaultColumnOrder(table).map((i) => table.columns[i].name);
    assert.deepEqual(names, [
      'datasourceId',
      'startOfPeriod',
      'no2Conc1HourMean.value',
      'pm2_5ConcMassNowcast.value',
      'no2Conc1HourMean.status',
      'sourceId',
      'sourceType',
      'outputFrequency',
      'endOfPeriod',
      'locationLatitude',
      'locationLongitude',
    ]);
  });

  it('keeps every column exactly once, also without datasource or time columns', () => {
    const plain: Table = { rowCount: 1, columns: [text('a', ['x']), num('b', [1])] };
    assert.deepEqual(defaultColumnOrder(plain), [0, 1]);
    const order = defaultColumnOrder(table);
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      table.columns.map((_, i) => i),
    );
  });

  it('pins the first two visible columns (a hidden one passes its place on)', () => {
    const order = defaultColumnOrder(table);
    assert.deepEqual(pinnedColumns(order, new Set()), [0, 4]);
    assert.deepEqual(pinnedColumns(order, new Set([4])), [0, 8]);
    assert.deepEqual(pinnedColumns(order, new Set([0, 4])), [8, 10]);
  });

  it('fits the 95th percentile of value lengths: one long outlier among 100 values does not widen the column', () => {
    const values = [...new Array(99).fill('SERVICE_NODE'), 'A VERY LONG OUTLIER VALUE THAT IS RARE'];
    assert.equal(representativeText(text('sourceType', values), 100, UTC), 'SERVICE_NODE');
    const mixed = [...new Array(90).fill('SERVICE_NODE'), ...new Array(10).fill('REFERENCE_SITE')];
    assert.equal(representativeText(text('sourceType', mixed), 100, UTC), 'REFERENCE_SITE');
    assert.equal(representativeText(text('empty', ['', '']), 2, UTC), '');
  });

  it('widths: the value or the header plus padding, bounded; a long header is cut before a value is', () => {
    const c = text('sourceType', ['x']);
    assert.equal(fitWidth(100, 50, c), 114);
    assert.equal(fitWidth(20, 80, c), 112);
    assert.equal(fitWidth(2000, 10, c), 420);
    assert.equal(fitWidth(1, 1, c), 56);
    assert.equal(fitWidth(40, 400, c), MAX_HEADER_PX);
    assert.equal(fitWidth(300, 400, c), 314);
    // A time column's header names its zone: up to MAX_TIME_HEADER_PX before it is cut.
    const time = { name: 'startOfPeriod', kind: 'time', values: new Float64Array(1) } as const;
    assert.equal(fitWidth(115, 200, time), 232);
    assert.equal(fitWidth(115, 400, time), MAX_TIME_HEADER_PX);
  });

  it('a time column is as wide as its longest value with tabular digits, never cut by a fitted metric table', () => {
    // Whole hours, then one with seconds at row 2: the longest counts (not the 95th percentile of lengths).
    const ms = [Date.UTC(2026, 10, 24, 18), Date.UTC(2026, 10, 24, 19), Date.UTC(2026, 10, 24, 20, 0, 30)];
    const time = { name: 'startOfPeriod', kind: 'time', values: Float64Array.from(ms) } as const;
    assert.equal(timeWidthText(time, 3, UTC), '0000-00-00 00:00:00');
    assert.equal(timeWidthText(time, 2, UTC, 1000, '8'), '8888-88-88 88:88');
    assert.equal(timeWidthText(time, 3, zoneOf('America/Denver'), 1000, '4'), '4444-44-44 44:44:44');
    // Its width holds the measured value plus padding and a rounding pixel (never the value minus a fraction),
    // even when the header is narrower: 2026-11-24 18:00 measured at 113.4 px gets 129, not 127.
    assert.equal(fitWidth(113.4, 60, time), 129);
    assert.ok(fitWidth(113.4, 60, time) >= 113.4 + 14);
  });
});
