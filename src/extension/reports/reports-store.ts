// The reports the Reports view shows, per connection, shared by every window of this VS Code and kept
// across reloads: one record per report (SharedRecords), so two windows creating or updating reports at
// the same time never replace each other's.
import type * as vscode from 'vscode';
import type { ReportRecord } from '../../core/api/types';
import { isTerminal } from '../../core/reports/status';
import type { SharedRecords } from '../state/shared-records';
import { type TrackedReport, withRecord } from './tracked-report';

/** Where the reports were kept before (one global-state value for all): read once, then moved. */
const LEGACY_STATE_KEY = 'measurements.reports';

const keyOf = (connectionId: string, reportId: string) => `${connectionId}\u0000${reportId}`;

/** A stored report as far as the view relies on it (a damaged record is left out, not shown half). */
export function checkTrackedReport(v: unknown): TrackedReport | undefined {
  const t = v as Partial<TrackedReport> | null;
  if (!t || typeof t !== 'object') return undefined;
  if (typeof t.connectionId !== 'string' || typeof t.reportId !== 'string' || typeof t.addedAt !== 'string')
    return undefined;
  if (!t.record || typeof t.record !== 'object' || !Array.isArray(t.files)) return undefined;
  return t as TrackedReport;
}

export class ReportsStore implements vscode.Disposable {
  /** Any report changed (here or in another window). */
  readonly onDidChange: vscode.Event<void>;
  private readonly addedListeners = new Set<(t: TrackedReport) => void>();

  constructor(
    /** The shared records it reads and writes (and disposes with itself). */
    readonly records: SharedRecords<TrackedReport>,
    /** The services' clock. */
    private readonly now: () => Date,
  ) {
    this.onDidChange = records.onDidChange;
  }

  /** A report was added (or re-added) while in progress: the poller picks it up. */
  onDidAdd(listener: (t: TrackedReport) => void): vscode.Disposable {
    this.addedListeners.add(listener);
    return { dispose: () => this.addedListeners.delete(listener) };
  }

  /** Moves reports kept in global state by earlier versions into the shared records (once). */
  async adoptLegacy(state: vscode.Memento): Promise<void> {
    const old = state.get<unknown[]>(LEGACY_STATE_KEY);
    if (!Array.isArray(old)) return;
    const writes: Promise<void>[] = [];
    for (const v of old) {
      const t = checkTrackedReport(v);
      if (t && !this.get(t.connectionId, t.reportId)) writes.push(this.put(t));
    }
    await Promise.all(writes);
    await state.update(LEGACY_STATE_KEY, undefined);
  }

  all(): TrackedReport[] {
    return this.records.values();
  }

  forConnection(connectionId: string): TrackedReport[] {
    return this.all()
      .filter((r) => r.connectionId === connectionId)
      .sort((a, b) => b.addedAt.localeCompare(a.addedAt) || a.reportId.localeCompare(b.reportId));
  }

  get(connectionId: string, reportId: string): TrackedReport | undefined {
    return this.records.get(keyOf(connectionId, reportId));
  }

  /** Reports not in a terminal state (what polling resumes after a reload). */
  inProgress(): TrackedReport[] {
    return this.all().filter((r) => !isTerminal(r.record.reportStatus));
  }

  /** Adds or refreshes a report; `startedBy` 'cell' when a notebook cell created it (it then notifies nothing). */
  async track(record: ReportRecord, connectionId: string, startedBy?: 'cell'): Promise<TrackedReport> {
    const prior = this.get(connectionId, record.reportId);
    const base: TrackedReport = prior ?? {
      connectionId,
      reportId: record.reportId,
      record,
      addedAt: this.now().toISOString(),
      files: [],
    };
    const t = withRecord(startedBy ? { ...base, startedBy } : base, record, this.now());
    const written = this.put(t);
    for (const l of this.addedListeners) l(t);
    await written;
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
    await this.records.delete(keyOf(connectionId, reportId));
  }

  /** Settles when every write asked for so far is on disk (or failed). */
  flushed(): Promise<void> {
    return this.records.flushed();
  }

  private put(t: TrackedReport): Promise<void> {
    return this.records.put(keyOf(t.connectionId, t.reportId), t);
  }

  dispose(): void {
    this.addedListeners.clear();
    this.records.dispose();
  }
}
