// ReportPoller: checks a report's status on a back-off schedule until it is succeeded or failed,
// reporting progress (status, elapsed, next check) after every check; cancellable with an AbortSignal.
//
// Decisions:
// - Unknown statuses (not in-progress/succeeded/failed) are reported as-is and polling continues; if
//   one persists for `unknownStatusLimitMs` (default 1 h) the poller stops and returns that record,
//   so a status the client does not understand can neither crash nor spin forever.
// - Transient errors (network, timeout, server-error, rate limit) are reported and polling goes on,
//   up to `maxConsecutiveErrors`; errors a retry cannot fix (unauthorized, forbidden, not-found,
//   bad-request) end the wait at once.
// - No overall cap by default (a big report may take long); `deadlineMs` sets one.

import type { CallOptions } from '../api/client-types';
import { MeasurementsError } from '../api/errors';
import type { ReportRecord } from '../api/types';
import { DEFAULT_POLL_SCHEDULE, type PollSchedule, pollDelayMs } from './schedule';
import { isTerminal, type ReportState, reportState } from './status';

export interface ReportStatusSource {
  getReport(reportId: string, options?: CallOptions): Promise<ReportRecord>;
}

export interface PollProgress {
  reportId: string;
  /** The raw status, shown as-is (also for statuses the client does not know). */
  status: string;
  state: ReportState;
  message: string;
  /** Since the poll (or `startedAt`) began. */
  elapsedMs: number;
  /** Status checks made so far. */
  checks: number;
  /** When the next check happens; undefined once terminal. */
  nextCheckInMs?: number;
  nextCheckAt?: Date;
  /** The last check failed with this (transient) error; polling goes on. */
  error?: MeasurementsError;
  record?: ReportRecord;
}

/** Time source; tests pass a virtual clock so nothing waits for real. */
export interface PollClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface PollOptions {
  signal?: AbortSignal;
  onProgress?: (progress: PollProgress) => void;
  schedule?: Partial<PollSchedule>;
  clock?: PollClock;
  /** The record createReport returned: reported at once, and the first check waits one delay. */
  initial?: ReportRecord;
  /** Epoch ms the report was created, for elapsed times that survive a restart. */
  startedAt?: number;
  maxConsecutiveErrors?: number;
  unknownStatusLimitMs?: number;
  deadlineMs?: number;
  random?: () => number;
}

const TRANSIENT = new Set(['network', 'timeout', 'server-error', 'quota-exceeded']);

export const realClock: PollClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export class ReportPoller {
  private readonly schedule: PollSchedule;
  private readonly clock: PollClock;

  constructor(
    private readonly source: ReportStatusSource,
    readonly reportId: string,
    private readonly options: PollOptions = {},
  ) {
    this.schedule = { ...DEFAULT_POLL_SCHEDULE, ...options.schedule };
    this.clock = options.clock ?? realClock;
  }

  /** Polls until succeeded or failed (resolves with that record), or until a bound (see the notes above). */
  async run(): Promise<ReportRecord> {
    const o = this.options;
    const start = o.startedAt ?? this.clock.now();
    const maxErrors = o.maxConsecutiveErrors ?? 5;
    const unknownLimit = o.unknownStatusLimitMs ?? 60 * 60 * 1000;
    let checks = 0;
    let errors = 0;
    let unknownSince: number | undefined;
    let last = o.initial;

    const emit = (p: Omit<PollProgress, 'reportId' | 'elapsedMs' | 'checks' | 'state'>, next?: number) => {
      const now = this.clock.now();
      o.onProgress?.({
        reportId: this.reportId,
        state: reportState(p.status),
        elapsedMs: now - start,
        checks,
        ...p,
        ...(next === undefined ? {} : { nextCheckInMs: next, nextCheckAt: new Date(now + next) }),
      });
    };

    let delay = 0;
    if (last) {
      if (isTerminal(last.reportStatus)) {
        emit({ status: last.reportStatus, message: last.message, record: last });
        return last;
      }
      delay = pollDelayMs(0, this.schedule, o.random);
      emit({ status: last.reportStatus, message: last.message, record: last }, delay);
    }

    for (let step = last ? 1 : 0; ; step++) {
      if (delay > 0) await this.sleep(delay);
      this.throwIfAborted();
      try {
        last = await this.source.getReport(this.reportId, { signal: o.signal });
        checks++;
        errors = 0;
      } catch (e) {
        checks++;
        if (!(e instanceof MeasurementsError) || !TRANSIENT.has(e.code) || ++errors >= maxErrors) throw e;
        delay = Math.max(pollDelayMs(step, this.schedule, o.random), (e.retryAfterSeconds ?? 0) * 1000);
        delay = this.boundByDeadline(delay, start);
        emit(
          { status: last?.reportStatus ?? 'in-progress', message: last?.message ?? '', record: last, error: e },
          delay,
        );
        continue;
      }
      if (isTerminal(last.reportStatus)) {
        emit({ status: last.reportStatus, message: last.message, record: last });
        return last;
      }
      const now = this.clock.now();
      if (reportState(last.reportStatus) === 'unknown') {
        unknownSince ??= now;
        if (now - unknownSince >= unknownLimit) {
          emit({ status: last.reportStatus, message: last.message, record: last });
          return last;
        }
      } else {
        unknownSince = undefined;
      }
      delay = this.boundByDeadline(pollDelayMs(step, this.schedule, o.random), start);
      emit({ status: last.reportStatus, message: last.message, record: last }, delay);
    }
  }

  private boundByDeadline(delay: number, start: number): number {
    const deadline = this.options.deadlineMs;
    if (deadline === undefined) return delay;
    const left = start + deadline - this.clock.now();
    if (left <= 0) {
      throw new MeasurementsError(
        'timeout',
        `Report ${this.reportId} was not ready within ${Math.round(deadline / 1000)} s; it may still finish: check it again later.`,
      );
    }
    return Math.min(delay, left);
  }

  private async sleep(ms: number): Promise<void> {
    try {
      await this.clock.sleep(ms, this.options.signal);
    } catch {
      this.throwIfAborted();
      throw new MeasurementsError('cancelled', `Stopped waiting for report ${this.reportId}.`);
    }
  }

  private throwIfAborted(): void {
    if (this.options.signal?.aborted) {
      throw new MeasurementsError('cancelled', `Stopped waiting for report ${this.reportId}.`);
    }
  }
}

/** Waits for a report to reach succeeded or failed; see ReportPoller. */
export function waitForReport(
  source: ReportStatusSource,
  reportId: string,
  options?: PollOptions,
): Promise<ReportRecord> {
  return new ReportPoller(source, reportId, options).run();
}
