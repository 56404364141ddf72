// Time values of the language: ISO 8601 dates/timestamps, kept as written, and relative times
// (`now`, `today`, `-90m`, `-6h`, `-2d`) kept symbolic until a cell runs. The grammars themselves
// (ISO 8601, durations) live in core/time.

import { DAY_MS, DURATION_HELP, parseDuration, parseIso, zonelessWarning } from '../time/index';

export type TimeValue =
  | { kind: 'absolute'; text: string /** epoch ms (UTC when no offset is written) */; ms: number; dateOnly: boolean }
  | { kind: 'now' }
  | { kind: 'today' }
  | { kind: 'relative'; text: string; offsetMs: number };

type TimeParse = { value: TimeValue; warning?: string } | { error: string };

export const TIME_HELP =
  'an ISO 8601 date (2026-11-01) or timestamp (2026-11-01T06:00:00Z), or a relative time: now, today, -90m, -6h, -2d';

const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}(T|$)/;

export function parseTime(text: string): TimeParse {
  if (text === 'now') return { value: { kind: 'now' } };
  if (text === 'today') return { value: { kind: 'today' } };
  if (text.startsWith('-')) {
    const d = parseDuration(text);
    if ('ms' in d) return { value: { kind: 'relative', text, offsetMs: d.ms } };
    return { error: `expected ${TIME_HELP}` };
  }
  const iso = parseIso(text);
  if (iso) {
    const value: TimeValue = { kind: 'absolute', text, ms: iso.ms, dateOnly: iso.dateOnly };
    return iso.dateOnly || iso.zoned ? { value } : { value, warning: zonelessWarning(text) };
  }
  if (ISO_SHAPE.test(text)) {
    return { error: `${text} is not a valid ${text.length === 10 ? 'calendar date' : 'timestamp'}` };
  }
  if ('ms' in parseDuration(text)) {
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
      return t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
    }
    case 'relative':
      return now.getTime() + value.offsetMs;
  }
}

/** The text sent to the service: absolute values as written (dates stay dates), others as ISO timestamps. */
export function timeToWire(value: TimeValue, now: Date): string {
  return value.kind === 'absolute' ? value.text : new Date(timeToMs(value, now)).toISOString();
}

/** The interval of `follow every <duration>`: a duration of at least 1s. */
export function parseInterval(text: string): { ms: number } | { error: string } {
  const d = parseDuration(text);
  if ('error' in d) return { error: `expected ${DURATION_HELP}, not '${text}'` };
  if (d.ms < 1000) return { error: 'the polling interval must be at least 1s' };
  return d;
}
