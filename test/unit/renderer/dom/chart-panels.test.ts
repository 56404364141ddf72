// Two metrics in one panel: both charts placed on their union times, null where a chart has no value.
import assert from 'node:assert/strict';
import {
  hideInvalidText,
  pairedInvalidLabel,
  QC_INVALID_LABEL,
  realign,
  sharedRange,
  unionTimes,
} from '../../../../src/renderer/dom/chart-panels';
import type { ChartData } from '../../../../src/renderer/model/chart-series';

const chart = (xs: number[], values: Array<number | null>, invalid?: Array<number | null>): ChartData => ({
  xs,
  series: [{ label: 'D1', values }],
  omittedSeries: 0,
  points: values.length,
  invalid: invalid ? [invalid] : undefined,
  invalidCount: 0,
});

describe('renderer chart panels', () => {
  it('places each chart on the union of times, and the panels share the outer range', () => {
    const a = chart([10, 30], [1, 3], [null, 3]);
    const b = chart([20, 30, 40], [2, 4, 6]);
    const xs = unionTimes(a, b);
    assert.deepEqual(xs, [10, 20, 30, 40]);
    assert.deepEqual(realign(a, xs).series[0].values, [1, null, 3, null]);
    assert.deepEqual(realign(a, xs).invalid, [[null, null, 3, null]]);
    assert.deepEqual(realign(b, xs).series[0].values, [null, 2, 4, 6]);
    assert.deepEqual(sharedRange([a, b, chart([], [])]), [10, 40]);
    assert.equal(sharedRange([chart([], [])]), undefined);
  });

  it('two axes: each metric’s QC-invalid marks are labelled with the metric and its axis (the marks look alike)', () => {
    const left = pairedInvalidLabel('pm2_5ConcMassNowcast', 'left');
    const right = pairedInvalidLabel('no2Conc1HourMean', 'right');
    assert.equal(left, 'QC-invalid · pm2_5ConcMassNowcast (left axis)');
    assert.equal(right, 'QC-invalid · no2Conc1HourMean (right axis)');
    assert.ok(left.startsWith(QC_INVALID_LABEL) && right.startsWith(QC_INVALID_LABEL));
  });

  it('the Hide QC-invalid toggle counts the marks of every metric drawn (it hides them all), not the first alone', () => {
    assert.equal(
      hideInvalidText([{ invalidCount: 1200 }, { invalidCount: 34 }, { invalidCount: 0 }]),
      ' Hide QC-invalid (1,234)',
    );
    assert.equal(hideInvalidText([{ invalidCount: 0 }]), ' Hide QC-invalid (0)');
  });
});
