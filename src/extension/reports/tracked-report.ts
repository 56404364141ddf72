// A report the Reports view tracks, as kept in global state (survives a reload).
import type { ReportRecord } from '../../core/api/types';
import { fileNameForUrl } from '../../core/reports/download.node';
import { markdownText } from '../../core/text/markdown';
import { formatDuration, HOUR_MS } from '../../core/time/duration';
import { isoToMs } from '../../core/time/iso';

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
  /** A notebook cell created it: the cell shows its progress and files, so no notification when it ends. */
  startedBy?: 'cell';
}

/** Whether a finished report gets a notification: not one a cell started (the cell already shows it). */
export function notifiesWhenFinished(t: TrackedReport): boolean {
  return t.startedBy !== 'cell';
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

interface ReportDescription {
  kind: string;
  /** Short and readable, in `timeZone`: "Nov 18–20", "Nov 28 – Dec 2", "Nov 18 06:00 – 12:00", "Nov 25 12:38 +24h". */
  range: string;
  /** Exact, for the tooltip: "2026-11-18T00:00Z → 2026-11-20T00:00Z" (no milliseconds). */
  fullRange: string;
  frequency?: string;
  /** What it covers: "all ds", "12 ds", "3 nodes", "1 site". */
  scope?: string;
  /** What tells reports apart at a glance: range · frequency · scope (the kind when the scope is unknown). */
  label: string;
}

/** A report from its query echo (values from the service: anything unexpected reads as unknown). */
export function describeReport(r: ReportRecord, timeZone = 'UTC'): ReportDescription {
  const q = r.query ?? {};
  const s = typeof q.startTime === 'string' ? q.startTime : undefined;
  const e = typeof q.endTime === 'string' ? q.endTime : undefined;
  const range = s && e ? shortRange(s, e, timeZone) : 'time range unknown';
  const frequency = typeof q.outputFrequency === 'string' ? q.outputFrequency.slice(0, 20) : undefined;
  const scope = scopeText(q);
  return {
    kind: String(r.report ?? 'report').slice(0, 60),
    range,
    fullRange: s && e ? `${exactTime(s)} → ${exactTime(e)}` : 'time range unknown',
    frequency,
    scope,
    // The scope names the kind ("12 ds", "3 nodes", "1 site"): the kind only when there is none.
    label: [range, frequency, scope ?? shortKind(r.report)].filter(Boolean).join(' · '),
  };
}

/** "datasource-measurements" → "datasource"; anything unexpected, bounded. */
function shortKind(kind: unknown): string | undefined {
  return typeof kind === 'string' && kind ? kind.replace(/-measurements$/, '').slice(0, 30) : undefined;
}

function scopeText(q: Record<string, unknown>): string | undefined {
  if (q.allDatasources === true) return 'all ds';
  const count = (v: unknown) => (Array.isArray(v) ? v.length : undefined);
  const ds = count(q.datasourceIds);
  if (ds !== undefined) return `${ds} ds`;
  const nodes = count(q.nodeIds);
  if (nodes !== undefined) return `${nodes} node${nodes === 1 ? '' : 's'}`;
  const sites = count(q.refSiteIds);
  if (sites !== undefined) return `${sites} site${sites === 1 ? '' : 's'}`;
  return undefined;
}

function exactTime(text: string): string {
  const ms = isoToMs(text);
  if (Number.isNaN(ms)) return text.slice(0, 40);
  return new Date(ms).toISOString().replace(/(:00)?\.\d{3}Z$/, 'Z');
}

interface DayParts {
  year: string;
  month: string;
  day: string;
  /** "06:30", or undefined at midnight. */
  time?: string;
}

function dayParts(ms: number, timeZone: string): DayParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  const time = `${get('hour')}:${get('minute')}`;
  return { year: get('year'), month: get('month'), day: get('day'), time: time === '00:00' ? undefined : time };
}

function shortRange(start: string, end: string, timeZone: string): string {
  const s = isoToMs(start);
  const e = isoToMs(end);
  if (Number.isNaN(s) || Number.isNaN(e)) return `${start.slice(0, 30)} → ${end.slice(0, 30)}`;
  const a = dayParts(s, timeZone);
  const b = dayParts(e, timeZone);
  const sameYear = a.year === b.year;
  const day = (p: DayParts) => `${p.month} ${p.day}${sameYear ? '' : `, ${p.year}`}`;
  if (a.time || b.time) {
    const sameDay = sameYear && a.month === b.month && a.day === b.day;
    // Across days, a span of whole hours under a week reads as its start and length: "Nov 25 12:38 +24h"
    // (it fits a default-width sidebar with the frequency and scope after it).
    const hours = (e - s) / HOUR_MS;
    if (!sameDay && Number.isInteger(hours) && hours > 0 && hours < 7 * 24)
      return `${day(a)} ${a.time ?? '00:00'} +${hours}h`;
    return `${day(a)} ${a.time ?? '00:00'} – ${sameDay ? '' : `${day(b)} `}${b.time ?? '00:00'}`;
  }
  if (!sameYear || a.month !== b.month) return `${day(a)} – ${day(b)}`;
  return a.day === b.day ? day(a) : `${a.month} ${a.day}–${b.day}`;
}

export function ageText(fromIso: string, now: Date): string {
  return `${formatDuration(now.getTime() - isoToMs(fromIso), 'coarse')} ago`;
}

/** "expires in 5h" / "expired" for urlsExpireAt, or undefined when the service gave none. */
export function expiryText(expiresAt: string | undefined, now: Date): string | undefined {
  if (!expiresAt) return undefined;
  const ms = isoToMs(expiresAt) - now.getTime();
  if (Number.isNaN(ms)) return undefined;
  if (ms <= 0) return 'links expired';
  return `links expire in ${formatDuration(Math.max(ms, 60_000), 'coarse')}`;
}

/**
 * A report's tooltip as Markdown. Every value from the service or the store (kind, status, message, ranges,
 * ids, the last error) is text: escaped by core/text/markdown (no link, image, HTML or code span can form
 * from it), one line each and bounded. `lead` is the extension's own Markdown (the orphaned note).
 */
export function reportTooltip(report: TrackedReport, now: Date, lead?: string): string {
  const d = describeReport(report.record);
  const text = (v: unknown, max = 200) => markdownText(String(v), max);
  const status = report.record.reportStatus || 'unknown';
  const message = typeof report.record.message === 'string' ? report.record.message : '';
  return [
    lead,
    `**${text(d.kind)}** — ${text(status)}${message && message !== status ? ` (${text(message, 500)})` : ''}`,
    `Time range (UTC): ${text(d.fullRange)}${d.frequency ? `, ${text(d.frequency)}` : ''}`,
    d.scope ? `Covers: ${text(d.scope.replace(/ ds$/, ' datasource(s)'))}` : undefined,
    `Report id: ${text(report.reportId, 100)}`,
    `Added: ${text(ageText(report.addedAt, now))}`,
    report.checkedAt ? `Last checked: ${text(ageText(report.checkedAt, now))}` : undefined,
    report.record.urlsExpireAt ? `File links expire: ${text(report.record.urlsExpireAt)}` : undefined,
    report.lastError ? `Last error: ${text(report.lastError, 500)}` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
}
