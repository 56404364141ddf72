// Polls the reports that are not finished (in progress, or a status the service added later: the core's
// isTerminal), and only those, on the core's back-off schedule: the first
// checks within seconds, then slower, stopping at a terminal status. After a reload the reports still in
// progress are picked up again. While the window has been unfocused for long, checks pause and resume
// (with an immediate check) when it is focused again. A finished report raises a notification with Open.
import * as vscode from 'vscode';
import { isMeasurementsError } from '../../core/api/errors';
import { isTerminal } from '../../core/reports/status';
import type { ClientProvider } from '../connections/client-provider';
import type { ConnectionStore } from '../connections/connection-store';
import { notify } from '../ui/notices';
import { reportState } from './report-status';
import type { ReportsStore } from './reports-store';
import { describeReport, type TrackedReport, withRecord } from './tracked-report';

/** Delay before the next status check, from the number of checks made and the report's age. */
export type PollSchedule = (checksMade: number, elapsedMs: number) => number;

/** How long the window may be unfocused before polling pauses. */
export const PAUSE_WHEN_UNFOCUSED_MS = 5 * 60_000;

interface Watch {
  timer?: NodeJS.Timeout;
  checks: number;
  busy: boolean;
}

/** Whether the window is focused, and its changes (the VS Code window by default; tests pass their own). */
export interface WindowFocus {
  focused(): boolean;
  onDidChange(listener: (focused: boolean) => void): vscode.Disposable;
}

const vscodeWindowFocus: WindowFocus = {
  focused: () => vscode.window.state.focused,
  onDidChange: (listener) => vscode.window.onDidChangeWindowState((s) => listener(s.focused)),
};

const keyOf = (t: Pick<TrackedReport, 'connectionId' | 'reportId'>) => `${t.connectionId}\u0000${t.reportId}`;

export class ReportWatcher implements vscode.Disposable {
  private readonly watches = new Map<string, Watch>();
  private unfocusedSince: number | undefined;
  private disposed = false;
  private readonly subs: vscode.Disposable[] = [];
  private readonly finished = new vscode.EventEmitter<TrackedReport>();
  readonly onDidFinish = this.finished.event;

  constructor(
    private readonly store: ReportsStore,
    private readonly clients: ClientProvider,
    private readonly connections: ConnectionStore,
    private readonly schedule: PollSchedule,
    private readonly onFinished: (t: TrackedReport) => void,
    focus: WindowFocus = vscodeWindowFocus,
    private readonly now: () => number = Date.now,
  ) {
    this.unfocusedSince = focus.focused() ? undefined : this.now();
    this.subs.push(
      store.onDidAdd((t) => this.watch(t)),
      focus.onDidChange((focused) => {
        if (focused) {
          const wasPaused = this.paused();
          this.unfocusedSince = undefined;
          if (wasPaused) this.checkAllNow();
        } else {
          this.unfocusedSince ??= this.now();
        }
      }),
    );
  }

  /** Picks up every report still in progress (at activation: resumes polling after a reload). */
  resume(): void {
    for (const t of this.store.inProgress()) this.watch(t, 0);
  }

  /** Reports being polled (for the view and tests). */
  watched(): string[] {
    return [...this.watches.keys()].map((k) => k.split('\u0000')[1]);
  }

  paused(): boolean {
    return this.unfocusedSince !== undefined && this.now() - this.unfocusedSince > PAUSE_WHEN_UNFOCUSED_MS;
  }

  /** Reports with a status check scheduled or under way (none while paused). */
  scheduled(): string[] {
    return [...this.watches.entries()]
      .filter(([, w]) => w.timer !== undefined || w.busy)
      .map(([k]) => k.split('\u0000')[1]);
  }

  watch(t: TrackedReport, delayMs?: number): void {
    if (this.disposed) return;
    if (isTerminal(t.record.reportStatus)) return;
    const key = keyOf(t);
    let w = this.watches.get(key);
    if (!w) {
      w = { checks: 0, busy: false };
      this.watches.set(key, w);
    }
    this.plan(key, w, delayMs ?? this.schedule(w.checks, Date.now() - Date.parse(t.addedAt)));
  }

  /** Refresh: checks every tracked report of the active connection now (terminal ones too, once). */
  async refreshAll(): Promise<void> {
    const active = this.connections.activeId();
    await Promise.all(this.store.forConnection(active).map((t) => this.check(keyOf(t), true)));
  }

  private checkAllNow(): void {
    for (const [key, w] of this.watches) this.plan(key, w, 0);
  }

  private plan(key: string, w: Watch, delayMs: number): void {
    clearTimeout(w.timer);
    w.timer = setTimeout(
      () => {
        w.timer = undefined;
        void this.check(key);
      },
      Math.max(0, delayMs),
    );
  }

  private async check(key: string, manual = false): Promise<void> {
    const [connectionId, reportId] = key.split('\u0000');
    const t = this.store.get(connectionId, reportId);
    const w = this.watches.get(key);
    if (!t) {
      this.stop(key);
      return;
    }
    if (!manual && this.paused()) return; // resumed by the next focus
    if (w?.busy) return;
    if (w) w.busy = true;
    const wasOpen = !isTerminal(t.record.reportStatus);
    try {
      const connection = this.connections.get(connectionId);
      if (!connection) throw new Error('its connection was removed');
      const { client } = await this.clients.forConnection(connection);
      const record = await client.getReport(reportId);
      // Stop before the store shows the terminal status: whoever sees it finished never sees it polled.
      const terminal = isTerminal(record.reportStatus);
      if (terminal) this.stop(key);
      const updated = await this.store.update(connectionId, reportId, (x) => withRecord(x, record, new Date()));
      if (terminal) {
        if (wasOpen && updated) {
          this.finished.fire(updated);
          this.onFinished(updated);
        }
        return;
      }
    } catch (e) {
      const message = (e as Error).message;
      await this.store.update(connectionId, reportId, (x) => ({
        ...x,
        lastError: message,
        checkedAt: new Date().toISOString(),
      }));
      // An unknown report will not come back: stop polling it (the node shows why).
      if (
        isMeasurementsError(e, 'not-found') ||
        isMeasurementsError(e, 'unauthorized') ||
        isMeasurementsError(e, 'forbidden')
      ) {
        this.stop(key);
        return;
      }
    } finally {
      if (w) w.busy = false;
    }
    const cur = this.store.get(connectionId, reportId);
    if (!cur || isTerminal(cur.record.reportStatus)) return;
    const ww = this.watches.get(key);
    if (!ww) {
      // A manual refresh of a report that was not polled (polling stopped on an error): poll it again.
      if (manual && !this.disposed) this.watch(cur);
      return;
    }
    ww.checks += 1;
    this.plan(key, ww, this.schedule(ww.checks, Date.now() - Date.parse(cur.addedAt)));
  }

  private stop(key: string): void {
    const w = this.watches.get(key);
    if (w) clearTimeout(w.timer);
    this.watches.delete(key);
  }

  dispose(): void {
    this.disposed = true;
    for (const key of [...this.watches.keys()]) this.stop(key);
    for (const s of this.subs) s.dispose();
    this.finished.dispose();
  }
}

/** The notification of a finished report, with Open (downloads and opens its first file). */
export function notifyFinished(t: TrackedReport): void {
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
