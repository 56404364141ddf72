// Polls the reports that are not finished (in progress, or a status the service added later: the core's
// isTerminal; an unknown status for at most an hour in a row, core/reports/status.ts unknownStatusLimit,
// the same rule as report cells and the CLI, then polling stops and the node says so), and only those,
// each with the core's one polling loop (core/time/repeat) on the core's back-off schedule read from
// the report's age (the time since it was added): the first checks within seconds, then slower,
// stopping at a terminal status. After a reload the reports still in progress are
// picked up again with a check at once, and their schedule continues from their age (no fresh fast
// phase for an old report). Errors follow repeat's policy: transient ones (network, timeout, 5xx, 429)
// back off and polling goes on; any other (not found, unauthorized, its connection removed) stops the
// polling of that report, the node shows why, and Refresh starts it again. While the window has been
// unfocused for long, checks pause and resume (with an immediate check) when it is focused again. A
// finished report raises a notification with Open.
// One poller per report: a report a cell is waiting for is polled by the cell's core ReportPoller only;
// the watcher observes it (observe(): the cell's records update the view) and takes over if the cell
// stops waiting while the report is still open (the cell was cancelled).
import * as vscode from 'vscode';
import { isTransientError } from '../../core/api/errors';
import type { ReportRecord } from '../../core/api/types';
import { isTerminal, UNKNOWN_STATUS_LIMIT_MS, unknownStatusLimit } from '../../core/reports/status';
import type { WaitClock } from '../../core/time/clock';
import { formatDuration } from '../../core/time/duration';
import { parseIsoMs } from '../../core/time/iso';
import { type Repetition, repeat } from '../../core/time/repeat';
import type { ClientProvider } from '../connections/client-provider';
import type { ConnectionStore } from '../connections/connection-store';
import { notify } from '../ui/notices';
import { reportState } from './report-status';
import type { ReportsStore } from './reports-store';
import { describeReport, notifiesWhenFinished, type TrackedReport, withRecord } from './tracked-report';

/** Delay before the next status check of a report `ageMs` old (core/reports/schedule.ts pollDelayMs). */
type PollDelay = (ageMs: number) => number;

/** A report polled elsewhere (a report cell's ReportPoller), as the watcher observes it. */
export interface ReportObservation {
  /** A record the other poller got: the view shows it (a finished one finishes the report here too). */
  seen(record: ReportRecord): Promise<void>;
  /** The other poller stopped: a report still open is polled by the watcher from now on. */
  end(): void;
}

/** Who else polls reports tells the watcher (the notebook controller, for report cells). */
export interface ReportPolls {
  observe(connectionId: string, reportId: string): ReportObservation;
}

/** How long the window may be unfocused before polling pauses. */
export const PAUSE_WHEN_UNFOCUSED_MS = 5 * 60_000;

/**
 * What a check found: still open, finished (or gone), an unknown status for too long (polling stops), or
 * not made (paused, or another check under way).
 */
type CheckResult = 'open' | 'done' | 'unknown-too-long' | 'paused' | 'skipped';

interface Watch {
  stop: AbortController;
  loop?: Repetition<CheckResult>;
  busy: boolean;
  paused: boolean;
  /** Whether an unknown status has lasted too long (core unknownStatusLimit, one per watch). */
  unknownTooLong: (status: string, nowMs: number) => boolean;
}

/** Whether the window is focused, and its changes (the VS Code window by default; tests pass their own). */
interface WindowFocus {
  focused(): boolean;
  onDidChange(listener: (focused: boolean) => void): vscode.Disposable;
}

const vscodeWindowFocus: WindowFocus = {
  focused: () => vscode.window.state.focused,
  onDidChange: (listener) => vscode.window.onDidChangeWindowState((s) => listener(s.focused)),
};

const keyOf = (t: Pick<TrackedReport, 'connectionId' | 'reportId'>) => `${t.connectionId}\u0000${t.reportId}`;

export class ReportWatcher implements vscode.Disposable, ReportPolls {
  private readonly watches = new Map<string, Watch>();
  /** Reports polled elsewhere (how many pollers each): observed, never polled here at the same time. */
  private readonly observed = new Map<string, number>();
  private unfocusedSince: number | undefined;
  private disposed = false;
  private readonly subs: vscode.Disposable[] = [];
  private readonly finished = new vscode.EventEmitter<TrackedReport>();
  readonly onDidFinish = this.finished.event;

  constructor(
    private readonly store: ReportsStore,
    private readonly clients: ClientProvider,
    private readonly connections: ConnectionStore,
    /** The services' clock: reports' ages, the unfocused time, and the waits. */
    private readonly clock: WaitClock,
    private readonly schedule: PollDelay,
    private readonly onFinished: (t: TrackedReport) => void,
    focus: WindowFocus = vscodeWindowFocus,
  ) {
    this.unfocusedSince = focus.focused() ? undefined : this.clock.nowMs();
    this.subs.push(
      store.onDidAdd((t) => this.watch(t)),
      focus.onDidChange((focused) => {
        if (focused) {
          const wasPaused = this.paused();
          this.unfocusedSince = undefined;
          if (wasPaused) this.checkAllNow();
        } else {
          this.unfocusedSince ??= this.clock.nowMs();
        }
      }),
    );
  }

  /** Picks up every report still in progress (at activation: resumes polling after a reload), checking each now. */
  resume(): void {
    for (const t of this.store.inProgress()) this.watch(t, 0);
  }

  /** Reports being polled (for the view and tests). */
  watched(): string[] {
    return [...this.watches.keys()].map((k) => k.split('\u0000')[1]);
  }

  paused(): boolean {
    return this.unfocusedSince !== undefined && this.clock.nowMs() - this.unfocusedSince > PAUSE_WHEN_UNFOCUSED_MS;
  }

  /** Reports with a status check scheduled or under way (none while paused). */
  scheduled(): string[] {
    return [...this.watches.entries()].filter(([, w]) => !w.paused).map(([k]) => k.split('\u0000')[1]);
  }

  /** The wait before the next check of `t`, from its age. */
  delayFor(t: TrackedReport): number {
    const added = parseIsoMs(t.addedAt) ?? this.clock.nowMs();
    return this.schedule(Math.max(0, this.clock.nowMs() - added));
  }

  /**
   * A report cell polls this report itself (core ReportPoller): until end(), the watcher does not poll it
   * too, and what the cell's poller sees updates the view; after, a report still open is watched here.
   */
  observe(connectionId: string, reportId: string): ReportObservation {
    const key = keyOf({ connectionId, reportId });
    this.observed.set(key, (this.observed.get(key) ?? 0) + 1);
    this.stop(key);
    let ended = false;
    return {
      seen: (record) => this.seen(key, record),
      end: () => {
        if (ended) return;
        ended = true;
        const left = (this.observed.get(key) ?? 1) - 1;
        if (left > 0) this.observed.set(key, left);
        else this.observed.delete(key);
        const cur = this.store.get(connectionId, reportId);
        if (cur) this.watch(cur);
      },
    };
  }

  /** Polls `t` until it finishes: the first check after `delayMs` (default: its schedule at its age). */
  watch(t: TrackedReport, delayMs?: number): void {
    if (this.disposed || isTerminal(t.record.reportStatus)) return;
    const key = keyOf(t);
    if (this.observed.has(key)) return; // polled elsewhere: one poller per report
    const existing = this.watches.get(key);
    if (existing) {
      if (delayMs === 0) existing.loop?.wake();
      return;
    }
    const w: Watch = {
      stop: new AbortController(),
      busy: false,
      paused: false,
      unknownTooLong: unknownStatusLimit(),
    };
    this.watches.set(key, w);
    w.loop = repeat<CheckResult>({
      clock: this.clock,
      signal: w.stop.signal,
      firstDelayMs: delayMs ?? this.delayFor(t),
      round: () => this.check(key, w),
      next: (result) => this.nextDelay(key, result),
      isTransient: isTransientError,
    });
    void w.loop.done
      .catch(() => undefined) // a permanent error: recorded on the report by check()
      .finally(() => {
        if (this.watches.get(key) === w) this.watches.delete(key);
      });
  }

  /** Refresh: checks every tracked report of the active connection now (terminal ones too, once). */
  async refreshAll(): Promise<void> {
    const active = this.connections.activeId();
    await Promise.all(this.store.forConnection(active).map((t) => this.refresh(keyOf(t))));
  }

  private async refresh(key: string): Promise<void> {
    const result = await this.check(key, this.watches.get(key), true).catch((e) => {
      // The same policy as the loop's: an error a retry cannot fix stops the polling (the node shows it).
      if (isTransientError(e)) return 'open' as const;
      this.stop(key);
      return 'failed' as const;
    });
    const [connectionId, reportId] = key.split('\u0000');
    const cur = this.store.get(connectionId, reportId);
    // A report that was not polled (polling stopped on an error) and may still be open: poll it again.
    if (result !== 'done' && result !== 'failed' && cur && !this.watches.has(key)) this.watch(cur);
  }

  private nextDelay(key: string, result: CheckResult): number | undefined {
    if (result === 'done' || result === 'unknown-too-long') return undefined;
    if (result === 'paused') return Number.POSITIVE_INFINITY; // until checkAllNow wakes it
    const [connectionId, reportId] = key.split('\u0000');
    const cur = this.store.get(connectionId, reportId);
    if (!cur || isTerminal(cur.record.reportStatus)) return undefined;
    return this.delayFor(cur);
  }

  private checkAllNow(): void {
    for (const w of this.watches.values()) {
      w.paused = false;
      w.loop?.wake();
    }
  }

  /** One status check; a failure is recorded on the report (lastError) and thrown on. */
  private async check(key: string, w: Watch | undefined, manual = false): Promise<CheckResult> {
    const [connectionId, reportId] = key.split('\u0000');
    const t = this.store.get(connectionId, reportId);
    if (!t) {
      this.stop(key);
      return 'done';
    }
    if (w && !manual && this.paused()) {
      w.paused = true;
      return 'paused';
    }
    if (w?.busy) return 'skipped';
    if (w) w.busy = true;
    try {
      return await this.checkReport(key, t, w);
    } catch (e) {
      const message = (e as Error).message;
      await this.store.update(connectionId, reportId, (x) => ({
        ...x,
        lastError: message,
        checkedAt: new Date(this.clock.nowMs()).toISOString(),
      }));
      throw e;
    } finally {
      if (w) w.busy = false;
    }
  }

  private async checkReport(key: string, t: TrackedReport, w: Watch | undefined): Promise<CheckResult> {
    const { connectionId, reportId } = t;
    const wasOpen = !isTerminal(t.record.reportStatus);
    const connection = this.connections.get(connectionId);
    if (!connection) throw new Error('its connection was removed');
    const { client } = await this.clients.forConnection(connection);
    const record = await client.getReport(reportId);
    // Stop before the store shows the terminal status: whoever sees it finished never sees it polled.
    const terminal = isTerminal(record.reportStatus);
    if (terminal) this.stop(key);
    const now = new Date(this.clock.nowMs());
    const updated = await this.store.update(connectionId, reportId, (x) => withRecord(x, record, now));
    if (!terminal) return w?.unknownTooLong(record.reportStatus, now.getTime()) ? this.giveUp(key, record) : 'open';
    if (wasOpen && updated) this.finish(updated);
    return 'done';
  }

  /** A record another poller got (observe()): shown as the watcher's own checks are. */
  private async seen(key: string, record: ReportRecord): Promise<void> {
    const [connectionId, reportId] = key.split('\u0000');
    const t = this.store.get(connectionId, reportId);
    if (!t || this.disposed) return;
    const wasOpen = !isTerminal(t.record.reportStatus);
    const updated = await this.store.update(connectionId, reportId, (x) =>
      withRecord(x, record, new Date(this.clock.nowMs())),
    );
    if (wasOpen && updated && isTerminal(record.reportStatus)) this.finish(updated);
  }

  /** A report was seen finishing (by a check here or by an observed poller). */
  private finish(updated: TrackedReport): void {
    this.finished.fire(updated);
    this.onFinished(updated);
  }

  /** An unknown status lasted too long: polling stops, and the report says why (Refresh checks again). */
  private async giveUp(key: string, record: ReportRecord): Promise<CheckResult> {
    this.stop(key);
    const [connectionId, reportId] = key.split('\u0000');
    const status = JSON.stringify(String(record.reportStatus).slice(0, 40));
    const limit = formatDuration(UNKNOWN_STATUS_LIMIT_MS, 'coarse');
    await this.store.update(connectionId, reportId, (x) => ({
      ...x,
      lastError: `status ${status} is not one this version knows; checked for ${limit}, then stopped (Refresh checks again)`,
    }));
    return 'unknown-too-long';
  }

  private stop(key: string): void {
    const w = this.watches.get(key);
    w?.stop.abort();
    this.watches.delete(key);
  }

  dispose(): void {
    this.disposed = true;
    for (const key of [...this.watches.keys()]) this.stop(key);
    for (const s of this.subs) s.dispose();
    this.finished.dispose();
  }
}

/** The notification of a finished report, with Open (downloads and opens its first file); none for a cell's. */
export function notifyFinished(t: TrackedReport): void {
  if (!notifiesWhenFinished(t)) return;
  const d = describeReport(t.record);
  const state = reportState(t.record.reportStatus);
  if (state === 'succeeded') {
    void notify('info', `Report ${d.kind} (${d.range}) is ready: ${t.files.length} file(s).`, 'Open').then((a) => {
      if (a === 'Open')
        void vscode.commands.executeCommand('measurements.openReportFile', { report: t, file: t.files[0] });
    });
  } else {
    void notify(
      'error',
      `Report ${d.kind} (${d.range}) ended as ${t.record.reportStatus}${t.record.message ? `: ${t.record.message}` : ''}.`,
    );
  }
}
