// Resampling for display: raw values, or means per local hour / local day of a notebook's zone (core/time/zone.ts).
// A period is named by the instant it starts (hour-starting stamps, as pandas' resample labels bins by their left
// edge); a local day runs from its start to the next day's start (23 or 25 hours across a DST change with the
// `clock` boundary, always 24 with `standard`). A local hour starts where the local clock reads hh:00 at the value's
// own offset, so the two 01:00 hours of a fall-back night stay two hours. Missing values (NaN) count for nothing.
import { HOUR_MS } from '../time/duration';
import type { Zone } from '../time/zone';

export type ResamplePeriod = 'raw' | 'hour' | 'day';
export const RESAMPLE_PERIODS: readonly ResamplePeriod[] = ['raw', 'hour', 'day'];

/** A resample choice read from a file or a message; anything else is `raw`. */
export function resamplePeriodOf(value: unknown): ResamplePeriod {
  return RESAMPLE_PERIODS.includes(value as ResamplePeriod) ? (value as ResamplePeriod) : 'raw';
}

/** The start (ms) of the period an instant (ms) is in; the instant itself for `raw`, NaN for NaN. */
export function periodStarter(period: ResamplePeriod, zone: Zone): (ms: number) => number {
  if (period === 'day') return (ms) => (Number.isNaN(ms) ? Number.NaN : zone.dayStart(zone.dayKey(ms)));
  if (period === 'hour') {
    return (ms) => {
      const offset = zone.dayOffsetMs(ms);
      return Math.floor((ms + offset) / HOUR_MS) * HOUR_MS - offset;
    };
  }
  return (ms) => ms;
}

interface Resampled {
  /** Period starts (ms), ascending; only periods with at least one value. */
  starts: Float64Array;
  means: Float64Array;
  /** Values per period. */
  counts: Uint32Array;
}

/** Means and counts per period of the values (NaN = missing) at the times (ms, any order). */
export function resampleMeans(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  period: ResamplePeriod,
  zone: Zone,
): Resampled {
  const startOf = periodStarter(period, zone);
  const slot = new Map<number, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  const keys: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const v = values[i];
    const s = startOf(times[i]);
    if (Number.isNaN(v) || Number.isNaN(s)) continue;
    let k = slot.get(s);
    if (k === undefined) {
      k = keys.length;
      slot.set(s, k);
      keys.push(s);
      sums.push(0);
      counts.push(0);
    }
    sums[k] += v;
    counts[k]++;
  }
  const order = keys.map((_, k) => k).sort((a, b) => keys[a] - keys[b]);
  return {
    starts: Float64Array.from(order, (k) => keys[k]),
    means: Float64Array.from(order, (k) => sums[k] / counts[k]),
    counts: Uint32Array.from(order, (k) => counts[k]),
  };
}
