// Report statuses -> a small state union, so views and the CLI never switch on raw strings.
import type { ReportRecord } from '../api/types';
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
