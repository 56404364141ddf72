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

/**
 * The delay before the next check of a report `ageMs` old, without jitter: the schedule's delays laid end
 * to end from the report's creation, and the one under way at that age. Reading it from the age (not from
 * a count of checks) lets polling continue where it was after a restart or a window reload.
 */
export function nominalPollDelayMs(ageMs: number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number {
  const fastCeiling = Math.min(schedule.fastCeilingMs, schedule.maxDelayMs);
  let delay = Math.min(fastCeiling, schedule.initialDelayMs);
  // The time of the check the current delay leads to.
  let checkAt = delay;
  // Past the fast phase at the top ceiling nothing changes any more: no need to walk further.
  while (checkAt <= ageMs && delay > 0 && delay < schedule.maxDelayMs) {
    const ceiling = checkAt < schedule.fastPhaseMs ? fastCeiling : schedule.maxDelayMs;
    delay = Math.min(ceiling, delay * schedule.factor);
    checkAt += delay;
  }
  return delay;
}

/** The delay before the next check of a report `ageMs` old (0 = just created), with jitter. */
export function pollDelayMs(
  ageMs: number,
  schedule: PollSchedule = DEFAULT_POLL_SCHEDULE,
  random = Math.random,
): number {
  const base = nominalPollDelayMs(ageMs, schedule);
  const spread = base * schedule.jitter;
  return Math.max(0, Math.round(base - spread + 2 * spread * random()));
}
