// The one way code reads "now". Production passes `systemClock`; tests pass a fixed or offset clock,
// so no behaviour depends on the calendar date the suite happens to run on.
import { parseIso } from './iso';

export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number;
}

/** A clock one can also wait on: production sleeps for real; tests pass a virtual one that moves at once. */
export interface WaitClock extends Clock {
  /** See `sleep`. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest single timer the platform keeps (about 24.8 days); longer waits are made of several. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The one abortable sleep: resolves after `ms`, or rejects with the signal's reason as soon as it aborts
 * (at once when it already has). `Infinity` waits for the abort only.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const arm = (left: number) => {
      if (left === Number.POSITIVE_INFINITY) return;
      timer = setTimeout(
        () => {
          if (left > MAX_TIMER_MS) return arm(left - MAX_TIMER_MS);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, Math.min(left, MAX_TIMER_MS)),
      );
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm(ms);
  });
}

export const systemClock: WaitClock = { nowMs: () => Date.now(), sleep };

/** A clock that starts at `startMs` and flows with real time from there (its waits are real ones). */
export function offsetClock(startMs: number, base: Clock = systemClock): WaitClock {
  const offset = startMs - base.nowMs();
  return { nowMs: () => base.nowMs() + offset, sleep };
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
export function clockFromEnv(env: Record<string, string | undefined>, base: WaitClock = systemClock): WaitClock {
  const text = env[NOW_ENV];
  if (!text) return base;
  const iso = parseIso(text);
  const ms = iso?.zoned ? iso.ms : Number.NaN;
  if (!Number.isFinite(ms)) throw new Error(`${NOW_ENV}=${text}: expected an ISO 8601 timestamp with a zone`);
  return offsetClock(ms, base);
}

/**
 * A clock whose time source can be replaced (the extension holds one in its services; host tests point
 * it at an emulator's controlled clock, then back). Waits stay real: only the reading of "now" moves.
 */
export class SettableClock implements WaitClock {
  private source: Clock = systemClock;

  nowMs(): number {
    return this.source.nowMs();
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleep(ms, signal);
  }

  /** Reads time from `source` from now on (undefined: the system clock again). */
  set(source: Clock | undefined): void {
    this.source = source ?? systemClock;
  }
}
