// The status-check schedule of the Reports view: the core's back-off schedule (src/core/reports).
// TEMPORARY until src/core/reports lands: first checks within seconds, then slower (capped at 60 s
// between checks; no overall cap).
export function pollSchedule(checksMade: number, _elapsedMs: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.min(checksMade, 6));
}
