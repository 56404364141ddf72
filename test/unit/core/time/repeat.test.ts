import assert from 'node:assert/strict';
import { isTransientError, MeasurementsError } from '../../../../src/core/api/errors';
import { DEFAULT_ERROR_BACKOFF, errorDelayMs } from '../../../../src/core/time/backoff';
import { sleep } from '../../../../src/core/time/clock';
import { repeat } from '../../../../src/core/time/repeat';
import { virtualClock } from '../../../support/core/virtual-clock';

const net = () => new MeasurementsError('NETWORK', 'down');

describe('time: repeat (the one polling loop)', () => {
  it('runs rounds on the schedule next() gives, from the first delay, and stops when it says so', async () => {
    const clock = virtualClock(0);
    const at: number[] = [];
    const end = await repeat({
      clock,
      firstDelayMs: 500,
      round: async (n) => {
        at.push(clock.nowMs());
        return n;
      },
      next: (n) => (n < 3 ? 1000 * (n + 1) : undefined),
      isTransient: () => false,
    }).done;
    assert.deepEqual(at, [500, 1500, 3500, 6500]);
    assert.deepEqual(clock.sleeps, [500, 1000, 2000, 3000]);
    assert.deepEqual(end, { cancelled: false, last: 3, rounds: 4 });
  });

  it('is cancelled mid-wait: the wait ends at once, no further round starts, the last value is kept', async () => {
    const clock = virtualClock(0);
    const ctrl = new AbortController();
    let rounds = 0;
    clock.onSleep = () => {
      if (rounds === 2) ctrl.abort();
    };
    const end = await repeat({
      clock,
      signal: ctrl.signal,
      round: async () => ++rounds,
      next: () => 60_000,
      isTransient: () => false,
    }).done;
    assert.equal(rounds, 2);
    assert.deepEqual(end, { cancelled: true, last: 2, rounds: 2 });
    assert.equal(clock.nowMs(), 60_000, 'the cancelled wait did not move time');
  });

  it('rides out transient errors with a capped back-off (never giving up), honouring Retry-After', async () => {
    const clock = virtualClock(0);
    const script: (Error | string)[] = [
      ...Array.from({ length: 8 }, net),
      new MeasurementsError('QUOTA_EXCEEDED', 'slow down', { retryAfterSeconds: 90 }),
      'ok',
    ];
    const told: number[] = [];
    const end = await repeat({
      clock,
      round: async (n) => {
        const s = script[n];
        if (s instanceof Error) throw s;
        return s;
      },
      next: () => undefined,
      isTransient: isTransientError,
      onTransientError: (_e, r) => told.push(r.consecutive),
    }).done;
    assert.equal(end.last, 'ok');
    assert.equal(end.rounds, 10);
    assert.deepEqual(clock.sleeps, [2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 90_000]);
    assert.deepEqual(told, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('resets the back-off after a round that succeeds', async () => {
    const clock = virtualClock(0);
    const script = [net(), net(), 'a', net(), 'b'];
    await repeat({
      clock,
      round: async (n) => {
        const s = script[n];
        if (s instanceof Error) throw s;
        return s;
      },
      next: (v) => (v === 'a' ? 10 : undefined),
      isTransient: isTransientError,
    }).done;
    assert.deepEqual(clock.sleeps, [2000, 4000, 10, 2000]);
  });

  it('stops at once on a permanent error, and on any error once cancelled', async () => {
    const clock = virtualClock(0);
    let rounds = 0;
    const gone = new MeasurementsError('NOT_FOUND', 'Report r-1 was not found');
    await assert.rejects(
      repeat({
        clock,
        round: async () => {
          if (++rounds === 2) throw gone;
          return rounds;
        },
        next: () => 1000,
        isTransient: isTransientError,
      }).done,
      (e) => e === gone,
    );
    assert.equal(rounds, 2);

    const ctrl = new AbortController();
    await assert.rejects(
      repeat({
        clock,
        signal: ctrl.signal,
        round: async () => {
          ctrl.abort();
          throw net();
        },
        next: () => 1000,
        isTransient: isTransientError,
      }).done,
      /down/,
    );
  });

  it('wake() cuts a wait short, also an Infinity one (and a wake during a round skips the next wait)', async () => {
    const clock = virtualClock(0);
    let n = 0;
    const r = repeat({
      clock,
      round: async () => {
        n++;
        if (n === 2) r.wake();
        return n;
      },
      next: (v) => (v < 4 ? Number.POSITIVE_INFINITY : undefined),
      isTransient: () => false,
    });
    clock.onSleep = () => setImmediate(() => r.wake());
    const end = await r.done;
    assert.equal(end.last, 4);
    assert.equal(clock.sleeps.length, 2, 'round 2 woke itself: no wait before round 3');
    assert.equal(clock.nowMs(), 0);
  });

  it('computes the error wait from the policy', () => {
    assert.equal(errorDelayMs(1, net()), DEFAULT_ERROR_BACKOFF.baseMs);
    assert.equal(errorDelayMs(50, net()), DEFAULT_ERROR_BACKOFF.maxMs);
    assert.equal(errorDelayMs(1, { retryAfterSeconds: 5 }), 5000);
  });
});

describe('time: sleep (the one abortable sleep)', () => {
  it('resolves after the time, and rejects with the reason when aborted first or already', async () => {
    await sleep(1);
    const ctrl = new AbortController();
    const p = sleep(Number.POSITIVE_INFINITY, ctrl.signal);
    ctrl.abort(new Error('stop'));
    await assert.rejects(p, /stop/);
    await assert.rejects(sleep(10, ctrl.signal), /stop/);
  });
});
