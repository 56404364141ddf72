// EPA's performance evaluation of PM2.5 air sensors against a collocated reference (EPA/600/R-20/280, 2021,
// "Performance Testing Protocols, Metrics, and Target Values for Fine Particulate Matter Air Sensors", as
// coded in EPA's sensortoolkit): valid 1-hour and 24-hour averages (75 % completeness), the sensor-vs-reference
// fit and error on each, and the precision across three or more collocated sensors.
import { type OutputFrequency, PERIOD_MS } from '../api/types';
import { UTC, type Zone } from '../time/zone';
import {
  daysFromHours,
  hourlyMeans,
  meanByPeriod,
  ols,
  periodStart,
  type Regression,
  type TargetCheck,
  type ValidAverages,
} from './stats';

export { hourlyMeans, type ValidAverages } from './stats';

/** The averaging intervals EPA evaluates sensors on. */
export type EvaluationAveraging = '1h' | '24h';

/**
 * A series' valid averages for EPA's evaluation. 1-hour: `hourlyMeans` (none from daily data). 24-hour: the
 * mean of a local day's valid hourly means with 75 % of its hours (`daysFromHours`: 18 of 24; the zone's days,
 * UTC by default). Daily data: each service day's value as it is (by its UTC day: the service's days).
 */
export function validAverages(
  series: { times: ArrayLike<number>; values: ArrayLike<number> },
  averaging: EvaluationAveraging,
  frequency: OutputFrequency,
  zone: Zone = UTC,
): ValidAverages {
  if (frequency === 'day') {
    const means = new Map<number, number>();
    if (averaging === '24h')
      for (const [day, [sum, n]] of meanByPeriod(series.times, series.values, 'day')) means.set(day, sum / n);
    return { means, incomplete: 0 };
  }
  const hourly = hourlyMeans(series.times, series.values, frequency === 'minute');
  return averaging === '1h' ? hourly : daysFromHours(hourly.means, zone);
}

/** One averaging interval of a sensor-vs-reference evaluation. */
export interface PairEvaluation {
  averaging: EvaluationAveraging;
  /** Start (ms) of each paired period, ascending. */
  times: Float64Array;
  sensor: Float64Array;
  reference: Float64Array;
  /** OLS of the sensor on the reference, RMSE and NRMSE of sensor − reference; `fit.n` is the pairs. */
  fit: Regression;
  /** Periods left out of each side by the 75 % completeness rule. */
  incomplete: { sensor: number; reference: number };
}

/** Pairs a sensor's valid averages with a reference's (periods both have) and fits them. */
export function evaluatePair(
  sensor: { times: ArrayLike<number>; values: ArrayLike<number> },
  reference: { times: ArrayLike<number>; values: ArrayLike<number> },
  averaging: EvaluationAveraging,
  frequency: OutputFrequency,
  zone: Zone = UTC,
): PairEvaluation {
  const s = validAverages(sensor, averaging, frequency, zone);
  const r = validAverages(reference, averaging, frequency, zone);
  const periods = [...s.means.keys()].filter((p) => r.means.has(p)).sort((a, b) => a - b);
  // Daily data keeps the service's (UTC) days; days made of hours are the zone's.
  const start = (p: number) =>
    averaging === '1h' ? p * PERIOD_MS.hour : frequency === 'day' ? p * PERIOD_MS.day : periodStart(p, 'day', zone);
  const xs = Float64Array.from(periods, (p) => r.means.get(p)!);
  const ys = Float64Array.from(periods, (p) => s.means.get(p)!);
  return {
    averaging,
    times: Float64Array.from(periods, start),
    sensor: ys,
    reference: xs,
    fit: ols(xs, ys),
    incomplete: { sensor: s.incomplete, reference: r.incomplete },
  };
}

/** EPA's precision needs at least this many collocated sensors. */
export const MIN_PRECISION_SENSORS = 3;

export interface Precision {
  /** Sensors taking part (M). */
  sensors: number;
  /** Periods where every sensor has a valid average (N). */
  n: number;
  /** SD = √(Σ_j Σ_i (x_ij − x̄_i)² / (N·M − 1)), x̄_i the mean across the sensors in period i. */
  sd: number;
  /** Mean of all N·M averages. */
  mean: number;
  /** CV = SD / mean × 100, in %. */
  cv: number;
}

/**
 * Precision across collocated sensors (EPA/600/R-20/280 eq. for SD and CV; sensortoolkit `calculate/_cv.py`):
 * over the periods where all sensors have a valid average. NaN statistics with fewer than 3 sensors or no
 * common period (`sensors` and `n` say which).
 */
export function precision(averages: ReadonlyArray<ReadonlyMap<number, number>>): Precision {
  const m = averages.length;
  const none = { sensors: m, n: 0, sd: Number.NaN, mean: Number.NaN, cv: Number.NaN };
  if (m < MIN_PRECISION_SENSORS) return none;
  let n = 0;
  let total = 0;
  let squares = 0;
  const row = new Float64Array(m);
  for (const [period, first] of averages[0]) {
    row[0] = first;
    let all = true;
    for (let j = 1; j < m && all; j++) {
      const v = averages[j].get(period);
      if (v === undefined) all = false;
      else row[j] = v;
    }
    if (!all) continue;
    let sum = 0;
    for (let j = 0; j < m; j++) sum += row[j];
    const mean = sum / m;
    for (let j = 0; j < m; j++) squares += (row[j] - mean) ** 2;
    total += sum;
    n++;
  }
  if (n * m < 2) return { ...none, n };
  const sd = Math.sqrt(squares / (n * m - 1));
  const mean = total / (n * m);
  return { sensors: m, n, sd, mean, cv: mean > 0 ? (100 * sd) / mean : Number.NaN };
}

/** EPA's PM2.5 precision targets: SD ≤ 5 µg/m³ and CV ≤ 30 % (each its own row, as sensortoolkit reports them). */
export function precisionTargets(p: Precision): TargetCheck[] {
  return [
    { name: 'SD', target: '≤ 5 µg/m³', value: p.sd, met: p.sd >= 0 && p.sd <= 5 },
    { name: 'CV', target: '≤ 30 %', value: p.cv, met: p.cv >= 0 && p.cv <= 30 },
  ];
}

/** A place in degrees (WGS 84). */
export interface LatLon {
  lat: number;
  lon: number;
}

/** How far a sensor may be from a reference site to count as collocated with it, by default. */
export const DEFAULT_COLLOCATION_RADIUS_KM = 1;

/** The great-circle distance in km (haversine, on the mean Earth radius 6371.0088 km, IUGG). */
export function distanceKm(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}
