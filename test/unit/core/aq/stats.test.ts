// The views' statistics computed without sorting (selection, single passes) give exactly what sorting gives:
// checked against quantileSorted on seeded random, tied, ordered and reversed data, and on unordered times.
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../../src/core/aq/bootstrap';
import {
  distinctPeriods,
  distribution,
  exceedances,
  periodsWithValue,
  QUANTILE_DEFINITION,
  quantileSorted,
  quantilesInPlace,
} from '../../../../src/core/aq/stats';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 16, 0, 0, 0);

/** The same numbers on every run: the emulator's seeded generator (mulberry32). */
const random = mulberry32;

describe('core aq stats: quantiles by selection', () => {
  const QS = [0.5, 0.98, 0.25, 0.75, 0, 1, 0.01];
  const cases: Array<[string, Float64Array]> = [];
  const rnd = random(7);
  for (const n of [1, 2, 3, 5, 10, 97, 1000, 4321]) {
    cases.push([`random ${n}`, Float64Array.from({ length: n }, () => rnd() * 100 - 20)]);
    cases.push([`ties ${n}`, Float64Array.from({ length: n }, () => Math.round(rnd() * 8) / 2)]);
  }
  cases.push(['ascending', Float64Array.from({ length: 3000 }, (_, i) => i)]);
  cases.push(['descending', Float64Array.from({ length: 3000 }, (_, i) => -i)]);
  cases.push(['all equal', new Float64Array(2000).fill(4.2)]);
  cases.push(['organ pipe', Float64Array.from({ length: 3001 }, (_, i) => Math.min(i, 3000 - i))]);

  it('equal quantileSorted on the sorted values for every q, whatever the order and ties', () => {
    for (const [name, values] of cases) {
      const sorted = Float64Array.from(values).sort();
      const got = quantilesInPlace(Float64Array.from(values), values.length, QS);
      assert.deepEqual(
        got,
        QS.map((q) => quantileSorted(sorted, q)),
        name,
      );
    }
  });

  it('use only the first n values of a larger scratch array; NaN for none', () => {
    const scratch = Float64Array.from([5, 1, 3, 99, -99]);
    assert.deepEqual(quantilesInPlace(scratch, 3, [0.5, 1]), [3, 5]);
    assert.deepEqual(quantilesInPlace(new Float64Array(4), 0, [0.5]), [Number.NaN]);
  });

  it('distribution of table rows picked by index, into a reused scratch buffer', () => {
    const column = Float64Array.from([7, Number.NaN, 1, 100, 3, 5]);
    const d = distribution(column, [0, 1, 2, 4, 5], new Float64Array(10));
    assert.deepEqual(d, { count: 4, min: 1, mean: 4, median: 4, p98: 6.88, max: 7 });
  });
});

describe('core aq stats: periods without a Set', () => {
  it('distinct periods, ascending, of unordered times; values above a threshold only when given', () => {
    const times = [5, 0, 1, 5, 2, 0].map((h) => T0 + h * H + 60_000);
    const values = [40, 10, Number.NaN, 50, 36, 12];
    const base = Math.floor(T0 / H);
    assert.deepEqual(
      [...distinctPeriods(times, values, 'hour')].map((p) => p - base),
      [0, 2, 5],
    );
    assert.deepEqual(
      [...distinctPeriods(times, values, 'hour', 35)].map((p) => p - base),
      [2, 5],
    );
    assert.equal(periodsWithValue(times, values, 'hour'), 3);
  });

  it('exceedances of unordered times equal those of the same times in order', () => {
    const hours = [0, 1, 2, 3, 5, 6, 7, 8, 9];
    const values = [50, 50, 10, 50, 50, 50, 50, 20, 60];
    const inOrder = exceedances(
      hours.map((h) => T0 + h * H),
      values,
      35,
      'hour',
    );
    const perm = [4, 0, 8, 2, 6, 1, 7, 3, 5];
    const shuffled = exceedances(
      perm.map((k) => T0 + hours[k] * H),
      perm.map((k) => values[k]),
      35,
      'hour',
    );
    assert.deepEqual(shuffled, inOrder);
    assert.deepEqual(
      [inOrder.periods, inOrder.longestRun, inOrder.longestRunStart - T0, inOrder.first - T0, inOrder.last - T0],
      [7, 3, 5 * H, 0, 9 * H],
    );
  });
});

describe('core aq stats: the percentile definition the Summary names', () => {
  // Expected: numpy 2.4.6 np.percentile(x, [25, 50, 75, 98]) (default method 'linear', Hyndman–Fan type 7).
  it('equals numpy.percentile on 11 values: q25 3.75, median 7.7, q75 15.15, p98 88.06', () => {
    const x = [3.1, -0.4, 12.0, 7.7, 7.7, 35.5, 0.0, 9.05, 101.2, 4.4, 18.3];
    const d = distribution(x);
    const sorted = Float64Array.from(x).sort();
    assert.equal(d.median, 7.7);
    assert.ok(Math.abs(d.p98 - 88.06000000000004) < 1e-12, `${d.p98}`);
    assert.ok(Math.abs(quantileSorted(sorted, 0.25) - 3.75) < 1e-12);
    assert.ok(Math.abs(quantileSorted(sorted, 0.75) - 15.15) < 1e-12);
    assert.match(QUANTILE_DEFINITION, /Hyndman–Fan type 7.*numpy/);
  });
});
