// The Trend view's numbers, as openair's TheilSen: monthly means (of local months), optionally deseasonalised
// (the mean seasonal cycle removed), the Theil–Sen slope per year (Theil 1950, Sen 1968) with Sen's rank-based
// 95 % confidence interval (equation 2.6 of Sen 1968, as scipy.stats.theilslopes computes it; openair bootstraps
// instead), the Mann–Kendall p-value (the normal approximation with tie correction, as
// scipy.stats.kendalltau(method='asymptotic')), and the lag-1 autocorrelation of the residuals.

import { HOUR_MS } from '../time/duration';
import { civilFromDays } from '../time/zone';
import { type DayOf, utcDayOf } from './calendar';
import { meanByPeriod } from './stats';

export interface MonthMean {
  /** Months since 1970-01 of the local month ((year − 1970) · 12 + month − 1). */
  month: number;
  mean: number;
  /** Values in the month. */
  n: number;
}

/** The month index (months since 1970-01) of a local day. */
function monthOfDay(day: number): number {
  const { year, month } = civilFromDays(day);
  return (year - 1970) * 12 + month - 1;
}

/** Each local month's mean of its values (openair timeAverage(avg.time = 'month'), data.thresh 0), ascending. */
export function monthlyMeans(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  dayOf: DayOf = utcDayOf,
): MonthMean[] {
  const months = new Map<number, [number, number]>();
  const monthByDay = new Map<number, number>();
  for (const [hour, [sum, n]] of meanByPeriod(times, values, 'hour')) {
    const day = dayOf(hour * HOUR_MS);
    let month = monthByDay.get(day);
    if (month === undefined) {
      month = monthOfDay(day);
      monthByDay.set(day, month);
    }
    const m = months.get(month);
    if (m) {
      m[0] += sum;
      m[1] += n;
    } else months.set(month, [sum, n]);
  }
  return [...months].sort((a, b) => a[0] - b[0]).map(([month, [sum, n]]) => ({ month, mean: sum / n, n }));
}

/**
 * The series without its mean seasonal cycle: each value less its calendar month's mean over the series, plus
 * the mean of those twelve means (so the level stays). Every calendar month needs a value.
 */
function deseasonalise(months: readonly MonthMean[]): Float64Array {
  const sums = new Float64Array(12);
  const counts = new Float64Array(12);
  for (const m of months) {
    const k = ((m.month % 12) + 12) % 12;
    sums[k] += m.mean;
    counts[k]++;
  }
  const cycle = Array.from(sums, (s, k) => s / counts[k]);
  const level = cycle.reduce((a, b) => a + b, 0) / 12;
  return Float64Array.from(months, (m) => m.mean - cycle[((m.month % 12) + 12) % 12] + level);
}

/** The median of ascending values (numpy's: the mean of the middle two when even). */
function medianSorted(s: ArrayLike<number>): number {
  const n = s.length;
  if (!n) return Number.NaN;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Rounds half to even, as numpy.round (scipy's index of the interval's ends). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Σ t(t − 1)(2t + 5) over the groups of tied values: the ties' share of Kendall's S variance. */
function tieTerm(v: ArrayLike<number>): number {
  const s = Float64Array.from(v).sort();
  let sum = 0;
  let i = 0;
  while (i < s.length) {
    let j = i + 1;
    while (j < s.length && s[j] === s[i]) j++;
    const t = j - i;
    sum += t * (t - 1) * (2 * t + 5);
    i = j;
  }
  return sum;
}

/** The 97.5 % point of the standard normal (scipy.stats.norm.ppf(0.975)). */
const Z_975 = 1.959963984540054;

interface TheilSen {
  n: number;
  slope: number;
  /** median(y) − slope · median(x) (scipy's method 'separate'). */
  intercept: number;
  /** Sen's 95 % confidence interval of the slope (rank-based). */
  low: number;
  high: number;
}

/** Theil–Sen: the median of the pairwise slopes, with Sen's rank-based 95 % interval (scipy.stats.theilslopes). */
export function theilSen(x: ArrayLike<number>, y: ArrayLike<number>): TheilSen {
  const n = Math.min(x.length, y.length);
  const slopes = new Float64Array((n * (n - 1)) / 2);
  let k = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (x[i] > x[j]) slopes[k++] = (y[i] - y[j]) / (x[i] - x[j]);
  const s = slopes.subarray(0, k).sort();
  const slope = medianSorted(s);
  const intercept = medianSorted(Float64Array.from(y).sort()) - slope * medianSorted(Float64Array.from(x).sort());
  // Sen (1968) equation 2.6: the variance of Kendall's S, less the ties of x and of y.
  const sigma = Math.sqrt((n * (n - 1) * (2 * n + 5) - tieTerm(x) - tieTerm(y)) / 18);
  const upper = Math.min(roundHalfEven((k + Z_975 * sigma) / 2), k - 1);
  const lower = Math.max(roundHalfEven((k - Z_975 * sigma) / 2) - 1, 0);
  return { n, slope, intercept, low: k ? s[lower] : Number.NaN, high: k ? s[upper] : Number.NaN };
}

interface MannKendall {
  /** Kendall's S: concordant minus discordant pairs of (x, y). */
  s: number;
  /** Its variance under no trend, corrected for ties in y. */
  variance: number;
  z: number;
  /** Two-sided p-value of no trend. */
  p: number;
}

/** The Mann–Kendall test of a monotonic trend in y over distinct x (normal approximation, no continuity correction). */
export function mannKendall(x: ArrayLike<number>, y: ArrayLike<number>): MannKendall {
  const n = Math.min(x.length, y.length);
  let s = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) s += Math.sign(x[j] - x[i]) * Math.sign(y[j] - y[i]);
  const variance = (n * (n - 1) * (2 * n + 5) - tieTerm(y)) / 18;
  const z = variance > 0 ? s / Math.sqrt(variance) : Number.NaN;
  return { s, variance, z, p: Number.isNaN(z) ? Number.NaN : erfc(Math.abs(z) / Math.SQRT2) };
}

/**
 * The complementary error function to about 1e-15: its power series below 1, Lentz's continued fraction above
 * (Abramowitz & Stegun 7.1.5 and 7.1.14).
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x < 0) return 2 - erfc(-x);
  if (x < 1) {
    // erf x = 2/√π Σ (−1)^k x^(2k+1) / (k! (2k+1))
    let term = x;
    let sum = x;
    for (let k = 1; k < 60; k++) {
      term *= (-x * x) / k;
      const add = term / (2 * k + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc x = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …)))))
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 2000; k++) {
    const a = k / 2;
    d = x + a * d;
    d = d === 0 ? tiny : 1 / d;
    c = x + a / c;
    if (c === 0) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** Lag-1 autocorrelation of a series over consecutive entries (NaN with fewer than 3 values). */
export function lag1Autocorrelation(v: ArrayLike<number>): number {
  const n = v.length;
  if (n < 3) return Number.NaN;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += v[i];
  mean /= n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = v[i] - mean;
    den += d * d;
    if (i + 1 < n) num += d * (v[i + 1] - mean);
  }
  return den > 0 ? num / den : Number.NaN;
}

/** Fewer monthly means than this and there is no trend to speak of: the view refuses. */
export const MIN_TREND_MONTHS = 12;
/** Removing the seasonal cycle needs two years (and every calendar month present). */
const MIN_DESEASON_MONTHS = 24;
/** Below this many months, serial correlation cannot be judged: the view says so. */
const SHORT_SERIES_MONTHS = 36;

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export type TrendResult =
  | { ok: false; reason: string; months: readonly MonthMean[] }
  | {
      ok: true;
      months: readonly MonthMean[];
      /** Years since 1970 of each month (its index / 12): the slope is per year. */
      x: Float64Array;
      /** The monthly means the slope is fitted to (deseasonalised when asked). */
      y: Float64Array;
      deseasonalised: boolean;
      fit: TheilSen;
      test: MannKendall;
      /** Lag-1 autocorrelation of the residuals from the Theil–Sen line. */
      r1: number;
      /** Caveats in words (autocorrelation, a short series). */
      notes: string[];
    };

/** Why a series cannot be deseasonalised, or undefined when it can. */
function deseasonRefusal(months: readonly MonthMean[]): string | undefined {
  const present = new Set(months.map((m) => ((m.month % 12) + 12) % 12));
  const missing = MONTH_NAMES.filter((_, k) => !present.has(k));
  if (months.length >= MIN_DESEASON_MONTHS && !missing.length) return undefined;
  const lack = missing.length ? `; no value in ${missing.join(', ')}` : '';
  return `Deseasonalising needs at least ${MIN_DESEASON_MONTHS} monthly means with every calendar month present (${months.length} months here${lack}).`;
}

/** The caveats about serial correlation: a short series, or residuals correlated beyond 1.96/√n. */
function autocorrelationNotes(n: number, r1: number): string[] {
  const r = Number.isNaN(r1) ? '—' : r1.toFixed(2);
  if (n < SHORT_SERIES_MONTHS)
    return [
      `Short series (${n} months, fewer than ${SHORT_SERIES_MONTHS}): serial correlation cannot be judged or allowed for, and the interval and p-value assume independent months (lag-1 autocorrelation of the residuals ${r}).`,
    ];
  if (r1 > Z_975 / Math.sqrt(n))
    return [
      `The residuals are autocorrelated (lag-1 r = ${r} > 1.96/√${n}): the interval is too narrow and the p-value too small (openair's TheilSen(autocor = TRUE) widens them by a block bootstrap).`,
    ];
  return [];
}

/** A trend of monthly means: refused below 12 months (and deseasonalising below 24 or with a calendar month missing). */
export function trend(months: readonly MonthMean[], deseason = false): TrendResult {
  if (months.length < MIN_TREND_MONTHS)
    return {
      ok: false,
      months,
      reason: `A trend needs at least ${MIN_TREND_MONTHS} monthly means (${months.length} here): query a longer range.`,
    };
  if (deseason) {
    const reason = deseasonRefusal(months);
    if (reason) return { ok: false, months, reason };
  }
  const x = Float64Array.from(months, (m) => m.month / 12);
  const y = deseason ? deseasonalise(months) : Float64Array.from(months, (m) => m.mean);
  const fit = theilSen(x, y);
  const residuals = y.map((v, i) => v - (fit.intercept + fit.slope * x[i]));
  const r1 = lag1Autocorrelation(residuals);
  return {
    ok: true,
    months,
    x,
    y,
    deseasonalised: deseason,
    fit,
    test: mannKendall(x, y),
    r1,
    notes: autocorrelationNotes(months.length, r1),
  };
}
