// When to check a report's status next. Reports take seconds to minutes: the first checks come within
// seconds and stay a few seconds apart for the first ten minutes (so a report is on disk within ~5 s of
// becoming ready), then back off geometrically to a ceiling for the rare long ones. There is no blind
// 60 s sleep and no 12-check cap.

export interface PollSchedule {
  /** Delay before the first check after creation. */
  initialDelayMs: number;
  /** Growth of the delay per check. */
  factor: number;
  /** Ceiling of the delay while the report is young (see fastPhaseMs): bounds the latency of most reports. */
  fastCeilingMs: number;
  /** How long (summed nominal delays) the fast ceiling holds before the back-off resumes. */
  fastPhaseMs: number;
  /** Ceiling of the delay after the fast phase. */
  maxDelayMs: number;
  /** ± fraction of jitter, so many watchers do not poll in lockstep (0 = none). */
  jitter: number;
}

export const DEFAULT_POLL_SCHEDULE: PollSchedule = {
  initialDelayMs: 2000,
  factor: 1.5,
  // 4 s + 10% jitter + one status call and the download stay within 5 s of readiness.
  fastCeilingMs: 4000,
  fastPhaseMs: 10 * 60_000,
  maxDelayMs: 30_000,
  jitter: 0.1,
};

/** The delay before check number `check` without jitter. */
export function nominalPollDelayMs(check: number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number {
  const fastCeiling = Math.min(schedule.fastCeilingMs, schedule.maxDelayMs);
  let delay = Math.min(fastCeiling, schedule.initialDelayMs);
  let elapsed = delay;
  for (let i = 1; i <= check; i++) {
    const ceiling = elapsed < schedule.fastPhaseMs ? fastCeiling : schedule.maxDelayMs;
    delay = Math.min(ceiling, delay * schedule.factor);
    elapsed += delay;
    // Past the fast phase at the top ceiling nothing changes any more: no need to walk every check.
    if (delay >= schedule.maxDelayMs) break;
  }
  return delay;
}

/** Delay before check number `check` (0 = the first check after creation). */
export function pollDelayMs(
  check: number,
  schedule: PollSchedule = DEFAULT_POLL_SCHEDULE,
  random = Math.random,
): number {
  const base = nominalPollDelayMs(check, schedule);
  const spread = base * schedule.jitter;
  return Math.max(0, Math.round(base - spread + 2 * spread * random()));
}
