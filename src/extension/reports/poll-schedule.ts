// The Reports view polls on the core's back-off schedule (src/core/reports/schedule.ts) read from the
// report's age: first checks within seconds, then slower up to a ceiling; no blind 60 s sleep, no cap on
// the number of checks, and after a reload the schedule continues from the report's age.
import { pollDelayMs } from '../../core/reports/schedule';

export function pollSchedule(ageMs: number): number {
  return pollDelayMs(ageMs);
}
