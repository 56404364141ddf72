// Reports used today per org (keyed by connection id and org), out of the daily 30: counted locally when a
// report is created, corrected to "all used" by a 429 (with its reset time), back to 0 at the next UTC
// midnight. Each creation is its own mark in the records every window shares (SharedRecords), so the
// count is the number of today's marks: two windows creating reports at once count both.
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { DAILY_REPORT_LIMIT } from '../../core/api/paths';
import { isoToMs } from '../../core/time/iso';
import type { SharedRecords } from '../state/shared-records';

interface QuotaMark {
  /** The quota key (connection id and org). */
  key: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** A report was created, or the service said none are left (a 429). */
  kind: 'created' | 'exhausted';
  /** ISO time the service said the quota resets (with `exhausted`). */
  resetAt?: string;
}

/** Where the counts were kept before (one global-state value for all): today's counts are moved, once. */
const LEGACY_STATE_KEY = 'measurements.quota';

export function checkQuotaMark(v: unknown): QuotaMark | undefined {
  const m = v as Partial<QuotaMark> | null;
  if (!m || typeof m !== 'object' || typeof m.key !== 'string' || typeof m.day !== 'string') return undefined;
  if (m.kind !== 'created' && m.kind !== 'exhausted') return undefined;
  return m as QuotaMark;
}

function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export class QuotaTracker implements vscode.Disposable {
  readonly onDidChange: vscode.Event<void>;
  readonly limit = DAILY_REPORT_LIMIT;

  constructor(
    /** The shared records of the marks (disposed with the tracker). */
    readonly marks: SharedRecords<QuotaMark>,
    /** The services' clock. */
    private readonly now: () => Date,
  ) {
    this.onDidChange = marks.onDidChange;
  }

  used(key: string): number {
    const today = this.today(key);
    if (today.some((m) => m.kind === 'exhausted')) return this.limit;
    return Math.min(this.limit, today.length);
  }

  remaining(key: string): number {
    return Math.max(0, this.limit - this.used(key));
  }

  resetAt(key: string): Date | undefined {
    const at = this.today(key).find((m) => m.kind === 'exhausted' && m.resetAt)?.resetAt;
    const ms = at ? isoToMs(at) : Number.NaN;
    return Number.isNaN(ms) ? undefined : new Date(ms);
  }

  async recordCreated(key: string): Promise<void> {
    await this.mark({ key, day: utcDay(this.now()), kind: 'created' });
  }

  /** A 429 on report creation: the service says none are left until resetAt. */
  async recordExhausted(key: string, resetAt: Date | undefined): Promise<void> {
    await this.mark({ key, day: utcDay(this.now()), kind: 'exhausted', resetAt: resetAt?.toISOString() });
  }

  /** Moves today's counts kept in global state by earlier versions into marks; drops marks of past days. */
  async tidy(state: vscode.Memento): Promise<void> {
    const today = utcDay(this.now());
    const legacy = state.get<Record<string, { day?: unknown; used?: unknown; resetAt?: unknown }>>(LEGACY_STATE_KEY);
    if (legacy !== undefined) {
      const writes: Promise<void>[] = [];
      for (const [key, e] of Object.entries(legacy && typeof legacy === 'object' ? legacy : {})) {
        if (e?.day !== today || typeof e.used !== 'number') continue;
        if (e.used >= this.limit)
          writes.push(
            this.mark({
              key,
              day: today,
              kind: 'exhausted',
              resetAt: typeof e.resetAt === 'string' ? e.resetAt : undefined,
            }),
          );
        else for (let i = 0; i < e.used; i++) writes.push(this.mark({ key, day: today, kind: 'created' }));
      }
      await Promise.all(writes); // on disk before the old value goes
      await state.update(LEGACY_STATE_KEY, undefined);
    }
    const past = this.marks.entries().filter(([, m]) => m.day < today);
    await Promise.all(past.map(([id]) => this.marks.delete(id)));
  }

  private today(key: string): QuotaMark[] {
    const day = utcDay(this.now());
    return this.marks.values().filter((m) => m.key === key && m.day === day);
  }

  /** Settles when every write asked for so far is on disk (or failed). */
  flushed(): Promise<void> {
    return this.marks.flushed();
  }

  private mark(m: QuotaMark): Promise<void> {
    return this.marks.put(`${m.key}\u0000${m.day}\u0000${randomUUID()}`, m);
  }

  dispose(): void {
    this.marks.dispose();
  }
}
