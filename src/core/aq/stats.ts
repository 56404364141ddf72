// Statistics the air-quality views show, on plain numbers: distribution (min/mean/median/p98/max),
// completeness for an output frequency, exceedances, time-variation profiles (hour, weekday, hour of week,
// month; with a seeded bootstrap interval of the mean), OLS and sensor-vs-reference pairing with EPA's PM2.5
// sensor performance targets (the full evaluation: evaluation.ts). Times are epoch milliseconds (UTC); NaN is
// "no value".
// Days, hours of day and weekdays are local to a Zone (core/time/zone: an IANA zone and a day boundary, clock
// or standard; UTC by default).
//
// Valid averages (75 %): an hour built from minutes needs 45 of its 60 minutes (sensortoolkit, EPA/600/R-20/280);
// a day needs 75 % of its hour periods: 18 of 24 (40 CFR Part 50 Appendix N, EPA's 24-hour PM2.5 rule). A clock
// day with a DST change has 23 or 25 hour periods; the rule stays 75 % of them, rounded up: 18 of 23, 19 of 25
// (`minValidHours`). EPA itself counts days in local standard time, where every day has 24 (boundary `standard`).
import { type OutputFrequency, PERIOD_MS } from '../api/types';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/duration';
import { civilFromDays, UTC, type Zone } from '../time/zone';
import { bootstrapMeans, mulberry32 } from './bootstrap';

/** The output frequency whose period fits the spacing of the times best (the median gap); hour when unknown. */
export function inferFrequency(times: ArrayLike<number>): OutputFrequency {
  const sorted = Float64Array.from(times).filter((t) => !Number.isNaN(t));
  sorted.sort();
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length && gaps.length < 2000; i++)
    if (sorted[i] > sorted[i - 1]) gaps.push(sorted[i] - sorted[i - 1]);
  if (!gaps.length) return 'hour';
  gaps.sort((a, b) => a - b);
  const g = gaps[Math.floor(gaps.length / 2)];
  if (g < 30 * MINUTE_MS) return 'minute';
  if (g < 12 * HOUR_MS) return 'hour';
  return 'day';
}

/** The quantile definition of `quantileSorted` (and so of every median, p98 and quartile shown), in words. */
export const QUANTILE_DEFINITION =
  "Hyndman–Fan type 7: linear interpolation between order statistics at (n − 1)·p (numpy.percentile's default, R's quantile type 7, Excel PERCENTILE.INC)";

/** Linear-interpolation quantile (numpy's default, R type 7) of ascending values; NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (!n) return Number.NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

interface Distribution {
  count: number;
  min: number;
  mean: number;
  median: number;
  p98: number;
  max: number;
}

/**
 * Puts the k-th smallest of a[lo..hi] at a[k], smaller-or-equal values before it and greater-or-equal
 * after it (quickselect: O(n) on average; a sort of the range when partitioning goes badly). NaN-free input.
 */
function selectKth(a: Float64Array, k: number, lo = 0, hi = a.length - 1): void {
  let budget = 2 * Math.ceil(Math.log2(hi - lo + 2)) + 8;
  while (hi > lo) {
    if (budget-- === 0) {
      a.subarray(lo, hi + 1).sort();
      return;
    }
    const mid = (lo + hi) >>> 1;
    const x = a[lo];
    const y = a[mid];
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), a[hi])); // median of three
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * Quantiles of the first n values of `a` (NaN-free), as quantileSorted would give them on the sorted values,
 * found by selection (no sort). Reorders `a`. `qs` in any order; the result in the same order.
 */
export function quantilesInPlace(a: Float64Array, n: number, qs: readonly number[]): number[] {
  const out = new Array<number>(qs.length).fill(Number.NaN);
  if (!n) return out;
  // Highest first: after selecting index `lo`, a[0..lo] are the lo+1 smallest, so lower ones select inside.
  const order = qs.map((_, i) => i).sort((x, y) => qs[y] - qs[x]);
  // a[bound+1..n-1] are all >= a[0..bound]; `above` is their minimum (the neighbour needed to interpolate).
  let bound = n - 1;
  let above = Number.POSITIVE_INFINITY;
  for (const i of order) {
    const pos = (n - 1) * qs[i];
    const lo = Math.floor(pos);
    selectKth(a, lo, 0, bound);
    let next = above;
    for (let j = lo + 1; j <= bound; j++) if (a[j] < next) next = a[j];
    // The same arithmetic as quantileSorted (so even -0 comes out alike).
    out[i] = a[lo] + ((lo + 1 < n ? next : a[lo]) - a[lo]) * (pos - lo);
    bound = lo;
    above = next;
  }
  return out;
}

/**
 * Distribution of the values (NaN left out), or of `values[rows[i]]` when rows are given. Copies them
 * (into `scratch` when it is large enough); quantiles by selection, not by sorting.
 */
export function distribution(
  values: ArrayLike<number>,
  rows?: ArrayLike<number>,
  scratch?: Float64Array,
): Distribution {
  const size = rows ? rows.length : values.length;
  const v = scratch && scratch.length >= size ? scratch : new Float64Array(size);
  let n = 0;
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < size; i++) {
    const x = rows ? values[rows[i]] : values[i];
    if (Number.isNaN(x)) continue;
    v[n++] = x;
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const [median, p98] = quantilesInPlace(v, n, [0.5, 0.98]);
  return {
    count: n,
    min: n ? min : Number.NaN,
    mean: n ? sum / n : Number.NaN,
    median,
    p98,
    max: n ? max : Number.NaN,
  };
}

/** The period (index since the epoch) a time falls in. */
function periodOf(ms: number, frequency: OutputFrequency): number {
  return Math.floor(ms / PERIOD_MS[frequency]);
}

/** Periods from the one holding `from` to the one holding `to`, both included (0 for an empty range). */
export function expectedPeriods(from: number, to: number, frequency: OutputFrequency): number {
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) return 0;
  return periodOf(to, frequency) - periodOf(from, frequency) + 1;
}

/**
 * The distinct periods, ascending, of the times that have a value (above `above` when given; NaN times and
 * values left out). Time-ordered input needs no sort.
 */
export function distinctPeriods(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  frequency: OutputFrequency,
  above?: number,
): Float64Array {
  const step = PERIOD_MS[frequency];
  const p = new Float64Array(times.length);
  let n = 0;
  let sorted = true;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    const v = values[i];
    if (Number.isNaN(t) || Number.isNaN(v) || (above !== undefined && !(v > above))) continue;
    const q = Math.floor(t / step);
    if (n && q < p[n - 1]) sorted = false;
    p[n++] = q;
  }
  const out = p.subarray(0, n);
  if (!sorted) out.sort();
  let k = 0;
  for (let i = 0; i < n; i++) if (k === 0 || out[i] !== out[k - 1]) out[k++] = out[i];
  return out.subarray(0, k);
}

/** Distinct periods that have a value (counted in one pass when the times are in order). */
export function periodsWithValue(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  frequency: OutputFrequency,
): number {
  const step = PERIOD_MS[frequency];
  let count = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (Number.isNaN(t) || Number.isNaN(values[i])) continue;
    const q = Math.floor(t / step);
    if (q < last) return distinctPeriods(times, values, frequency).length;
    if (q !== last) count++;
    last = q;
  }
  return count;
}

/** Completeness in percent: periods with a value over expected periods (0 when none expected). */
export function completenessPercent(withValue: number, expected: number): number {
  return expected > 0 ? Math.min(100, (100 * withValue) / expected) : 0;
}

export interface Exceedances {
  /** Periods whose value is above the threshold. */
  periods: number;
  /** The longest run of consecutive periods above it. */
  longestRun: number;
  /** Start of the longest run (ms), NaN when there is none. */
  longestRunStart: number;
  first: number;
  last: number;
}

/**
 * Exceedances of a series: values strictly above `threshold`. Several values in one period count once
 * (the period is above when any value is); a run breaks at a period that is below or has no value.
 */
export function exceedances(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  threshold: number,
  frequency: OutputFrequency,
): Exceedances {
  let first = Number.NaN;
  let last = Number.NaN;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    const v = values[i];
    if (Number.isNaN(t) || Number.isNaN(v) || !(v > threshold)) continue;
    if (!(t >= first)) first = t;
    if (!(t <= last)) last = t;
  }
  const periods = distinctPeriods(times, values, frequency, threshold);
  let longest = 0;
  let longestStart = Number.NaN;
  let run = 0;
  for (let i = 0; i < periods.length; i++) {
    run = i > 0 && periods[i] === periods[i - 1] + 1 ? run + 1 : 1;
    if (run > longest) {
      longest = run;
      longestStart = periods[i - run + 1] * PERIOD_MS[frequency];
    }
  }
  return { periods: periods.length, longestRun: longest, longestRunStart: longestStart, first, last };
}

export interface ProfilePoint {
  mean: number;
  q25: number;
  q75: number;
  n: number;
  /** The percentile bootstrap 95 % confidence interval of the mean, when asked for (`ProfileCi`). */
  ciLow?: number;
  ciHigh?: number;
}

/** What a profile groups by: hour of day, weekday (Monday first), hour of the week (weekday · 24 + hour), month. */
export type ProfileBy = 'hour' | 'weekday' | 'hourWeekday' | 'month';

/** Buckets of each grouping. */
const PROFILE_BUCKETS: Readonly<Record<ProfileBy, number>> = {
  hour: 24,
  weekday: 7,
  hourWeekday: 168,
  month: 12,
};

/** A seeded bootstrap of each bucket's mean (bootstrap.ts): the same seed draws the same band. */
export interface ProfileCi {
  seed: number;
  resamples?: number;
}

/**
 * The bucket of each local time (ms of the local clock since 1970-01-01T00:00): `month` reads the civil date.
 * The day's part is computed once per day (times in order are mostly the same day as the last).
 */
function bucketer(by: ProfileBy): (local: number) => number {
  let lastDay = Number.NaN;
  let dayPart = 0;
  return (local) => {
    const day = Math.floor(local / DAY_MS);
    if (day !== lastDay) {
      lastDay = day;
      const weekday = (((day + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday
      dayPart = by === 'month' ? civilFromDays(day).month - 1 : by === 'hour' ? 0 : weekday;
    }
    if (by === 'month' || by === 'weekday') return dayPart;
    const hour = Math.floor((local - day * DAY_MS) / HOUR_MS);
    return by === 'hour' ? hour : dayPart * 24 + hour;
  };
}

/** Each bucket's own generator: its seed mixed with the bucket (a bucket's band does not depend on the others). */
function bucketRandom(ci: ProfileCi, bucket: number): () => number {
  return mulberry32((ci.seed ^ Math.imul(bucket + 1, 0x9e3779b1)) >>> 0);
}

/**
 * Above this many values a bucket's interval is the normal one (the bootstrap's limit), to stay fast: 12 lines ×
 * 4 panels of buckets up to this size draw at most ~40M values (~0.5 s); the bootstrap matters for small buckets,
 * where the mean's distribution may be skewed.
 */
export const BOOTSTRAP_MAX_VALUES = 100;

/**
 * The 95 % interval of a mean: the percentile bootstrap (seeded) up to BOOTSTRAP_MAX_VALUES values; above, the
 * normal interval mean ± 1.96·s/√n, which the bootstrap's interval tends to as n grows (drawing 200 resamples of
 * every bucket of a million values would take seconds). [NaN, NaN] for no value; [mean, mean] for one.
 */
export function meanInterval(
  values: ArrayLike<number>,
  mean: number,
  random: () => () => number,
  resamples?: number,
): [number, number] {
  const n = values.length;
  if (n <= BOOTSTRAP_MAX_VALUES) {
    const means = bootstrapMeans(values, random(), resamples);
    return [quantileSorted(means, 0.025), quantileSorted(means, 0.975)];
  }
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - mean) ** 2;
  const half = (1.959963984540054 * Math.sqrt(ss / (n - 1))) / Math.sqrt(n);
  return [mean - half, mean + half];
}

/**
 * Mean and interquartile range of the values by a bucket of their local time (openair's timeVariation panels:
 * hour of day 0-23, weekday 0-6 Monday first, hour of the week 0-167, month 0-11), or with `ci` the bootstrap
 * 95 % interval of each mean instead of the quartiles (NaN then: a view draws one band or the other); local to
 * the zone (core/time/zone: its day boundary, civil or standard time; UTC by default).
 */
export function profile(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  by: ProfileBy,
  zone: Zone = UTC,
  ci?: ProfileCi,
): ProfilePoint[] {
  const size = PROFILE_BUCKETS[by];
  // Bucket of each value (255 = none), then the values laid out bucket by bucket (a counting sort).
  const bucket = new Uint8Array(times.length).fill(255);
  const counts = new Uint32Array(size + 1);
  const bucketOf = bucketer(by);
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (Number.isNaN(t) || Number.isNaN(values[i])) continue;
    const b = bucketOf(t + zone.dayOffsetMs(t));
    bucket[i] = b;
    counts[b + 1]++;
  }
  for (let b = 0; b < size; b++) counts[b + 1] += counts[b];
  const laid = new Float64Array(counts[size]);
  const fill = counts.slice(0, size);
  for (let i = 0; i < times.length; i++) if (bucket[i] !== 255) laid[fill[bucket[i]]++] = values[i];
  return Array.from({ length: size }, (_, b): ProfilePoint => {
    const s = laid.subarray(counts[b], counts[b + 1]);
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += s[i];
    const point: ProfilePoint = {
      mean: s.length ? sum / s.length : Number.NaN,
      q25: Number.NaN,
      q75: Number.NaN,
      n: s.length,
    };
    if (ci) [point.ciLow, point.ciHigh] = meanInterval(s, point.mean, () => bucketRandom(ci, b), ci.resamples);
    if (!ci) [point.q25, point.q75] = quantilesInPlace(s, s.length, [0.25, 0.75]);
    return point;
  });
}

export interface Regression {
  n: number;
  slope: number;
  intercept: number;
  r2: number;
  /** Root mean square of (y − x): the sensor's error against the reference, as EPA's targets define it. */
  rmse: number;
  /** Mean of (y − x). */
  meanBias: number;
  /**
   * RMSE over the mean of x (the reference) × 100, in % (EPA/600/R-20/280 as sensortoolkit computes it,
   * `calculate/_rmse.py`: nRMSE = RMSE / mean(reference) × 100); NaN when that mean is not positive.
   */
  nrmse: number;
}

/** Ordinary least squares of y on x (y = slope·x + intercept), with R², and RMSE, NRMSE and bias of y against x. */
export function ols(x: ArrayLike<number>, y: ArrayLike<number>): Regression {
  const n = Math.min(x.length, y.length);
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let sd2 = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
    const d = y[i] - x[i];
    sd2 += d * d;
  }
  const slope = sxx > 0 ? sxy / sxx : Number.NaN;
  const rmse = n ? Math.sqrt(sd2 / n) : Number.NaN;
  return {
    n,
    slope,
    intercept: my - slope * mx,
    r2: sxx > 0 && syy > 0 ? (sxy * sxy) / (sxx * syy) : Number.NaN,
    rmse,
    meanBias: n ? my - mx : Number.NaN,
    nrmse: n && mx > 0 ? (100 * rmse) / mx : Number.NaN,
  };
}

interface Pairs {
  /** Period start (ms) of each pair. */
  times: Float64Array;
  sensor: Float64Array;
  reference: Float64Array;
  /** Periods from the first to the last period either series has a value in. */
  expected: number;
  completenessPercent: number;
}

/** Sum and count of the values in each period (index since the epoch) that has one. */
export function meanByPeriod(times: ArrayLike<number>, values: ArrayLike<number>, frequency: OutputFrequency) {
  const sums = new Map<number, [number, number]>();
  for (let i = 0; i < times.length; i++) {
    if (Number.isNaN(times[i]) || Number.isNaN(values[i])) continue;
    const p = periodOf(times[i], frequency);
    const e = sums.get(p);
    if (e) {
      e[0] += values[i];
      e[1]++;
    } else sums.set(p, [values[i], 1]);
  }
  return sums;
}

/** A series: times (epoch ms) and values, NaN for none. */
interface TimeSeries {
  times: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** How a series' days are made: the zone and boundary of its days, and the frequency of its values. */
interface DayOptions {
  /** The zone of the days (UTC by default). */
  zone?: Zone;
  /** The values' output frequency (inferred from the times' spacing when not given): minutes make hours by the 45-of-60 rule. */
  frequency?: OutputFrequency;
}

/** Pairs a sensor's values with a reference's by period: each side's valid averages (`periodMeans`) in the periods both have. */
export function pairByPeriod(
  sensor: TimeSeries,
  reference: TimeSeries,
  frequency: OutputFrequency,
  options: { zone?: Zone; sensorFrequency?: OutputFrequency; referenceFrequency?: OutputFrequency } = {},
): Pairs {
  const zone = options.zone ?? UTC;
  const s = periodMeans(sensor, frequency, { zone, frequency: options.sensorFrequency }).means;
  const r = periodMeans(reference, frequency, { zone, frequency: options.referenceFrequency }).means;
  const periods = [...s.keys()].filter((p) => r.has(p)).sort((a, b) => a - b);
  const span = [...spanOf(sensor, frequency, zone), ...spanOf(reference, frequency, zone)];
  const lo = Math.min(...span);
  const hi = Math.max(...span);
  const expected = hi >= lo ? hi - lo + 1 : 0;
  return {
    times: Float64Array.from(periods, (p) => periodStart(p, frequency, zone)),
    sensor: Float64Array.from(periods, (p) => s.get(p)!),
    reference: Float64Array.from(periods, (p) => r.get(p)!),
    expected,
    completenessPercent: completenessPercent(periods.length, expected),
  };
}

/** The first and last period (minute, hour or local day index) a series has a value in; [] when none. */
function spanOf(series: TimeSeries, frequency: OutputFrequency, zone: Zone): number[] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < series.times.length; i++) {
    const t = series.times[i];
    if (Number.isNaN(t) || Number.isNaN(series.values[i])) continue;
    const p = frequency === 'day' ? zone.dayKey(t) : periodOf(t, frequency);
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  return lo <= hi ? [lo, hi] : [];
}

/** The start (ms) of a period: a minute or hour index, or a local day of the zone. */
export function periodStart(period: number, frequency: OutputFrequency, zone: Zone = UTC): number {
  return frequency === 'day' ? zone.dayStart(period) : period * PERIOD_MS[frequency];
}

/**
 * A series' valid averages per period of `frequency` (minute or hour index, or local day of the zone) and the
 * periods left out by the 75 % rules: minutes as they are (each minute's mean); hours by `hourlyMeans`; days by
 * `dailyMeans` (daily values as they are, by the local day they start in).
 */
function periodMeans(series: TimeSeries, frequency: OutputFrequency, options: DayOptions = {}): ValidAverages {
  const given = options.frequency ?? inferFrequency(series.times);
  if (frequency === 'day') {
    const { means, incompleteDays } = dailyMeans(series.times, series.values, { ...options, frequency: given });
    return { means, incomplete: incompleteDays };
  }
  if (frequency === 'hour') return hourlyMeans(series.times, series.values, given === 'minute');
  const means = new Map<number, number>();
  for (const [p, [sum, n]] of meanByPeriod(series.times, series.values, frequency)) means.set(p, sum / n);
  return { means, incomplete: 0 };
}

export interface TargetCheck {
  name: string;
  target: string;
  value: number;
  met: boolean;
}

/** Within [lo, hi], both included (EPA's target ranges as sensortoolkit checks them: `min <= val <= max`). */
function within(v: number, lo: number, hi: number): boolean {
  return v >= lo && v <= hi;
}

/**
 * EPA's base-testing targets for PM2.5 air sensors (EPA/600/R-20/280 Table ES-1; sensortoolkit
 * `param/_targets.py`): slope 1.0 ± 0.35, intercept −5..5 µg/m³, R² ≥ 0.70, and the error target
 * RMSE ≤ 7 µg/m³ or NRMSE ≤ 30 % (met when either is: both rows carry that one verdict).
 */
export function pm25SensorTargets(fit: Regression): TargetCheck[] {
  const error = within(fit.rmse, 0, 7) || within(fit.nrmse, 0, 30);
  return [
    { name: 'Slope', target: '1.0 ± 0.35', value: fit.slope, met: within(fit.slope, 0.65, 1.35) },
    { name: 'Intercept', target: '−5 to 5 µg/m³', value: fit.intercept, met: within(fit.intercept, -5, 5) },
    { name: 'R²', target: '≥ 0.70', value: fit.r2, met: within(fit.r2, 0.7, 1) },
    { name: 'RMSE', target: '≤ 7 µg/m³, or NRMSE ≤ 30 %', value: fit.rmse, met: error },
    { name: 'NRMSE', target: '≤ 30 %, or RMSE ≤ 7 µg/m³', value: fit.nrmse, met: error },
  ];
}

/** EPA's rule for a valid 24-hour average: at least 75 % of its hours, 18 of 24. */
export const MIN_HOURS_PER_DAY = 18;
/** EPA's rule for a valid hourly average of sensor minutes (sensortoolkit): at least 75 % of them, 45 of 60. */
export const MIN_MINUTES_PER_HOUR = 45;

/** Valid averages by period index (minutes, hours or local days since the epoch), and how many periods were left out. */
export interface ValidAverages {
  means: Map<number, number>;
  /** Periods with some values but below the 75 % completeness rule. */
  incomplete: number;
}

/**
 * Hourly means. From minute data (`fromMinutes`) each minute is averaged first and an hour is valid with at
 * least `minMinutes` minutes (75 %: 45 of 60); coarser data gives each hour the mean of its values.
 */
export function hourlyMeans(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  fromMinutes: boolean,
  minMinutes = MIN_MINUTES_PER_HOUR,
): ValidAverages {
  const means = new Map<number, number>();
  if (!fromMinutes) {
    for (const [hour, [sum, n]] of meanByPeriod(times, values, 'hour')) means.set(hour, sum / n);
    return { means, incomplete: 0 };
  }
  const hours = new Map<number, [number, number]>();
  for (const [minute, [sum, n]] of meanByPeriod(times, values, 'minute')) {
    const hour = Math.floor(minute / 60);
    const h = hours.get(hour);
    if (h) {
      h[0] += sum / n;
      h[1]++;
    } else hours.set(hour, [sum / n, 1]);
  }
  let incomplete = 0;
  for (const [hour, [sum, n]] of hours) {
    if (n >= minMinutes) means.set(hour, sum / n);
    else incomplete++;
  }
  return { means, incomplete };
}

/**
 * The hour periods (UTC hours, as the service stamps them) that start in a local day: 24, or 23 / 25 on a clock
 * day with a DST change (Lord Howe's 23.5 / 24.5-hour days: 23 / 25; Kathmandu's days at :15 past: 24).
 */
export function hoursOfDay(zone: Zone, day: number): number {
  return Math.ceil(zone.dayEnd(day) / HOUR_MS) - Math.ceil(zone.dayStart(day) / HOUR_MS);
}

/** Valid hours a local day needs: 75 % of its hour periods, rounded up (18 of 24, 18 of 23, 19 of 25). */
export function minValidHours(zone: Zone, day: number): number {
  const hours = zone.isUtc || zone.boundary === 'standard' ? 24 : hoursOfDay(zone, day);
  return Math.ceil((hours * MIN_HOURS_PER_DAY) / 24);
}

/**
 * 24-hour means of a series by local day of the zone (UTC by default), each valid with 75 % of its hours
 * (`minValidHours`: 18 of 24). Minutes are first averaged into hours, an hour valid with 45 of 60 minutes
 * (`hourlyMeans`); a day's mean is the mean of its valid hourly means. Daily data (frequency `day`) gives each
 * local day the mean of the values starting in it, as they are. The valid days' means by local day index, and
 * the days dropped.
 */
export function dailyMeans(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  options: DayOptions = {},
): { means: Map<number, number>; incompleteDays: number } {
  const zone = options.zone ?? UTC;
  const frequency = options.frequency ?? inferFrequency(times);
  if (frequency === 'day') {
    const days = new Map<number, [number, number]>();
    for (let i = 0; i < times.length; i++) {
      if (Number.isNaN(times[i]) || Number.isNaN(values[i])) continue;
      addTo(days, zone.dayKey(times[i]), values[i]);
    }
    const means = new Map<number, number>();
    for (const [day, [sum, n]] of days) means.set(day, withoutNoise(sum / n));
    return { means, incompleteDays: 0 };
  }
  const { means, incomplete } = daysFromHours(hourlyMeans(times, values, frequency === 'minute').means, zone);
  return { means, incompleteDays: incomplete };
}

/**
 * A mean without the floating-point noise of its sum: 24 hours of 9.1 sum to a mean of 9.099999999999996, which
 * EPA's truncation would cut to 9.0 (Good) instead of 9.1 (Moderate). The mean is snapped to 12 significant
 * digits only when that moves it by noise (≤ 4e-14 of it, a few hundred units in the last place); a mean such as
 * 144 / 19 = 7.578947368421052 keeps every digit (the regressions on daily means use them).
 */
export function withoutNoise(mean: number): number {
  if (!Number.isFinite(mean)) return mean;
  const snapped = Number(mean.toPrecision(12));
  return Math.abs(snapped - mean) <= Math.abs(mean) * 4e-14 ? snapped : mean;
}

function addTo(sums: Map<number, [number, number]>, key: number, value: number): void {
  const e = sums.get(key);
  if (e) {
    e[0] += value;
    e[1]++;
  } else sums.set(key, [value, 1]);
}

/**
 * 24-hour means of hourly means (by hour index since the epoch) by local day of the zone, each valid with
 * `minValidHours` hours (EPA: 18 of 24); the valid days' means by day index, and how many days were left out.
 */
export function daysFromHours(hours: ReadonlyMap<number, number>, zone: Zone = UTC): ValidAverages {
  const days = new Map<number, [number, number]>();
  for (const [hour, mean] of hours) addTo(days, zone.dayKey(hour * HOUR_MS), mean);
  const means = new Map<number, number>();
  let incomplete = 0;
  for (const [day, [sum, n]] of days) {
    if (n >= minValidHours(zone, day)) means.set(day, withoutNoise(sum / n));
    else incomplete++;
  }
  return { means, incomplete };
}

interface DailyPairs extends Pairs {
  /** Days with some values but fewer than the minimum hours, per side (left out of the pairs). */
  incompleteDays: { sensor: number; reference: number };
}

/**
 * Pairs a sensor's valid 24-hour means with a reference's (EPA's evaluation of PM2.5 sensors): only local days
 * both have a valid mean (`dailyMeans`). Expected: the days from the first to the last day either series has any
 * value in; completeness = paired days / expected. `times` are the days' starts.
 */
export function pairDaily(
  sensor: TimeSeries & { frequency?: OutputFrequency },
  reference: TimeSeries & { frequency?: OutputFrequency },
  zone: Zone = UTC,
): DailyPairs {
  const s = periodMeans(sensor, 'day', { zone, frequency: sensor.frequency });
  const r = periodMeans(reference, 'day', { zone, frequency: reference.frequency });
  const pairs = pairByPeriod(sensor, reference, 'day', {
    zone,
    sensorFrequency: sensor.frequency,
    referenceFrequency: reference.frequency,
  });
  return { ...pairs, incompleteDays: { sensor: s.incomplete, reference: r.incomplete } };
}

interface ExceedanceDays {
  /** Valid local days (`dailyMeans`) whose mean is above the threshold. */
  days: number;
  /** Valid local days. */
  validDays: number;
  /** Starts (ms) of the days above, ascending. */
  starts: number[];
}

/** Days whose valid 24-hour mean (local days of the zone, 75 % rule) is strictly above `threshold`. */
export function exceedanceDays(series: TimeSeries, threshold: number, options: DayOptions = {}): ExceedanceDays {
  const zone = options.zone ?? UTC;
  const { means } = dailyMeans(series.times, series.values, options);
  const above = [...means].filter(([, m]) => m > threshold).map(([d]) => d);
  above.sort((a, b) => a - b);
  return { days: above.length, validDays: means.size, starts: above.map((d) => zone.dayStart(d)) };
}
