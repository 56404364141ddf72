// Reports used today per org (keyed by connection id and org), out of the daily 30: counted locally when a report is created,
// corrected to "all used" by a 429 (with its reset time), back to 0 at the next UTC midnight.
import * as vscode from 'vscode';
import { DAILY_REPORT_LIMIT } from '../../core/api/paths';

interface QuotaEntry {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  used: number;
  /** ISO time the service said the quota resets (after a 429). */
  resetAt?: string;
}

const STATE_KEY = 'measurements.quota';

export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export class QuotaTracker implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.changed.event;
  readonly limit = DAILY_REPORT_LIMIT;

  constructor(
    private readonly state: vscode.Memento,
    private readonly now: () => Date = () => new Date(),
  ) {}

  used(org: string): number {
    const e = this.entries()[org];
    return e && e.day === utcDay(this.now()) ? e.used : 0;
  }

  remaining(org: string): number {
    return Math.max(0, this.limit - this.used(org));
  }

  resetAt(org: string): Date | undefined {
    const e = this.entries()[org];
    return e?.resetAt && e.day === utcDay(this.now()) ? new Date(e.resetAt) : undefined;
  }

  async recordCreated(org: string): Promise<void> {
    await this.put(org, { day: utcDay(this.now()), used: Math.min(this.limit, this.used(org) + 1) });
  }

  /** A 429 on report creation: the service says none are left until resetAt. */
  async recordExhausted(org: string, resetAt: Date | undefined): Promise<void> {
    await this.put(org, { day: utcDay(this.now()), used: this.limit, resetAt: resetAt?.toISOString() });
  }

  private entries(): Record<string, QuotaEntry> {
    return this.state.get<Record<string, QuotaEntry>>(STATE_KEY, {});
  }

  private async put(org: string, e: QuotaEntry): Promise<void> {
    await this.state.update(STATE_KEY, { ...this.entries(), [org]: e });
    this.changed.fire(org);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
