// Hour and day aggregates computed from the minute data, with a bounded cache of per-hour sums.
import type { OutputFrequency } from '../core/api/types';
import { MIN_HOURS_PER_DAY, MIN_MINUTES_PER_HOUR } from '../core/aq/stats';
import type { Aggregation, MetricDefinition } from '../core/metrics/catalog';
import * as airQuality from './air-quality';
import { HOUR_MS, MINUTE_MS } from './clock';
import * as generator from './generator';
import type { Datasource } from './world';
import * as world from './world';

// Bound once: under a CommonJS transform (tsx in tests) named imports are getters read on every use,
// which costs more than the work in these per-value loops.
const { nowcast, nowcastDecimals, usEpaAqi, waDwerAqi } = airQuality;
const { fillMinute } = generator;
const { NQ, isSubscribed } = world;

/** Per quantity: sum of all values, count, sum of QC-valid values, count of valid; then the minute count. */
const F = 4;
const MINUTES_SLOT = NQ * F;
const STATS_SIZE = NQ * F + 1;

/**
 * Valid 1-hour means a 24-hour mean (rolling or day) needs: 18 of 24 (75 %, EPA's completeness rule for daily
 * means, 40 CFR 50 Appendix N; the AQI Technical Assistance Document uses the same 75 %).
 */
const ROLLING_MIN_HOURS = MIN_HOURS_PER_DAY;
/**
 * Minutes a valid 1-hour mean needs: 45 of 60 (75 %, EPA's completeness rule for hourly averages of sensor
 * data, as in EPA's sensortoolkit). Hours with fewer are empty: no 1-hour mean, and left out of the NowCast
 * (EPA NowCast: a missing hour) and of 24-hour means, which average valid 1-hour means, not minutes.
 */
const HOUR_MIN_MINUTES = MIN_MINUTES_PER_HOUR;

const AGG_INDIVIDUAL = 0;
const AGG_HOUR = 1;
const AGG_ROLLING = 2;
const AGG_NOWCAST = 3;
const AGG_DAY = 4;
const AGG_CODE: Record<Aggregation, number> = {
  Individual: AGG_INDIVIDUAL,
  '1HourMean': AGG_HOUR,
  '24HourRollingMean': AGG_ROLLING,
  Nowcast: AGG_NOWCAST,
  '24HourMean': AGG_DAY,
};
const US_EPA = { pm2_5ConcMass: 'pm2_5', pm10ConcMass: 'pm10', no2Conc: 'no2' } as const;
const WA_DWER = { pm2_5ConcMass: 'pm2_5', pm10ConcMass: 'pm10', no2Conc: 'no2', o3Conc: 'o3' } as const;

/** A metric compiled for fast evaluation. */
export interface CompiledMetric {
  def: MetricDefinition;
  q: number;
  agg: number;
  /** The index computed on the aggregate (concentration -> index), when the metric is one. */
  aqi: ((concentration: number) => number) | undefined;
  /** NowCast truncation (EPA: PM2.5 to 0.1, PM10 to 1 µg/m³). */
  nowcastDecimals: number;
}

/** The index function of a metric's `index` suffix, or undefined (none, or a quantity it is not defined for). */
function indexOf(def: MetricDefinition): ((c: number) => number) | undefined {
  const id = def.quantity.id;
  if (def.index === 'UsEpaAqi' && id in US_EPA) {
    const p = US_EPA[id as keyof typeof US_EPA];
    return (c) => usEpaAqi(p, c);
  }
  if (def.index === 'WaDwerAqi' && id in WA_DWER) {
    const p = WA_DWER[id as keyof typeof WA_DWER];
    return (c) => waDwerAqi(p, c);
  }
  return undefined;
}

export function compileMetrics(
  defs: readonly MetricDefinition[],
  quantityIndex: (id: string) => number,
): CompiledMetric[] {
  return defs.map((def) => ({
    def,
    q: quantityIndex(def.quantity.id),
    agg: AGG_CODE[def.aggregation],
    aqi: indexOf(def),
    nowcastDecimals: nowcastDecimals(def.quantity.id === 'pm10ConcMass' ? 'pm10' : 'pm2_5'),
  }));
}

/** Hours of history an hour row needs: 24 for rolling means, 12 for NowCast, else just the hour. */
function windowHours(metrics: readonly CompiledMetric[]): number {
  let hours = 1;
  for (let j = 0; j < metrics.length; j++) {
    const agg = metrics[j].agg;
    if (agg === AGG_ROLLING) return 24;
    if (agg === AGG_NOWCAST) hours = 12;
  }
  return hours;
}

/** Output buffers of one row: raw and value per metric (NaN = empty) and whether QC flags apply. */
export class RowValues {
  readonly raw: Float64Array;
  readonly value: Float64Array;
  readonly invalid: Uint8Array;
  constructor(n: number) {
    this.raw = new Float64Array(n);
    this.value = new Float64Array(n);
    this.invalid = new Uint8Array(n);
  }
}

export class Aggregator {
  /**
   * All cached hour sums live in one slab (one allocation, no per-entry objects): entry i occupies
   * [i * STATS_SIZE, (i + 1) * STATS_SIZE). Entries are reused first-in first-out.
   */
  private readonly slab: Float64Array;
  /** Per datasource (by gid): hour index -> entry. Small-integer keys keep lookups cheap. */
  private readonly index: Array<Map<number, number> | undefined> = [];
  private readonly entryGid: Int32Array;
  private readonly entryHour: Int32Array;
  private next = 0;
  private readonly minuteRaw = new Float64Array(NQ);
  private readonly minuteInvalid = new Uint8Array(NQ);
  /** Offsets into the slab of the hours of the current window (newest first). */
  private readonly window = new Int32Array(24);
  private readonly hourlyRaw = new Float64Array(12);
  private readonly hourlyValue = new Float64Array(12);
  /** The hour cell being computed (raw value, QC-invalid flag): evalHour's helpers write it, nothing allocated. */
  private readonly cell = { raw: Number.NaN, invalid: 0 };

  constructor(private readonly maxEntries = 60_000) {
    this.slab = new Float64Array(maxEntries * STATS_SIZE);
    this.entryGid = new Int32Array(maxEntries).fill(-1);
    this.entryHour = new Int32Array(maxEntries);
  }

  /** Offset in the slab of the sums over the hour `hourIndex` (hours since the epoch); computed on a miss. */
  private hourOffset(ds: Datasource, hourIndex: number): number {
    let perDs = this.index[ds.gid];
    if (perDs === undefined) {
      perDs = new Map();
      this.index[ds.gid] = perDs;
    }
    const hit = perDs.get(hourIndex);
    if (hit !== undefined) return hit * STATS_SIZE;
    const entry = this.next;
    this.next = (entry + 1) % this.maxEntries;
    const oldGid = this.entryGid[entry];
    if (oldGid >= 0) this.index[oldGid]?.delete(this.entryHour[entry]);
    this.entryGid[entry] = ds.gid;
    this.entryHour[entry] = hourIndex;
    perDs.set(hourIndex, entry);
    const offset = entry * STATS_SIZE;
    this.computeHour(ds, hourIndex, offset);
    return offset;
  }

  private computeHour(ds: Datasource, hourIndex: number, base: number): void {
    const stats = this.slab;
    stats.fill(0, base, base + STATS_SIZE);
    const raw = this.minuteRaw;
    const invalid = this.minuteInvalid;
    const first = hourIndex * 60;
    for (let m = first; m < first + 60; m++) {
      // Only what the org can see: minutes outside its subscription are in no aggregate.
      if (!isSubscribed(ds, m * MINUTE_MS) || !fillMinute(ds, m, raw, invalid)) continue;
      stats[base + MINUTES_SLOT]++;
      for (let q = 0; q < NQ; q++) {
        const v = raw[q];
        if (Number.isNaN(v)) continue; // not measured
        const o = base + q * F;
        stats[o] += v;
        stats[o + 1]++;
        if (invalid[q] === 0) {
          stats[o + 2] += v;
          stats[o + 3]++;
        }
      }
    }
  }

  /** Minute row; false when there is no measurement at that minute. */
  evalMinute(ds: Datasource, minute: number, metrics: readonly CompiledMetric[], out: RowValues): boolean {
    if (!fillMinute(ds, minute, this.minuteRaw, this.minuteInvalid)) return false;
    for (let j = 0; j < metrics.length; j++) {
      const q = metrics[j].q;
      const r = this.minuteRaw[q];
      out.raw[j] = r;
      out.value[j] = calibrate(ds, q, r);
      out.invalid[j] = this.minuteInvalid[q];
    }
    return true;
  }

  /** Hour row (1-hour means, 24-hour rolling means, NowCast, AQI); false when the hour has no measurement. */
  evalHour(
    ds: Datasource,
    hourIndex: number,
    metrics: readonly CompiledMetric[],
    qcVersion: boolean,
    out: RowValues,
  ): boolean {
    const h0 = this.hourOffset(ds, hourIndex);
    if (this.slab[h0 + MINUTES_SLOT] === 0) return false;
    const needWindow = metrics.length > 0 ? windowHours(metrics) : 0;
    const win = this.window;
    win[0] = h0;
    for (let k = 1; k < needWindow; k++) win[k] = this.hourOffset(ds, hourIndex - k);
    // Offsets of the sums to use: all values (legacy) or only QC-valid ones (v2026-11-10).
    const sumOffset = qcVersion ? 2 : 0;
    const cell = this.cell;
    for (let j = 0; j < metrics.length; j++) {
      const m = metrics[j];
      const q = m.q;
      const o = q * F;
      const a = ds.calA[q];
      const b = ds.calB[q];
      cell.raw = Number.NaN;
      cell.invalid = 0;
      if (m.agg === AGG_HOUR) this.hourMean(h0 + o);
      else if (m.agg === AGG_ROLLING) this.rollingMean(o, sumOffset);
      else if (m.agg === AGG_NOWCAST) this.nowcastOf(o, sumOffset, a, b, m.nowcastDecimals);
      let r = cell.raw;
      const calibrated = ds.valueless[q] === 0 && !Number.isNaN(r);
      let v = !calibrated
        ? Number.NaN
        : m.agg === AGG_NOWCAST
          ? nowcast(this.hourlyValue, m.nowcastDecimals)
          : a * r + b;
      // Under v2026-11-10 the invalid values are left out of rolling means and NowCast: no flag inherited.
      const invalid = qcVersion && m.agg !== AGG_HOUR ? 0 : cell.invalid;
      if (m.aqi !== undefined) {
        r = m.aqi(r);
        v = m.aqi(v);
      }
      out.raw[j] = r;
      out.value[j] = v;
      out.invalid[j] = Number.isNaN(r) ? 0 : invalid;
    }
    return true;
  }

  /** The 1-hour mean of the stats at offset at (empty when not valid): cell.raw, and whether any minute was QC-invalid. */
  private hourMean(at: number): void {
    const s = this.slab;
    this.cell.raw = validHourMean(s, at);
    this.cell.invalid = s[at + 1] > s[at + 3] ? 1 : 0;
  }

  /** The 24-hour rolling mean: the mean of the valid 1-hour means of the window's 24 hours (18 of them at least). */
  private rollingMean(o: number, sumOffset: number): void {
    const s = this.slab;
    this.cell.raw = meanOfHourlyMeans(s, this.window, o + sumOffset);
    for (let k = 0; k < 24; k++) if (s[this.window[k] + o + 1] > s[this.window[k] + o + 3]) this.cell.invalid = 1;
  }

  /** NowCast of the last 12 valid hourly means (raw in cell.raw; calibrated hourly means left in hourlyValue). */
  private nowcastOf(o: number, sumOffset: number, a: number, b: number, decimals: number): void {
    const s = this.slab;
    const so = o + sumOffset;
    for (let k = 0; k < 12; k++) {
      const w = this.window[k];
      const mean = validHourMean(s, w + so);
      this.hourlyRaw[k] = mean;
      this.hourlyValue[k] = a * mean + b;
      if (s[w + o + 1] > s[w + o + 3]) this.cell.invalid = 1;
    }
    this.cell.raw = nowcast(this.hourlyRaw, decimals);
  }

  /**
   * Day row (24-hour means and their AQI) for the UTC day starting at `dayIndex` (days since the epoch): the mean
   * of the day's valid 1-hour means, with 18 of 24 at least (EPA), as the 24-hour rolling mean.
   */
  evalDay(ds: Datasource, dayIndex: number, metrics: readonly CompiledMetric[], out: RowValues): boolean {
    const win = this.window;
    let minutes = 0;
    for (let h = 0; h < 24; h++) {
      win[h] = this.hourOffset(ds, dayIndex * 24 + h);
      minutes += this.slab[win[h] + MINUTES_SLOT];
    }
    if (minutes === 0) return false;
    const s = this.slab;
    for (let j = 0; j < metrics.length; j++) {
      const m = metrics[j];
      const o = m.q * F;
      let r = meanOfHourlyMeans(s, win, o);
      let v = calibrate(ds, m.q, r);
      if (m.aqi) {
        r = m.aqi(r);
        v = m.aqi(v);
      }
      let invalid = 0;
      for (let h = 0; h < 24; h++) if (s[win[h] + o + 1] > s[win[h] + o + 3]) invalid = 1;
      out.raw[j] = r;
      out.value[j] = v;
      out.invalid[j] = invalid;
    }
    return true;
  }

  evalRow(
    frequency: OutputFrequency,
    ds: Datasource,
    periodStart: number,
    metrics: readonly CompiledMetric[],
    qcVersion: boolean,
    out: RowValues,
  ): boolean {
    if (frequency === 'minute') return this.evalMinute(ds, periodStart / MINUTE_MS, metrics, out);
    if (frequency === 'hour') return this.evalHour(ds, periodStart / HOUR_MS, metrics, qcVersion, out);
    return this.evalDay(ds, periodStart / (24 * HOUR_MS), metrics, out);
  }
}

/** The mean of the sums at `at` (sum, count) when the hour has HOUR_MIN_MINUTES of them; else NaN (not valid). */
function validHourMean(s: Float64Array, at: number): number {
  const n = s[at + 1];
  return n >= HOUR_MIN_MINUTES ? s[at] / n : Number.NaN;
}

/** The mean of the valid 1-hour means of 24 hours (slab offsets in `hours`, sums at `o` in each): NaN below 18. */
function meanOfHourlyMeans(s: Float64Array, hours: Int32Array, o: number): number {
  let sum = 0;
  let valid = 0;
  for (let k = 0; k < 24; k++) {
    const mean = validHourMean(s, hours[k] + o);
    if (Number.isNaN(mean)) continue;
    sum += mean;
    valid++;
  }
  return valid >= ROLLING_MIN_HOURS ? sum / valid : Number.NaN;
}

/** value = a·raw + b for calibrated quantities; NaN (empty) when calibration is missing. */
function calibrate(ds: Datasource, q: number, raw: number): number {
  if (Number.isNaN(raw)) return raw;
  if (ds.valueless[q] === 1) return Number.NaN;
  return ds.calA[q] * raw + ds.calB[q];
}
