// The one way code reads "now". Production passes `systemClock`; tests pass a fixed or offset clock,
// so no behaviour depends on the calendar date the suite happens to run on.
import { parseIso } from './iso';

export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock that starts at `startMs` and flows with real time from there. */
export function offsetClock(startMs: number, base: Clock = systemClock): Clock {
  const offset = startMs - base.nowMs();
  return { nowMs: () => base.nowMs() + offset };
}

export function nowDate(clock: Clock): Date {
  return new Date(clock.nowMs());
}

/** The environment variable tests use to start the CLI's clock at a given instant (ISO 8601 with a zone). */
export const NOW_ENV = 'MEASNB_NOW';

/**
 * The CLI's clock: the system clock, or (tests only) one started at `MEASNB_NOW` and flowing from there,
 * so relative times (`-6h`) and cache-depth checks agree with an emulator on a set clock.
 */
export function clockFromEnv(env: Record<string, string | undefined>, base: Clock = systemClock): Clock {
  const text = env[NOW_ENV];
  if (!text) return base;
  const iso = parseIso(text);
  const ms = iso?.zoned ? iso.ms : Number.NaN;
  if (!Number.isFinite(ms)) throw new Error(`${NOW_ENV}=${text}: expected an ISO 8601 timestamp with a zone`);
  return offsetClock(ms, base);
}
