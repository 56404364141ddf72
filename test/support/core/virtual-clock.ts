// A virtual WaitClock for tests: sleeping moves its time at once (no real waiting) and records each wait;
// an Infinity wait and every wait honour the abort signal. `onSleep` lets a test act mid-wait.
import type { WaitClock } from '../../../src/core/time/clock';

export interface VirtualClock extends WaitClock {
  t: number;
  /** Every wait asked for, in order. */
  sleeps: number[];
  /** Called at the start of each wait (before time moves), e.g. to abort or wake. */
  onSleep?: (ms: number) => void;
}

export function virtualClock(startMs = 1_000_000): VirtualClock {
  const c: VirtualClock = {
    t: startMs,
    sleeps: [],
    nowMs: () => c.t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      c.sleeps.push(ms);
      c.onSleep?.(ms);
      // Let the test's callbacks (an abort, a wake) land before time moves on.
      await new Promise((r) => setImmediate(r));
      if (signal?.aborted) throw signal.reason;
      if (ms === Number.POSITIVE_INFINITY) {
        await new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
      }
      c.t += ms;
    },
  };
  return c;
}
