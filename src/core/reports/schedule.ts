// When to check a report's status next. Reports take seconds to minutes: the first checks come within
// seconds, then back off geometrically to a ceiling. There is no blind 60 s sleep and no 12-check cap.

export interface PollSchedule {
  /** Delay before the first check after creation. */
  initialDelayMs: number;
  /** Growth of the delay per check. */
  factor: number;
  /** Ceiling of the delay. */
  maxDelayMs: number;
  /** ± fraction of jitter, so many watchers do not poll in lockstep (0 = none). */
  jitter: number;
}

export const DEFAULT_POLL_SCHEDULE: PollSchedule = {
  initialDelayMs: 2000,
  factor: 1.5,
  maxDelayMs: 30_000,
  jitter: 0.1,
};

/** Delay before check number `check` (0 = the first check after creation). */
export function pollDelayMs(
  check: number,
  schedule: PollSchedule = DEFAULT_POLL_SCHEDULE,
  random = Math.random,
): number {
  const base = Math.min(schedule.maxDelayMs, schedule.initialDelayMs * schedule.factor ** check);
  const spread = base * schedule.jitter;
  return Math.max(0, Math.round(base - spread + 2 * spread * random()));
}
