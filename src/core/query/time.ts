// Time values of the language: ISO 8601 dates/timestamps, kept as written, and relative times
// (`now`, `today`, `-90m`, `-6h`, `-2d`) kept symbolic until a cell runs.

export type TimeValue =
  | { kind: 'absolute'; text: string /** epoch ms (UTC when no offset is written) */; ms: number; dateOnly: boolean }
  | { kind: 'now' }
  | { kind: 'today' }
  | { kind: 'relative'; text: string; offsetMs: number };

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

const RELATIVE = /^-(\d{1,9})([smhdw])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

export type TimeParse = { value: TimeValue; warning?: string } | { error: string };

export const TIME_HELP =
  'an ISO 8601 date (2026-11-01) or timestamp (2026-11-01T06:00:00Z), or a relative time: now, today, -90m, -6h, -2d';

function validDate(y: number, mo: number, d: number): boolean {
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

export function parseTime(text: string): TimeParse {
  if (text === 'now') return { value: { kind: 'now' } };
  if (text === 'today') return { value: { kind: 'today' } };
  const rel = RELATIVE.exec(text);
  if (rel) {
    return { value: { kind: 'relative', text, offsetMs: -Number(rel[1]) * UNIT_MS[rel[2]] } };
  }
  const date = DATE.exec(text);
  if (date) {
    const [y, mo, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (!validDate(y, mo, d)) return { error: `${text} is not a valid calendar date` };
    return { value: { kind: 'absolute', text, ms: Date.UTC(y, mo - 1, d), dateOnly: true } };
  }
  const ts = TIMESTAMP.exec(text);
  if (ts) {
    const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(ts[i] ?? 0));
    if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return { error: `${text} is not a valid timestamp` };
    const fraction = ts[7] ? Number(`0.${ts[7]}`) * 1000 : 0;
    let ms = Date.UTC(y, mo - 1, d, h, mi, s) + fraction;
    const zone = ts[8];
    if (zone && zone !== 'Z') {
      const sign = zone[0] === '-' ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    }
    const value: TimeValue = { kind: 'absolute', text, ms, dateOnly: false };
    return zone ? { value } : { value, warning: `${text} has no UTC offset; it is read as UTC (add Z to be explicit)` };
  }
  if (/^-?\d+[a-zA-Z]*$/.test(text) && !text.startsWith('-')) {
    return { error: `relative times count back from now and start with '-' (e.g. -${text}); expected ${TIME_HELP}` };
  }
  return { error: `expected ${TIME_HELP}` };
}

/** Epoch ms of a time value at `now`. `today` is 00:00 UTC of now's day. */
export function timeToMs(value: TimeValue, now: Date): number {
  switch (value.kind) {
    case 'absolute':
      return value.ms;
    case 'now':
      return now.getTime();
    case 'today': {
      const t = now.getTime();
      return t - (((t % 86_400_000) + 86_400_000) % 86_400_000);
    }
    case 'relative':
      return now.getTime() + value.offsetMs;
  }
}

/** The text sent to the service: absolute values as written (dates stay dates), others as ISO timestamps. */
export function timeToWire(value: TimeValue, now: Date): string {
  return value.kind === 'absolute' ? value.text : new Date(timeToMs(value, now)).toISOString();
}

export function timeToText(value: TimeValue): string {
  return value.kind === 'absolute' || value.kind === 'relative' ? value.text : value.kind;
}

const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

/** Durations such as `30s`, `5m`, `1h` (for `follow every`). */
export function parseDuration(text: string): { ms: number } | { error: string } {
  const m = DURATION.exec(text);
  if (!m) return { error: `expected a duration such as 30s, 5m or 1h, not '${text}'` };
  const ms = Number(m[1]) * (m[2] === 'ms' ? 1 : UNIT_MS[m[2]]);
  if (ms < 1000) return { error: 'the polling interval must be at least 1s' };
  return { ms };
}

/** "3h12m", "45s": a short human duration for messages. */
export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  const totalSeconds = Math.round(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return s ? `${m}m${String(s).padStart(2, '0')}s` : `${m}m`;
  return `${s}s`;
}
