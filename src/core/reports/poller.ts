// ReportPoller: checks a report's status on the back-off schedule (schedule.ts, read from the report's
// age) until it is succeeded or failed, reporting progress (status, elapsed, next check) after every
// check; cancellable with an AbortSignal. The loop is core/time/repeat.
//
// Decisions:
// - Unknown statuses (not in-progress/succeeded/failed) are reported as-is and polling continues; if
//   one persists for `unknownStatusLimitMs` (default 1 h, status.ts UNKNOWN_STATUS_LIMIT_MS: the same rule
//   as the Reports view's) the poller stops and returns that record, so a status the client does not
//   understand can neither crash nor spin forever.
// - Errors follow repeat's one policy: transient ones (network, timeout, 5xx, 429) are reported and
//   polling goes on after a capped back-off, without giving up; errors a retry cannot fix
//   (unauthorized, forbidden, not-found, bad-request) end the wait at once.
// - No overall cap by default (a big report may take long; the user cancels); `deadlineMs` sets one.

import { isTransientError, MeasurementsError, ReportDeadlineError } from '../api/errors';
import type { ReportRecord } from '../api/types';
import type { CallOptions } from '../client/client-types';
import type { WaitClock } from '../time/clock';
import { type RepeatOptions, repeat } from '../time/repeat';
import { DEFAULT_POLL_SCHEDULE, type PollSchedule, pollDelayMs } from './schedule';
import { isTerminal, type ReportState, reportState, unknownStatusLimit } from './status';

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

export interface PollOptions {
  signal?: AbortSignal;
  onProgress?: (progress: PollProgress) => void;
  schedule?: Partial<PollSchedule>;
  /** Time source (required: the caller's one clock; the client's in core/run); tests pass a virtual clock. */
  clock: WaitClock;
  /** The record createReport returned: reported at once, and the first check waits one delay. */
  initial?: ReportRecord;
  /** Epoch ms the report was created: elapsed times and the schedule survive a restart. */
  startedAt?: number;
  unknownStatusLimitMs?: number;
  deadlineMs?: number;
  random?: () => number;
}

type ProgressPart = Omit<PollProgress, 'reportId' | 'elapsedMs' | 'checks' | 'state'>;

/** One run of the poller: when it started, how many checks so far, the last record seen. */
interface PollRun {
  start: number;
  checks: number;
  last: ReportRecord | undefined;
}

function shown(r: ReportRecord): ProgressPart {
  return { status: r.reportStatus, message: r.message, record: r };
}

export class ReportPoller {
  private readonly schedule: PollSchedule;
  private readonly clock: WaitClock;

  constructor(
    private readonly source: ReportStatusSource,
    readonly reportId: string,
    private readonly options: PollOptions,
  ) {
    this.schedule = { ...DEFAULT_POLL_SCHEDULE, ...options.schedule };
    this.clock = options.clock;
  }

  /** Polls until succeeded or failed (resolves with that record), or until a bound (see the notes above). */
  async run(): Promise<ReportRecord> {
    const o = this.options;
    const run: PollRun = { start: o.startedAt ?? this.clock.nowMs(), checks: 0, last: o.initial };
    let firstDelayMs = 0;
    if (run.last) {
      if (isTerminal(run.last.reportStatus)) {
        this.emit(run, shown(run.last));
        return run.last;
      }
      firstDelayMs = this.nextDelay(run.start);
      this.emit(run, shown(run.last), firstDelayMs);
    }
    const end = await repeat(this.rounds(run, firstDelayMs)).done.catch((e) => {
      throw o.signal?.aborted ? this.cancelled() : e;
    });
    if (end.cancelled || !end.last) throw this.cancelled();
    return end.last;
  }

  /** The loop's rounds: one check each, the next delay from the schedule, transient errors ridden out. */
  private rounds(run: PollRun, firstDelayMs: number): RepeatOptions<ReportRecord> {
    const o = this.options;
    const unknownTooLong = unknownStatusLimit(o.unknownStatusLimitMs);
    return {
      clock: this.clock,
      signal: o.signal,
      firstDelayMs,
      round: async () => {
        this.checkDeadline(run.start);
        try {
          run.last = await this.source.getReport(this.reportId, { signal: o.signal });
          return run.last;
        } finally {
          run.checks++;
        }
      },
      next: (record) => {
        if (isTerminal(record.reportStatus) || unknownTooLong(record.reportStatus, this.clock.nowMs())) {
          this.emit(run, shown(record));
          return undefined;
        }
        const delay = this.nextDelay(run.start);
        this.emit(run, shown(record), delay);
        return delay;
      },
      isTransient: isTransientError,
      onTransientError: (e, retry) => {
        const last = run.last;
        const status = { status: last?.reportStatus ?? 'in-progress', message: last?.message ?? '', record: last };
        this.emit(run, { ...status, error: e as MeasurementsError }, retry.delayMs);
      },
    };
  }

  /** Reports progress: the record's status, and when the next check is (`next` ms from now) if there is one. */
  private emit(run: PollRun, p: ProgressPart, next?: number): void {
    const now = this.clock.nowMs();
    this.options.onProgress?.({
      reportId: this.reportId,
      state: reportState(p.status),
      elapsedMs: now - run.start,
      checks: run.checks,
      ...p,
      ...(next === undefined ? {} : { nextCheckInMs: next, nextCheckAt: new Date(now + next) }),
    });
  }

  /** The next delay from the report's age, bounded by the deadline (past it: a timeout error). */
  private nextDelay(start: number): number {
    const delay = pollDelayMs(this.clock.nowMs() - start, this.schedule, this.options.random);
    const deadline = this.options.deadlineMs;
    if (deadline === undefined) return delay;
    return Math.min(delay, this.checkDeadline(start));
  }

  /** Time left before the deadline (Infinity without one); throws a timeout once it has passed. */
  private checkDeadline(start: number): number {
    const deadline = this.options.deadlineMs;
    if (deadline === undefined) return Number.POSITIVE_INFINITY;
    const left = start + deadline - this.clock.nowMs();
    if (left <= 0) {
      throw new ReportDeadlineError(this.reportId, deadline);
    }
    return left;
  }

  private cancelled(): MeasurementsError {
    return new MeasurementsError('CANCELLED', `Stopped waiting for report ${this.reportId}.`);
  }
}

/** Waits for a report to reach succeeded or failed; see ReportPoller. */
export function waitForReport(
  source: ReportStatusSource,
  reportId: string,
  options: PollOptions,
): Promise<ReportRecord> {
  return new ReportPoller(source, reportId, options).run();
}
