// Periods of each output frequency, cache depths and default start times of the recent query.
import { CACHE_DEPTH_MS, type OutputFrequency, PERIOD_MS } from '../core/api/types';
import { DAY_MS, floorTo, HOUR_MS } from './clock';

/** The recent query's startTime when none is given. */
const DEFAULT_START_MS: Record<OutputFrequency, number> = { minute: HOUR_MS, hour: DAY_MS, day: 2 * DAY_MS };

export const ceilTo = (ms: number, unitMs: number) => Math.ceil(ms / unitMs) * unitMs;

/**
 * Start of the newest period the recent query can return at `now`: the current minute for minute output
 * (a measurement exists once its minute has begun), the last complete hour or day otherwise.
 */
export function lastPeriodStart(frequency: OutputFrequency, now: number): number {
  const p = PERIOD_MS[frequency];
  const floor = Math.floor(now / p) * p;
  return frequency === 'minute' ? floor : floor - p;
}

/** The recent query's startTime when none is given (echoed as such). */
export function defaultStartTime(frequency: OutputFrequency, now: number): number {
  return now - DEFAULT_START_MS[frequency];
}

/** The moment from which the recent query returns measurements: startTime, but no further back than the cache. */
export function windowCutoff(frequency: OutputFrequency, now: number, startTime: number): number {
  return Math.max(startTime, now - CACHE_DEPTH_MS[frequency]);
}

/**
 * First period start the recent query returns: the period containing the cut-off, since it holds measurements at
 * or after it (a default hour query gives 24 hours, 48 hours of day output 2 days). Minute rows are filtered by
 * their measurement time against the cut-off itself.
 */
export function firstPeriodStart(frequency: OutputFrequency, cutoff: number): number {
  const p = PERIOD_MS[frequency];
  // A minute's measurement may be taken late enough to fall into the next minute (see generator): look one back.
  return floorTo(cutoff, p) - (frequency === 'minute' ? p : 0);
}
