// repeat: the one loop for "do something, wait, do it again" (report polling in the CLI and notebooks,
// the Reports view's watcher, `follow every` in notebooks and the CLI). Platform-neutral; time is read
// and waited on through the injected WaitClock, so tests run whole schedules without waiting.
//
// The policy, stated once for every caller:
// - Schedule: after a round the caller's `next(value)` says how long to wait (undefined: stop and resolve
//   with that value; Infinity: wait until woken). `wake()` cuts the current wait short.
// - Cancellation: the signal ends a wait at once and no round starts after it aborted; the loop then
//   resolves with `cancelled: true` (a round that is under way gets the signal itself and may throw).
// - Transient errors (the caller's `isTransient`; for service calls core/api/errors `isTransientError`:
//   network, timeout, 5xx, 429): reported through `onTransientError` and the loop goes on. The wait before
//   the next try backs off, 2 s doubling to a cap of 60 s, never shorter than the error's Retry-After
//   (backoff.ts errorDelayMs: the same policy and reading of Retry-After as the client's retries). The
//   loop never gives up on its own while someone watches: the user cancels (or the caller sets a deadline).
// - Permanent errors (anything else, and any error once the signal aborted): the loop stops and rejects
//   with that error.
// - Report polling (its callers' `next`): a status the client does not understand is polled like one in
//   progress for at most an hour in a row, then polling stops and says so (core/reports/status.ts
//   unknownStatusLimit: the same rule for report cells, the CLI and the Reports view).

import { type Backoff, errorDelayMs } from './backoff';
import type { WaitClock } from './clock';

export interface RepeatOptions<T> {
  clock: WaitClock;
  signal?: AbortSignal;
  /** Wait before the first round (default none). */
  firstDelayMs?: number;
  /** One round; `n` counts the rounds made so far (failed ones too). */
  round: (n: number) => Promise<T>;
  /** After a round that succeeded: ms until the next one; undefined stops; Infinity waits for wake(). May throw to stop. */
  next: (value: T, n: number) => number | undefined;
  /** Whether an error is worth another round (see the policy above). */
  isTransient: (error: unknown) => boolean;
  /** Each transient error, with how many came in a row and the wait before the next try. */
  onTransientError?: (error: unknown, retry: { consecutive: number; delayMs: number }) => void;
  errorBackoff?: Backoff;
}

export interface RepeatEnd<T> {
  /** The signal ended the loop (between rounds). */
  cancelled: boolean;
  /** The value of the last round that succeeded. */
  last?: T;
  rounds: number;
}

export interface Repetition<T> {
  /** Resolves when `next` stops the loop or the signal cancels it; rejects with a permanent error. */
  readonly done: Promise<RepeatEnd<T>>;
  /** Runs the next round now (cuts the current wait short; during a round, the next one follows at once). */
  wake(): void;
  /** Between rounds, waiting (false while a round runs and once the loop ended). */
  waiting(): boolean;
}

const WOKEN = Symbol('woken');

/** Starts the loop (see the policy above). */
export function repeat<T>(options: RepeatOptions<T>): Repetition<T> {
  const loop = new RepeatLoop(options);
  return { done: loop.done, wake: () => loop.wake(), waiting: () => loop.waiting() };
}

/** The state of one repeat(): its rounds, and the wait between them that wake() cuts short. */
class RepeatLoop<T> {
  readonly done: Promise<RepeatEnd<T>>;
  private waitCtrl: AbortController | undefined;
  private wakeRequested = false;
  private ended = false;

  constructor(private readonly options: RepeatOptions<T>) {
    this.done = this.loop().finally(() => {
      this.ended = true;
    });
  }

  wake(): void {
    if (this.ended) return;
    if (this.waitCtrl) this.waitCtrl.abort(WOKEN);
    else this.wakeRequested = true;
  }

  waiting(): boolean {
    return this.waitCtrl !== undefined;
  }

  private async loop(): Promise<RepeatEnd<T>> {
    const options = this.options;
    let last: T | undefined;
    let rounds = 0;
    let errors = 0;
    let delay = options.firstDelayMs ?? 0;
    for (;;) {
      if (!(await this.wait(delay))) return { cancelled: true, last, rounds };
      let value: T;
      try {
        value = await options.round(rounds++);
        errors = 0;
      } catch (e) {
        if (options.signal?.aborted || !options.isTransient(e)) throw e;
        delay = errorDelayMs(++errors, e, options.errorBackoff);
        options.onTransientError?.(e, { consecutive: errors, delayMs: delay });
        continue;
      }
      last = value;
      const after = options.next(value, rounds);
      if (after === undefined) return { cancelled: false, last, rounds };
      delay = after;
    }
  }

  /** Waits `ms`; false when the signal cancelled the wait. */
  private async wait(ms: number): Promise<boolean> {
    const { signal } = this.options;
    if (signal?.aborted) return false;
    if (this.wakeRequested || ms <= 0) {
      this.wakeRequested = false;
      return true;
    }
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.waitCtrl = ctrl;
    try {
      await this.options.clock.sleep(ms, ctrl.signal);
    } catch (e) {
      if (e !== WOKEN && !signal?.aborted) throw e;
    } finally {
      this.waitCtrl = undefined;
      this.wakeRequested = false;
      signal?.removeEventListener('abort', onAbort);
    }
    return !signal?.aborted;
  }
}
