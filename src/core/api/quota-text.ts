// The daily report quota as the user reads it (the CLI, a cell's error output, Create Report): when it
// resets, always in UTC, and how many reports a day allow. One wording everywhere.
import { formatDuration } from '../time/duration';
import { nextUtcMidnight } from './errors';
import { DAILY_REPORT_LIMIT } from './paths';

const hhmm = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;

interface QuotaReset {
  /** When it resets (the service's quota resets at the next UTC midnight of `now` when not given). */
  resetAt?: Date;
  /** The caller's clock: with it the text says how long until the reset. */
  now?: Date;
  /** The server's Retry-After: it counts on the server's clock, the one that resets the quota. */
  retryAfterSeconds?: number;
}

/** "resets at 00:00 UTC, in 3h12m" (with `now`), else "resets at 00:00 UTC on 2026-11-21". */
export function quotaResetText({ resetAt: given, now, retryAfterSeconds }: QuotaReset): string {
  const resetAt = given ?? (now ? nextUtcMidnight(now) : undefined);
  if (!resetAt) return 'resets at 00:00 UTC';
  const at = `resets at ${hhmm(resetAt)} UTC`;
  if (retryAfterSeconds !== undefined) return `${at}, in ${formatDuration(retryAfterSeconds * 1000)}`;
  if (now) return `${at}, in ${formatDuration(resetAt.getTime() - now.getTime())}`;
  return `${at} on ${resetAt.toISOString().slice(0, 10)}`;
}

/** "Daily report limit reached for org demo-org (30 per UTC day); resets at 00:00 UTC, in 3h12m." */
export function quotaReachedText(org: string | undefined, reset: QuotaReset): string {
  return `Daily report limit reached for ${org ? `org ${org}` : 'this org'} (${DAILY_REPORT_LIMIT} per UTC day); ${quotaResetText(reset)}.`;
}
