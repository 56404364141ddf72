import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { columnIndexOf } from '../../../../src/core/table/table';
import {
  buildChartData,
  chartGroupColumn,
  chartLayout,
  chartTimeColumn,
} from '../../../../src/renderer/model/chart-series';
import { syntheticTable } from '../../../support/synthetic-table';

describe('renderer chart layout (one grouping of the rows for every panel)', () => {
  const t = syntheticTable(4_000, 8);
  const rows = Uint32Array.from({ length: t.rowCount }, (_, i) => i);
  const time = chartTimeColumn(t);
  const group = chartGroupColumn(t);
  const qc = { invalid: (r: number) => r % 97 === 0, hideInvalid: false };

  it('gives each metric the same lines with one shared layout as with its own', () => {
    const layout = chartLayout(t, rows, time, group);
    assert.equal(layout.rows.length, t.rowCount);
    assert.equal(layout.xsMs.length, 500);
    for (const name of [
      'pm2_5ConcMassIndividual.value',
      'no2ConcIndividual.value',
      'temperatureAmbientIndividual.value',
    ]) {
      const m = columnIndexOf(t, name);
      const own = buildChartData(t, rows, m, time, group, undefined, qc);
      const shared = buildChartData(t, rows, m, time, group, undefined, qc, layout);
      assert.deepEqual(shared, own);
      assert.equal(shared.series.length, 8);
      // NaN values (every 211th row) are left out: no time slot holds them.
      assert.equal(shared.points, t.rowCount - Math.ceil(t.rowCount / 211));
    }
  });
});
