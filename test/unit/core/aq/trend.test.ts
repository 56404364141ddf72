// The Trend's numbers: Theil (1950) – Sen (1968) slope per year with Sen's rank-based 95 % interval, the
// Mann–Kendall p-value, deseasonalising, monthly means of local months, and the refusals. Expected values:
// scipy 1.17 (scipy.stats.theilslopes, scipy.stats.kendalltau(method='asymptotic'), scipy.special.erfc),
// printed by trend.check.py beside this file on the same series.
import assert from 'node:assert/strict';
import {
  erfc,
  lag1Autocorrelation,
  type MonthMean,
  mannKendall,
  monthlyMeans,
  theilSen,
  trend,
} from '../../../../src/core/aq/trend';
import { daysFromCivil } from '../../../../src/core/time/iso';

const M0 = (2023 - 1970) * 12; // 2023-01
// round(10 + 0.05 m + 3 sin(2π m / 12) + ((7919 m) mod 100) / 50 − 1, 1), m = 0..29 (trend.check.py prints it).
const Y = [
  9.0, 10.9, 12.5, 13.3, 13.3, 12.6, 9.6, 8.5, 7.8, 7.9, 8.7, 8.2, 10.2, 12.1, 13.6, 14.4, 12.5, 11.8, 10.7, 9.7, 9.0,
  9.0, 7.9, 9.4, 11.3, 13.3, 14.8, 13.6, 13.6, 13.0,
];
const MONTHS: MonthMean[] = Y.map((mean, i) => ({ month: M0 + i, mean, n: 720 }));
const X = Float64Array.from(MONTHS, (m) => m.month / 12);

const close = (actual: number, expected: number, tol = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)), `${actual} vs ${expected}`);

describe('core aq: Theil–Sen trend', () => {
  it('slope, intercept and 95 % interval as scipy.stats.theilslopes (Sen 1968 eq. 2.6, ties in y counted)', () => {
    const fit = theilSen(X, Y);
    // scipy.stats.theilslopes(y, x): slope 0.7999999999999972, intercept −32.26666666666651,
    // low 0.514285714285715 below zero: −0.514285714285715, high 1.9714285714285693.
    close(fit.slope, 0.7999999999999972);
    close(fit.intercept, -32.26666666666651);
    close(fit.low, -0.514285714285715);
    close(fit.high, 1.9714285714285693);
  });

  it('ties in y narrow the variance of S (Sen 1968 eq. 2.6; Mann–Kendall): as scipy on whole-number values', () => {
    const y = [1, 1, 2, 2, 2, 3, 1, 4, 4, 5, 3, 5, 6, 6, 5, 7, 2, 2, 8, 8];
    const x = y.map((_, i) => i / 12);
    const fit = theilSen(x, y);
    // trend.check.py ("ties"): theilslopes 4.363636363636364 [3.0, 5.0]; kendalltau p 0.00022555914023056494.
    close(fit.slope, 4.363636363636364);
    close(fit.low, 3);
    close(fit.high, 5);
    close(mannKendall(x, y).p, 0.00022555914023056494);
  });

  it('the Mann–Kendall p-value is scipy.stats.kendalltau(x, y, method="asymptotic")', () => {
    close(mannKendall(X, Y).p, 0.18584325144565483);
  });

  it('deseasonalising removes the mean seasonal cycle: the slope stands out (p 0.186 → 0.00038)', () => {
    const t = trend(MONTHS, true);
    assert.ok(t.ok);
    // trend.check.py: y − mean of its calendar month + mean of the twelve, then theilslopes and kendalltau.
    close(t.fit.slope, 0.6777777777777784);
    close(t.fit.low, 0.37333333333333485);
    close(t.fit.high, 1.0500000000000016);
    close(t.test.p, 0.00037921996824387817);
    assert.equal(t.deseasonalised, true);
  });

  it('notes a short series and reports the lag-1 autocorrelation of the residuals', () => {
    const t = trend(MONTHS);
    assert.ok(t.ok);
    close(t.r1, 0.8023534319779355); // trend.check.py: residuals from scipy's line
    assert.match(
      t.notes.join(' '),
      /Short series \(30 months, fewer than 36\).*lag-1 autocorrelation of the residuals 0\.80/,
    );
    assert.equal(lag1Autocorrelation([1, 2]), Number.NaN);
  });

  it('refuses honestly: fewer than 12 months; deseasonalising with fewer than 24 or a month missing', () => {
    const short = trend(MONTHS.slice(0, 11));
    assert.ok(!short.ok);
    assert.equal(short.reason, 'A trend needs at least 12 monthly means (11 here): query a longer range.');
    assert.ok(trend(MONTHS.slice(0, 12)).ok);
    const season = trend(MONTHS.slice(0, 23), true);
    assert.ok(!season.ok);
    assert.match(season.reason, /at least 24 monthly means .* \(23 months here\)/);
    const gap = trend(
      [...MONTHS.slice(0, 13), ...MONTHS.slice(14, 30)].filter((m) => (m.month - M0) % 12 !== 5),
      true,
    );
    assert.ok(!gap.ok);
    assert.match(gap.reason, /no value in Jun/);
  });

  it('erfc as scipy.special.erfc to 1e-14 (series below 1, continued fraction above)', () => {
    const expected: Array<[number, number]> = [
      [0.1, 0.8875370839817152],
      [1.0, 0.15729920705028516],
      [1.9, 0.007209570764742531],
      [2.1, 0.0029794666563329845],
      [4.0, 1.541725790028002e-8],
      [6.5, 3.842148327120647e-20],
    ];
    for (const [x, e] of expected) assert.ok(Math.abs(erfc(x) - e) <= 1e-14 * e, `erfc(${x}) = ${erfc(x)} vs ${e}`);
    close(erfc(-1), 2 - 0.15729920705028516);
  });
});

describe('core aq: monthly means of local months', () => {
  it('means of all values in the month; UTC−7 moves 2026-02-01 00:00–06:59 UTC into January', () => {
    const H = 3_600_000;
    const feb1 = daysFromCivil(2026, 2, 1) * 24 * H;
    // Hours of 2026-01-31 22:00 UTC … 2026-02-01 09:00 UTC, value = the index (0..11); plus one minute value.
    const times = Array.from({ length: 12 }, (_, i) => feb1 - 2 * H + i * H);
    const values = Array.from({ length: 12 }, (_, i) => i);
    times.push(feb1 + 60_000);
    values.push(100);
    const jan = (2026 - 1970) * 12;
    // UTC: January = hours 0, 1 (mean 0.5, n 2); February = 2..11 and 100: (65 + 100) / 11 = 15.
    assert.deepEqual(monthlyMeans(times, values), [
      { month: jan, mean: 0.5, n: 2 },
      { month: jan + 1, mean: 15, n: 11 },
    ]);
    // UTC−7: January holds UTC hours up to 06:59 on 02-01 (indices 0..8 and the minute value): (36 + 100) / 10.
    const minus7 = (ms: number) => Math.floor((ms - 7 * H) / (24 * H));
    assert.deepEqual(monthlyMeans(times, values, minus7), [
      { month: jan, mean: 13.6, n: 10 },
      { month: jan + 1, mean: 10, n: 3 },
    ]);
  });
});
