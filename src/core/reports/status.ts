// Report statuses -> a small state union, so views and the CLI never switch on raw strings.

import type { ReportRecord } from '../api/types';
import { HOUR_MS } from '../time/duration';
import { parseIsoMs } from '../time/iso';

export type ReportState = 'in-progress' | 'succeeded' | 'failed' | 'unknown';

/** in-progress, succeeded, failed; anything else the service may add is 'unknown' (shown as-is, not an error). */
export function reportState(status: string): ReportState {
  switch (status) {
    case 'in-progress':
    case 'succeeded':
    case 'failed':
      return status;
    default:
      return 'unknown';
  }
}

/**
 * How long a status the client does not understand is polled before polling stops: one rule for every
 * poller (report cells and the CLI through ReportPoller, the Reports view's watcher; core/time/repeat.ts
 * states the policy). A new intermediate state is the likelier addition, so it is polled, but not forever.
 */
export const UNKNOWN_STATUS_LIMIT_MS = HOUR_MS;

/**
 * Tracks one report's statuses: true once an unknown status has lasted `limitMs` in a row (the count
 * restarts on any known status).
 */
export function unknownStatusLimit(limitMs = UNKNOWN_STATUS_LIMIT_MS): (status: string, nowMs: number) => boolean {
  let since: number | undefined;
  return (status, nowMs) => {
    if (reportState(status) !== 'unknown') {
      since = undefined;
      return false;
    }
    since ??= nowMs;
    return nowMs - since >= limitMs;
  };
}

/** Terminal: polling stops. Unknown statuses are not terminal (a new intermediate state is the likelier addition). */
export function isTerminal(status: string): boolean {
  const s = reportState(status);
  return s === 'succeeded' || s === 'failed';
}

/** Whether the record's file URLs have passed their urlsExpireAt. */
export function urlsExpired(record: Pick<ReportRecord, 'urlsExpireAt'>, now: number): boolean {
  if (!record.urlsExpireAt) return false;
  const t = parseIsoMs(record.urlsExpireAt);
  return t !== undefined && t <= now;
}
