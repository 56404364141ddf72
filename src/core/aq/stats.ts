// Statistics the air-quality views show, on plain numbers: distribution (min/mean/median/p98/max),
// completeness for an output frequency, exceedances, diurnal/weekday profiles, OLS and sensor-vs-reference
// pairing with EPA's PM2.5 sensor performance targets. Times are epoch milliseconds (UTC); NaN is "no value".
import type { OutputFrequency } from '../api/types';

export const PERIOD_MS: Record<OutputFrequency, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

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
  if (g < 30 * 60_000) return 'minute';
  if (g < 12 * 3_600_000) return 'hour';
  return 'day';
}

/** Linear-interpolation quantile (numpy's default, R type 7) of ascending values; NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (!n) return Number.NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export interface Distribution {
  count: number;
  min: number;
  mean: number;
  median: number;
  p98: number;
  max: number;
}

/** Distribution of the values (NaN left out). Sorts a copy. */
export function distribution(values: ArrayLike<number>): Distribution {
  const all = new Float64Array(values.length);
  let k = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) all[k++] = values[i];
  const v = all.subarray(0, k);
  v.sort();
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i];
  const n = v.length;
  return {
    count: n,
    min: n ? v[0] : Number.NaN,
    mean: n ? sum / n : Number.NaN,
    median: quantileSorted(v, 0.5),
    p98: quantileSorted(v, 0.98),
    max: n ? v[n - 1] : Number.NaN,
  };
}

/** The period (index since the epoch) a time falls in. */
export function periodOf(ms: number, frequency: OutputFrequency): number {
  return Math.floor(ms / PERIOD_MS[frequency]);
}

/** Periods from the one holding `from` to the one holding `to`, both included (0 for an empty range). */
export function expectedPeriods(from: number, to: number, frequency: OutputFrequency): number {
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) return 0;
  return periodOf(to, frequency) - periodOf(from, frequency) + 1;
}

/** Distinct periods that have a value. */
export function periodsWithValue(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  frequency: OutputFrequency,
): number {
  const seen = new Set<number>();
  for (let i = 0; i < times.length; i++) {
    if (Number.isNaN(times[i]) || Number.isNaN(values[i])) continue;
    seen.add(periodOf(times[i], frequency));
  }
  return seen.size;
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
  const above = new Set<number>();
  let first = Number.NaN;
  let last = Number.NaN;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    const v = values[i];
    if (Number.isNaN(t) || Number.isNaN(v) || !(v > threshold)) continue;
    above.add(periodOf(t, frequency));
    if (!(t >= first)) first = t;
    if (!(t <= last)) last = t;
  }
  const periods = [...above].sort((a, b) => a - b);
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
}

/**
 * Mean and interquartile range of the values by a bucket of their time (hour of day 0-23, weekday 0-6
 * Monday first). `offsetMinutes(ms)` is the time zone's offset from UTC at that time (0 for UTC).
 */
export function profile(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  by: 'hour' | 'weekday',
  offsetMinutes: (ms: number) => number = () => 0,
): ProfilePoint[] {
  const size = by === 'hour' ? 24 : 7;
  const buckets: number[][] = Array.from({ length: size }, () => []);
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    const v = values[i];
    if (Number.isNaN(t) || Number.isNaN(v)) continue;
    const local = t + offsetMinutes(t) * 60_000;
    const day = Math.floor(local / 86_400_000);
    const b = by === 'hour' ? Math.floor((local - day * 86_400_000) / 3_600_000) : (((day + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday
    buckets[b].push(v);
  }
  return buckets.map((b) => {
    const s = Float64Array.from(b).sort();
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += s[i];
    return {
      mean: s.length ? sum / s.length : Number.NaN,
      q25: quantileSorted(s, 0.25),
      q75: quantileSorted(s, 0.75),
      n: s.length,
    };
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
}

/** Ordinary least squares of y on x (y = slope·x + intercept), with R², and RMSE and bias of y against x. */
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
  return {
    n,
    slope,
    intercept: my - slope * mx,
    r2: sxx > 0 && syy > 0 ? (sxy * sxy) / (sxx * syy) : Number.NaN,
    rmse: n ? Math.sqrt(sd2 / n) : Number.NaN,
    meanBias: n ? my - mx : Number.NaN,
  };
}

export interface Pairs {
  /** Period start (ms) of each pair. */
  times: Float64Array;
  sensor: Float64Array;
  reference: Float64Array;
  /** Periods from the first to the last period either series has a value in. */
  expected: number;
  completenessPercent: number;
}

function meanByPeriod(times: ArrayLike<number>, values: ArrayLike<number>, frequency: OutputFrequency) {
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

/** Pairs a sensor's values with a reference's by period (each side's mean in the period when it has several). */
export function pairByPeriod(
  sensor: { times: ArrayLike<number>; values: ArrayLike<number> },
  reference: { times: ArrayLike<number>; values: ArrayLike<number> },
  frequency: OutputFrequency,
): Pairs {
  const s = meanByPeriod(sensor.times, sensor.values, frequency);
  const r = meanByPeriod(reference.times, reference.values, frequency);
  const periods = [...s.keys()].filter((p) => r.has(p)).sort((a, b) => a - b);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const p of [...s.keys(), ...r.keys()]) {
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  const expected = hi >= lo ? hi - lo + 1 : 0;
  const step = PERIOD_MS[frequency];
  return {
    times: Float64Array.from(periods, (p) => p * step),
    sensor: Float64Array.from(periods, (p) => s.get(p)![0] / s.get(p)![1]),
    reference: Float64Array.from(periods, (p) => r.get(p)![0] / r.get(p)![1]),
    expected,
    completenessPercent: completenessPercent(periods.length, expected),
  };
}

export interface TargetCheck {
  name: string;
  target: string;
  value: number;
  met: boolean;
}

/** EPA's performance targets for PM2.5 air sensors (base testing), plus the 75% completeness of the pairing. */
export function pm25SensorTargets(fit: Regression, pairingCompleteness: number): TargetCheck[] {
  return [
    { name: 'Slope', target: '1.0 ± 0.35', value: fit.slope, met: fit.slope >= 0.65 && fit.slope <= 1.35 },
    {
      name: 'Intercept',
      target: '−5 to 5 µg/m³',
      value: fit.intercept,
      met: fit.intercept >= -5 && fit.intercept <= 5,
    },
    { name: 'R²', target: '≥ 0.70', value: fit.r2, met: fit.r2 >= 0.7 },
    { name: 'RMSE', target: '≤ 7 µg/m³', value: fit.rmse, met: fit.rmse <= 7 },
    {
      name: 'Pairing completeness',
      target: '≥ 75 %',
      value: pairingCompleteness,
      met: pairingCompleteness >= 75,
    },
  ];
}
