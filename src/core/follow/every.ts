// `follow ... every <duration>`: the one loop of a tail (the notebook controller and `measnb follow` both
// run it). Each step's rows are delivered (written, the cursor kept) before the wait, so a cancel during
// the wait loses nothing. Waiting, cancellation and errors follow core/time/repeat's one policy: a
// transient error (network, timeout, 5xx, 429) is reported and the tail goes on after a capped back-off;
// any other error ends it. A single step (no `every`: `--once` from cron) is not retried: its error is
// the caller's, so an unattended job never hangs.
import { isTransientError } from '../api/errors';
import type { WaitClock } from '../time/clock';
import { repeat } from '../time/repeat';

export interface FollowLoopOptions<R> {
  clock: WaitClock;
  signal?: AbortSignal;
  /** Between steps; undefined makes one step only. */
  everyMs?: number;
  /** One step of the tail (a followStep through runCell). */
  step: () => Promise<R>;
  /** Hands a step's result on; `nextAt` is when the next step starts (undefined after the last). */
  deliver: (result: R, nextAt: Date | undefined) => Promise<void>;
  /** A transient error the tail rides out, and when it tries again. */
  onTransientError?: (error: unknown, retryAt: Date) => void;
}

export interface FollowLoopEnd {
  /** The signal ended the tail during a wait (not a step). */
  cancelled: boolean;
  steps: number;
}

/** Runs the tail until a single step is done, or until the signal aborts (see the notes above). */
export async function followEvery<R>(options: FollowLoopOptions<R>): Promise<FollowLoopEnd> {
  const { clock, everyMs } = options;
  const end = await repeat<R>({
    clock,
    signal: options.signal,
    round: async () => {
      const result = await options.step();
      await options.deliver(result, everyMs === undefined ? undefined : new Date(clock.nowMs() + everyMs));
      return result;
    },
    next: () => everyMs,
    isTransient: (e) => everyMs !== undefined && isTransientError(e),
    onTransientError: (e, retry) => options.onTransientError?.(e, new Date(clock.nowMs() + retry.delayMs)),
  }).done;
  return { cancelled: end.cancelled, steps: end.rounds };
}
