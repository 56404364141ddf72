// The Reports view polls on the core's back-off schedule (src/core/reports/schedule.ts): first checks
// within seconds, then slower up to a ceiling; no blind 60 s sleep, no cap on the number of checks.
import { pollDelayMs } from '../../core/reports/schedule';

export function pollSchedule(checksMade: number, _elapsedMs: number): number {
  return pollDelayMs(checksMade);
}
