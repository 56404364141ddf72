// The chart's resampling: a line's value per local hour / day is the mean of its values there (hidden QC-invalid
// values left out), on the period starts of the notebook's zone (core/aq/resample's periodStarter).
import assert from 'node:assert/strict';
import { periodStarter } from '../../../../src/core/aq/resample';
import { zoneOf } from '../../../../src/core/time/zone';
import { buildChartData, chartGroupColumn, chartTimeColumn } from '../../../../src/renderer/model/chart-series';
import { identityRows } from '../../../../src/renderer/model/sort';
import { syntheticTable } from '../../../support/synthetic-table';

const T0 = Date.UTC(2026, 10, 20); // syntheticTable's first minute
const MIN = 60_000;

/** The mean of datasource 1's values (row 4k+1 is its minute k) over minutes [from, to), skipping `skip` rows. */
function meanOf(values: Float64Array, from: number, to: number, skip: (r: number) => boolean): number {
  let sum = 0;
  let n = 0;
  for (let k = from; k < to; k++) {
    const v = values[4 * k + 1];
    if (Number.isNaN(v) || skip(4 * k + 1)) continue;
    sum += v;
    n++;
  }
  return sum / n;
}

function assertClose(actual: Array<number | null>, expected: number[]): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++)
    assert.ok(Math.abs((actual[i] as number) - expected[i]) < 1e-9, `hour ${i}`);
}

describe('renderer chart data resampled', () => {
  const t = syntheticTable(4 * 180, 4); // 180 minutes from 00:00Z, 4 datasources
  const m = t.columns.findIndex((c) => c.name === 'no2ConcIndividual.value');
  const values = (t.columns[m] as { values: Float64Array }).values;
  const build = (zone: string, hideInvalid: boolean, invalid = (r: number) => r % 5 === 0) =>
    buildChartData(t, identityRows(t.rowCount), m, chartTimeColumn(t), chartGroupColumn(t), undefined, {
      invalid,
      hideInvalid,
      periodStart: periodStarter('hour', zoneOf(zone)),
    });

  it('hourly means in UTC: three hours, each the mean of its 60 minutes', () => {
    const data = build('UTC', false, () => false);
    assert.deepEqual(
      data.xs,
      [0, 1, 2].map((h) => (T0 + h * 60 * MIN) / 1000),
    );
    const d1 = data.series.findIndex((s) => s.label === 'D000001');
    const expected = [0, 1, 2].map((h) => meanOf(values, h * 60, h * 60 + 60, () => false));
    assertClose(data.series[d1].values, expected);
  });

  it('hours of a +05:30 zone start at :30 UTC; hidden QC-invalid values are left out of the means', () => {
    const invalid = (r: number) => r % 5 === 0;
    const data = build('Asia/Kolkata', true, invalid);
    assert.deepEqual(
      data.xs,
      [-30, 30, 90, 150].map((min) => (T0 + min * MIN) / 1000),
    );
    const d1 = data.series.findIndex((s) => s.label === 'D000001');
    const expected = [
      meanOf(values, 0, 30, invalid),
      meanOf(values, 30, 90, invalid),
      meanOf(values, 90, 150, invalid),
      meanOf(values, 150, 180, invalid),
    ];
    assertClose(data.series[d1].values, expected);
    // Shown invalid values: the hour's mean is marked.
    const shown = build('Asia/Kolkata', false, invalid);
    assert.deepEqual(shown.invalid?.[d1], shown.series[d1].values);
  });
});
