import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { periodStarter } from '../../../../src/core/aq/resample';
import { columnIndexOf } from '../../../../src/core/table/table';
import { zoneOf } from '../../../../src/core/time/zone';
import {
  buildChartData,
  buildChartLines,
  chartGroupColumn,
  chartLayout,
  chartTimeColumn,
  isNone,
  linesRange,
} from '../../../../src/renderer/model/chart-series';
import { syntheticTable } from '../../../support/synthetic-table';

// The chart view draws typed lines (a Float64Array each, NaN where a line has no value): the same lines as
// buildChartData's (null there), without boxing every value.
describe('renderer chart typed lines (the view draws and hovers them)', () => {
  const t = syntheticTable(3_000, 8);
  const rows = Uint32Array.from({ length: t.rowCount }, (_, i) => i);
  const time = chartTimeColumn(t);
  const group = chartGroupColumn(t);
  const m = columnIndexOf(t, 'pm2_5ConcMassIndividual.value');
  const asNulls = (values: Float64Array) => Array.from(values, (v) => (Number.isNaN(v) ? null : v));

  for (const [name, periodStart] of [
    ['raw values', undefined],
    ['hourly means (America/Denver)', periodStarter('hour', zoneOf('America/Denver'))],
  ] as const)
    it(`holds buildChartData's lines with NaN for null: ${name}, QC-invalid marks shown and hidden`, () => {
      for (const hideInvalid of [false, true]) {
        const qc = { invalid: (r: number) => r % 97 === 0, hideInvalid, periodStart };
        const layout = chartLayout(t, rows, time, group, periodStart);
        const plain = buildChartData(t, rows, m, time, group, undefined, qc, layout);
        const typed = buildChartLines(t, m, layout, qc);
        assert.deepEqual(typed.xs, plain.xs);
        assert.equal(typed.series.length, 8);
        typed.series.forEach((s, k) => {
          assert.ok(s.values instanceof Float64Array);
          assert.equal(s.label, plain.series[k].label);
          assert.deepEqual(asNulls(s.values), plain.series[k].values);
          assert.deepEqual(asNulls(typed.invalid![k]), plain.invalid![k]);
        });
        // Raw, every 211th row is NaN (a gap); every hour has a mean of each line.
        assert.equal(typed.series[0].values.some(Number.isNaN), !periodStart, 'gaps (NaN) in raw lines only');
        assert.equal(typed.points, plain.points);
        assert.equal(typed.invalidCount, plain.invalidCount);
        if (!hideInvalid) assert.ok(typed.invalid!.some((line) => line.some((v) => !Number.isNaN(v))));
      }
    });

  it('marks nothing for a metric without a QC test (every mark NaN, none counted)', () => {
    const layout = chartLayout(t, rows, time, group);
    const typed = buildChartLines(t, m, layout, { hideInvalid: false });
    assert.equal(typed.invalidCount, 0);
    assert.ok(typed.invalid!.every((line) => line.every(Number.isNaN)));
  });

  it('reads null, undefined and NaN as no value, any number (0 too) as one', () => {
    assert.deepEqual([null, undefined, Number.NaN, 0, -1.5].map(isNone), [true, true, true, false, false]);
  });
});

describe('renderer chart y range (linesRange: what uPlot would scan, NaN and null left out)', () => {
  const typed = Float64Array.from([Number.NaN, 3, -2, Number.NaN, 7, 1]);
  const plain = [null, 3, -2, null, 7, 1];

  it('gives the smallest and largest value of every line within the indices in view', () => {
    assert.deepEqual(linesRange([typed], 0, 5), [-2, 7]);
    assert.deepEqual(linesRange([plain], 0, 5), [-2, 7]);
    assert.deepEqual(linesRange([typed, [10, null]], 0, 5), [-2, 10]);
    assert.deepEqual(linesRange([typed], 3, 5), [1, 7]);
    assert.deepEqual(linesRange([typed], 0, 1), [3, 3]);
    // A window past a line's end reads what it has.
    assert.deepEqual(linesRange([typed], 4, 99), [1, 7]);
  });

  it('is undefined when no line has a value there (NaN first does not poison it)', () => {
    assert.equal(linesRange([typed], 0, 0), undefined);
    assert.equal(linesRange([plain, Float64Array.from([Number.NaN])], 3, 3), undefined);
    assert.equal(linesRange([], 0, 10), undefined);
  });
});
