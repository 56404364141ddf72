// Durations: the one grammar and the one formatter (follow intervals, relative times, the emulator's
// clock control and report delay, messages).
//
// Grammar: [+|-] then one or more <number><unit>, e.g. 30s, 5m, 1h30m, 1.5h, -6h, 500ms.
//   number  digits, optionally with a decimal part
//   unit    ms | s | m | h | d | w
// A bare number has no unit and is not a duration here (code that takes milliseconds takes a number).

export const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

const UNIT_MS: Record<string, number> = { ms: 1, s: SECOND_MS, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS, w: WEEK_MS };

/** Longest duration accepted (about 285 years): keeps every result a safe integer. */
export const MAX_DURATION_MS = 9e12;

export const DURATION_HELP = 'a duration such as 30s, 5m or 1h (or 1h30m, 2d; units ms, s, m, h, d, w)';

const PART = /(\d{1,15}(?:\.\d{1,9})?)(ms|s|m|h|d|w)/y;

/** Milliseconds of a duration (signed), or an error naming the grammar. */
export function parseDuration(text: string): { ms: number } | { error: string } {
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let m = PART.exec(body); m; m = PART.exec(body)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    consumed = PART.lastIndex;
  }
  if (consumed === 0 || consumed !== body.length) return { error: `expected ${DURATION_HELP}, not '${text}'` };
  if (total > MAX_DURATION_MS) return { error: `${text} is longer than any supported duration` };
  return { ms: sign * Math.round(total) || 0 };
}

/**
 * A short human duration: "45s", "1m05s", "5m", "3h12m", "26h05m" (hours and minutes from an hour on).
 * Negative values read as 0. Seconds are rounded; from an hour on, minutes are (so the text parses back
 * to the duration at that precision). `coarse`: one unit, rounded, for ages at a glance: "30s", "45m",
 * "12h", "3d".
 */
export function formatDuration(ms: number, precision: 'exact' | 'coarse' = 'exact'): string {
  if (!(ms > 0)) ms = 0;
  const totalSeconds = Math.round(ms / 1000);
  if (precision === 'coarse') {
    if (totalSeconds < 60) return `${totalSeconds}s`;
    if (totalSeconds < 3600) return `${Math.round(totalSeconds / 60)}m`;
    if (totalSeconds < 86_400) return `${Math.round(totalSeconds / 3600)}h`;
    return `${Math.round(totalSeconds / 86_400)}d`;
  }
  if (totalSeconds >= 3600) {
    const totalMinutes = Math.round(ms / MINUTE_MS);
    const h = Math.floor(totalMinutes / 60);
    return `${h}h${String(totalMinutes % 60).padStart(2, '0')}m`;
  }
  const m = Math.floor(totalSeconds / 60);
  const s = totalSeconds % 60;
  if (m > 0) return s ? `${m}m${String(s).padStart(2, '0')}s` : `${m}m`;
  return `${s}s`;
}
