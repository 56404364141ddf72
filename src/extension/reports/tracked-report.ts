// A report the Reports view tracks, as kept in global state (survives a reload).
import type { ReportRecord } from '../../core/api/types';
import { fileNameForUrl } from '../../core/reports/download.node';

export interface TrackedFile {
  url: string;
  /** Local file name (the core's fileNameForUrl: URL path name, .gz dropped, safe characters). */
  name: string;
  /** Where it was downloaded, once it was. */
  localPath?: string;
}

export interface TrackedReport {
  connectionId: string;
  reportId: string;
  record: ReportRecord;
  /** When it was added to the view (ISO). */
  addedAt: string;
  /** When its status was last read (ISO). */
  checkedAt?: string;
  /** The last error met while polling (message only; never contains the key). */
  lastError?: string;
  files: TrackedFile[];
}

export function withRecord(t: TrackedReport, record: ReportRecord, now: Date): TrackedReport {
  const urls = record.urls ?? [];
  const files = urls.map((url, i) => {
    const name = fileNameForUrl(url, i, t.reportId);
    const prior = t.files[i]?.name === name ? t.files[i] : undefined;
    return { url, name, localPath: prior?.localPath };
  });
  return { ...t, record, checkedAt: now.toISOString(), lastError: undefined, files };
}

/** "node-measurements · 2026-11-01 → 2026-11-02 · hour" from the query echo. */
export function describeReport(r: ReportRecord): { kind: string; range: string; frequency?: string } {
  const q = r.query ?? {};
  const s = typeof q.startTime === 'string' ? q.startTime : undefined;
  const e = typeof q.endTime === 'string' ? q.endTime : undefined;
  const short = (t: string) => t.replace(/T00:00:00(\.000)?Z$/, '').replace(/:00(\.000)?Z$/, 'Z');
  return {
    kind: String(r.report ?? 'report'),
    range: s && e ? `${short(s)} → ${short(e)}` : 'time range unknown',
    frequency: typeof q.outputFrequency === 'string' ? q.outputFrequency : undefined,
  };
}

export function ageText(fromIso: string, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

/** "expires in 5h" / "expired" for urlsExpireAt, or undefined when the service gave none. */
export function expiryText(expiresAt: string | undefined, now: Date): string | undefined {
  if (!expiresAt) return undefined;
  const ms = Date.parse(expiresAt) - now.getTime();
  if (Number.isNaN(ms)) return undefined;
  if (ms <= 0) return 'links expired';
  const m = Math.round(ms / 60000);
  return m < 120 ? `links expire in ${m}m` : `links expire in ${Math.round(m / 60)}h`;
}
