// The reports the Reports view shows, per connection, kept in global state so they survive a reload.
import * as vscode from 'vscode';
import type { ReportRecord } from '../../core/api/types';
import { isTerminal } from '../../core/reports/status';
import { type TrackedReport, withRecord } from './tracked-report';

const STATE_KEY = 'measurements.reports';

export class ReportsStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TrackedReport | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly added = new vscode.EventEmitter<TrackedReport>();
  /** A report was added (or re-added) while in progress: the poller picks it up. */
  readonly onDidAdd = this.added.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly now: () => Date = () => new Date(),
  ) {}

  all(): TrackedReport[] {
    return this.state.get<TrackedReport[]>(STATE_KEY, []);
  }

  forConnection(connectionId: string): TrackedReport[] {
    return this.all()
      .filter((r) => r.connectionId === connectionId)
      .sort((a, b) => b.addedAt.localeCompare(a.addedAt));
  }

  get(connectionId: string, reportId: string): TrackedReport | undefined {
    return this.all().find((r) => r.connectionId === connectionId && r.reportId === reportId);
  }

  /** Reports not in a terminal state (what polling resumes after a reload). */
  inProgress(): TrackedReport[] {
    return this.all().filter((r) => !isTerminal(r.record.reportStatus));
  }

  async track(record: ReportRecord, connectionId: string): Promise<TrackedReport> {
    const prior = this.get(connectionId, record.reportId);
    const base: TrackedReport = prior ?? {
      connectionId,
      reportId: record.reportId,
      record,
      addedAt: this.now().toISOString(),
      files: [],
    };
    const t = withRecord(base, record, this.now());
    await this.put(t);
    this.added.fire(t);
    return t;
  }

  async update(
    connectionId: string,
    reportId: string,
    change: (t: TrackedReport) => TrackedReport,
  ): Promise<TrackedReport | undefined> {
    const t = this.get(connectionId, reportId);
    if (!t) return undefined;
    const next = change(t);
    await this.put(next);
    return next;
  }

  async remove(connectionId: string, reportId: string): Promise<void> {
    await this.state.update(
      STATE_KEY,
      this.all().filter((r) => !(r.connectionId === connectionId && r.reportId === reportId)),
    );
    this.changed.fire(undefined);
  }

  private async put(t: TrackedReport): Promise<void> {
    const others = this.all().filter((r) => !(r.connectionId === t.connectionId && r.reportId === t.reportId));
    await this.state.update(STATE_KEY, [...others, t]);
    this.changed.fire(t);
  }

  dispose(): void {
    this.changed.dispose();
    this.added.dispose();
  }
}
