// Which column splits a chart's lines: a datasource id first, else an identifier, else a text label such
// as the `dataVersion` a sql cell adds when it puts two data versions in one table.
import assert from 'node:assert/strict';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { chartGroupChoices, chartGroupColumn } from '../../../../src/core/table/chart-columns';
import type { Column, Table } from '../../../../src/core/table/table';
import { buildChartData } from '../../../../src/renderer/model/chart-series';
import { identityRows } from '../../../../src/renderer/model/sort';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 20);

/** What the compare-data-versions example's sql cell returns: time, dataVersion, the NowCast. */
function versions(withDatasource: boolean): Table {
  const n = 6;
  const columns: Column[] = [
    {
      name: 'startOfPeriod',
      kind: 'time',
      values: Float64Array.from({ length: n }, (_, i) => T0 + Math.floor(i / 2) * H),
    },
    {
      name: 'dataVersion',
      kind: 'text',
      dict: ['legacy', 'v2026-11-10'],
      codes: Int32Array.from({ length: n }, (_, i) => i % 2),
    },
    {
      name: 'pm2_5ConcMassNowcast',
      kind: 'number',
      values: Float64Array.from([68.9, 3.2, 68.5, 3, 68.2, 3.2]),
      metric: parseCanonicalLabel('pm2_5ConcMassNowcast'),
    },
  ];
  if (withDatasource)
    columns.unshift({ name: 'datasourceId', kind: 'identifier', dict: ['D1'], codes: new Int32Array(n) });
  return { columns, rowCount: n };
}

describe('core table: chart columns', () => {
  it('without an identifier, the lines split by the first text column: one line per data version', () => {
    const t = versions(false);
    const g = chartGroupColumn(t);
    assert.equal(t.columns[g].name, 'dataVersion');
    const data = buildChartData(t, identityRows(t.rowCount), 2, 0, g);
    assert.deepEqual(
      data.series.map((s) => [s.label, s.values]),
      [
        ['legacy', [68.9, 68.5, 68.2]],
        ['v2026-11-10', [3.2, 3, 3.2]],
      ],
    );
  });

  it('a datasource id still wins by default; the text columns are the other choices', () => {
    const t = versions(true);
    assert.equal(t.columns[chartGroupColumn(t)].name, 'datasourceId');
    assert.deepEqual(
      chartGroupChoices(t).map((i) => t.columns[i].name),
      ['datasourceId', 'dataVersion'],
    );
    const byVersion = buildChartData(t, identityRows(t.rowCount), 3, 1, 2);
    assert.deepEqual(
      byVersion.series.map((s) => s.label),
      ['legacy', 'v2026-11-10'],
    );
  });
});
