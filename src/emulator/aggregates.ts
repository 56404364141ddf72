// Hour and day aggregates computed from the minute data, with a bounded cache of per-hour sums.
import type { OutputFrequency } from '../core/api/types';
import type { Aggregation, MetricDefinition } from '../core/metrics/catalog';
import { type AqiPollutant, nowcast, usEpaAqi } from './air-quality';
import { HOUR_MS, MINUTE_MS } from './clock';
import { fillMinute } from './generator';
import { type Datasource, NQ } from './world';

/** Per quantity: sum of all values, count, sum of QC-valid values, count of valid; then the minute count. */
const F = 4;
const MINUTES_SLOT = NQ * F;
const STATS_SIZE = NQ * F + 1;

/** Hours with data a 24-hour rolling mean needs (75 %, as EPA completeness rules). */
export const ROLLING_MIN_HOURS = 18;

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
const AQI_POLLUTANT: Record<string, AqiPollutant> = { pm2_5ConcMass: 'pm2_5', pm10ConcMass: 'pm10', no2Conc: 'no2' };

/** A metric compiled for fast evaluation. */
export interface CompiledMetric {
  def: MetricDefinition;
  q: number;
  agg: number;
  aqi: AqiPollutant | undefined;
}

export function compileMetrics(
  defs: readonly MetricDefinition[],
  quantityIndex: (id: string) => number,
): CompiledMetric[] {
  return defs.map((def) => ({
    def,
    q: quantityIndex(def.quantity.id),
    agg: AGG_CODE[def.aggregation],
    aqi: def.index === 'UsEpaAqi' ? AQI_POLLUTANT[def.quantity.id] : undefined,
  }));
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
  private readonly cache = new Map<number, Float64Array>();
  private readonly minuteRaw = new Float64Array(NQ);
  private readonly minuteInvalid = new Uint8Array(NQ);
  private readonly window: Float64Array[] = new Array(24);
  private readonly hourlyRaw = new Float64Array(12);
  private readonly hourlyValue = new Float64Array(12);
  private readonly dayStats = new Float64Array(STATS_SIZE);

  constructor(
    private readonly seed: number,
    private readonly maxEntries = 60_000,
  ) {}

  get cachedHours(): number {
    return this.cache.size;
  }

  /** Sums over the hour starting at `hourIndex` (hours since the epoch); cached, first-in first-out. */
  hourStats(ds: Datasource, hourIndex: number): Float64Array {
    const key = ds.gid * 16_777_216 + hourIndex;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const stats = new Float64Array(STATS_SIZE);
    const raw = this.minuteRaw;
    const invalid = this.minuteInvalid;
    const first = hourIndex * 60;
    for (let m = first; m < first + 60; m++) {
      if (!fillMinute(this.seed, ds, m, raw, invalid)) continue;
      stats[MINUTES_SLOT]++;
      for (let q = 0; q < NQ; q++) {
        const v = raw[q];
        if (Number.isNaN(v)) continue;
        const o = q * F;
        stats[o] += v;
        stats[o + 1]++;
        if (!invalid[q]) {
          stats[o + 2] += v;
          stats[o + 3]++;
        }
      }
    }
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value as number;
      this.cache.delete(oldest);
    }
    this.cache.set(key, stats);
    return stats;
  }

  /** Minute row; false when there is no measurement at that minute. */
  evalMinute(ds: Datasource, minute: number, metrics: readonly CompiledMetric[], out: RowValues): boolean {
    if (!fillMinute(this.seed, ds, minute, this.minuteRaw, this.minuteInvalid)) return false;
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
    const stats = this.hourStats(ds, hourIndex);
    if (stats[MINUTES_SLOT] === 0) return false;
    let needWindow = 0;
    for (const m of metrics) if (m.agg === AGG_ROLLING) needWindow = 24;
    if (!needWindow) for (const m of metrics) if (m.agg === AGG_NOWCAST) needWindow = 12;
    const win = this.window;
    for (let k = 0; k < needWindow; k++) win[k] = k === 0 ? stats : this.hourStats(ds, hourIndex - k);
    for (let j = 0; j < metrics.length; j++) {
      const m = metrics[j];
      const o = m.q * F;
      let r = Number.NaN;
      let v = Number.NaN;
      let invalid = 0;
      if (m.agg === AGG_HOUR) {
        if (stats[o + 1] > 0) r = stats[o] / stats[o + 1];
        v = calibrate(ds, m.q, r);
        invalid = stats[o + 1] > stats[o + 3] ? 1 : 0;
      } else if (m.agg === AGG_ROLLING) {
        let sum = 0;
        let n = 0;
        let hours = 0;
        for (let k = 0; k < 24; k++) {
          const s = win[k];
          const hs = qcVersion ? s[o + 2] : s[o];
          const hn = qcVersion ? s[o + 3] : s[o + 1];
          if (hn > 0) hours++;
          sum += hs;
          n += hn;
          if (!qcVersion && s[o + 1] > s[o + 3]) invalid = 1;
        }
        if (hours >= ROLLING_MIN_HOURS) r = sum / n;
        v = calibrate(ds, m.q, r);
      } else if (m.agg === AGG_NOWCAST) {
        for (let k = 0; k < 12; k++) {
          const s = win[k];
          const hs = qcVersion ? s[o + 2] : s[o];
          const hn = qcVersion ? s[o + 3] : s[o + 1];
          const mean = hn > 0 ? hs / hn : Number.NaN;
          this.hourlyRaw[k] = mean;
          this.hourlyValue[k] = calibrate(ds, m.q, mean);
          if (!qcVersion && s[o + 1] > s[o + 3]) invalid = 1;
        }
        r = nowcast(this.hourlyRaw);
        v = Number.isNaN(r) ? r : nowcast(this.hourlyValue);
      }
      if (m.aqi) {
        r = usEpaAqi(m.aqi, r);
        v = usEpaAqi(m.aqi, v);
      }
      out.raw[j] = r;
      out.value[j] = v;
      out.invalid[j] = Number.isNaN(r) ? 0 : invalid;
    }
    return true;
  }

  /** Day row (24-hour means and their AQI) for the UTC day starting at `dayIndex` (days since the epoch). */
  evalDay(ds: Datasource, dayIndex: number, metrics: readonly CompiledMetric[], out: RowValues): boolean {
    const day = this.dayStats;
    day.fill(0);
    for (let h = 0; h < 24; h++) {
      const s = this.hourStats(ds, dayIndex * 24 + h);
      for (let i = 0; i < STATS_SIZE; i++) day[i] += s[i];
    }
    if (day[MINUTES_SLOT] === 0) return false;
    for (let j = 0; j < metrics.length; j++) {
      const m = metrics[j];
      const o = m.q * F;
      let r = day[o + 1] > 0 ? day[o] / day[o + 1] : Number.NaN;
      let v = calibrate(ds, m.q, r);
      if (m.aqi) {
        r = usEpaAqi(m.aqi, r);
        v = usEpaAqi(m.aqi, v);
      }
      out.raw[j] = r;
      out.value[j] = v;
      out.invalid[j] = day[o + 1] > day[o + 3] ? 1 : 0;
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

/** value = a·raw + b for calibrated quantities; NaN (empty) when calibration is missing. */
function calibrate(ds: Datasource, q: number, raw: number): number {
  if (Number.isNaN(raw)) return raw;
  if (ds.status[q] === 'calibration-missing') return Number.NaN;
  return ds.calA[q] * raw + ds.calB[q];
}
