// Reports per org per UTC day (SERVICE-INTERFACE Limits): the 31st gets 429 until UTC midnight.
import { DAILY_REPORT_LIMIT } from '../core/api/paths';
import { DAY_MS } from './clock';
import { HttpError } from './http';
import type { StoredQuota } from './state-file';

export class ReportQuota {
  private readonly used: Map<string, StoredQuota[string]>;

  constructor(
    private readonly limit = DAILY_REPORT_LIMIT,
    /** Counts restored from the emulator's state file. */
    stored: StoredQuota = {},
  ) {
    this.used = new Map(Object.entries(stored));
  }

  /** The counts, to store. */
  snapshot(): StoredQuota {
    return Object.fromEntries(this.used);
  }

  /** Counts one report for the org, or throws 429 with Retry-After (seconds to the next UTC midnight). */
  take(org: string, now: number): void {
    const day = Math.floor(now / DAY_MS);
    const entry = this.used.get(org);
    const count = entry && entry.day === day ? entry.count : 0;
    if (count >= this.limit) {
      const resetAt = (day + 1) * DAY_MS;
      throw new HttpError(
        429,
        `Too many report requests: ${this.limit} reports per org per UTC day; the limit resets at ${new Date(resetAt).toISOString()}`,
        { 'retry-after': String(Math.max(1, Math.ceil((resetAt - now) / 1000))) },
      );
    }
    this.used.set(org, { day, count: count + 1 });
  }
}
