// What an archive run fetches: its range checked against what the service can give, cut into UTC
// months (one report per month, every datasource still missing that month in it), and where each
// month of each datasource lies (the Hive layout readers find by itself).

import { ArchiveError } from '../api/errors';
import { OUTPUT_FREQUENCIES, type OutputFrequency, PERIOD_MS } from '../api/types';
import { DAY_MS } from '../time/duration';
import { daysFromCivil, parseIso } from '../time/iso';

/** Reports an archive creates per UTC day unless told otherwise: 25 of the 30, a reserve for people. */
export const DEFAULT_MAX_REPORTS_PER_DAY = 25;
/** The furthest back one run reaches (ten years of months): a bound on the plan, not the service's. */
const MAX_ARCHIVE_MONTHS = 120;
/** A datasource id must be one safe path segment to name a partition folder. */
const DATASOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,119}$/;

export interface ArchiveRange {
  frequency: OutputFrequency;
  /** Epoch ms, inclusive; on a period boundary. */
  from: number;
  /** Epoch ms, exclusive; on a period boundary. */
  to: number;
}

export interface MonthSlice {
  year: number;
  /** 1..12 */
  month: number;
  from: number;
  to: number;
}

/** A DATE flag: an ISO 8601 date (00:00 UTC) or a timestamp with its zone. */
function parseArchiveTime(flag: string, text: string): number {
  const iso = parseIso(text.trim());
  if (!iso || !(iso.dateOnly || iso.zoned)) {
    throw new ArchiveError(
      'ARCHIVE_INPUT',
      `${flag} ${text}: expected a date (2026-01-31) or a timestamp with its zone.`,
    );
  }
  return iso.ms;
}

interface ArchiveInput {
  from: string;
  to: string;
  frequency: string;
  /** The service's now (the caller's clock). */
  nowMs: number;
  maxReportsPerDay: number;
}

/** The range to archive, or an ArchiveError saying what is wrong with it (before anything is sent). */
export function checkArchiveInput(input: ArchiveInput): ArchiveRange {
  const frequency = input.frequency as OutputFrequency;
  if (!OUTPUT_FREQUENCIES.includes(frequency)) {
    throw new ArchiveError(
      'ARCHIVE_INPUT',
      `--frequency ${input.frequency}: expected ${OUTPUT_FREQUENCIES.join(', ')}.`,
    );
  }
  if (!Number.isInteger(input.maxReportsPerDay) || input.maxReportsPerDay < 1 || input.maxReportsPerDay > 30) {
    throw new ArchiveError('ARCHIVE_INPUT', '--max-reports-per-day: expected a whole number from 1 to 30.');
  }
  const p = PERIOD_MS[frequency];
  const from = Math.ceil(parseArchiveTime('--from', input.from) / p) * p;
  const to = Math.floor(parseArchiveTime('--to', input.to) / p) * p;
  if (to <= from)
    throw new ArchiveError(
      'ARCHIVE_INPUT',
      `--to ${input.to} is not after --from ${input.from} (whole ${frequency}s).`,
    );
  const lastWhole = Math.floor(input.nowMs / p) * p;
  if (to > lastWhole) {
    throw new ArchiveError(
      'ARCHIVE_INPUT',
      `--to ${input.to} is past what the service has: its last whole ${frequency} ends at ${new Date(lastWhole).toISOString()}.`,
    );
  }
  if (monthSlices({ frequency, from, to }).length > MAX_ARCHIVE_MONTHS) {
    throw new ArchiveError(
      'ARCHIVE_INPUT',
      `The range spans more than ${MAX_ARCHIVE_MONTHS} months; archive it in parts.`,
    );
  }
  return { frequency, from, to };
}

/** Checks datasource ids given by the user or listed by the service: each names a folder. */
export function checkDatasourceIds(ids: readonly string[]): string[] {
  const bad = ids.filter((id) => !DATASOURCE_ID.test(id));
  if (bad.length) {
    throw new ArchiveError(
      'ARCHIVE_INPUT',
      `Not a datasource id: ${bad
        .slice(0, 3)
        .map((b) => JSON.stringify(b))
        .join(', ')}.`,
    );
  }
  if (!ids.length) throw new ArchiveError('ARCHIVE_INPUT', 'No datasources to archive.');
  return [...new Set(ids)];
}

/** Epoch ms of the first instant of a UTC month (month 1..12; 13 is January of the next year). */
function monthStart(year: number, month: number): number {
  return daysFromCivil(year + Math.floor((month - 1) / 12), ((month - 1) % 12) + 1, 1) * DAY_MS;
}

/** The UTC months the range touches, each clipped to the range. */
export function monthSlices(range: ArchiveRange): MonthSlice[] {
  const out: MonthSlice[] = [];
  const first = new Date(range.from);
  let year = first.getUTCFullYear();
  let month = first.getUTCMonth() + 1;
  for (let start = monthStart(year, month); start < range.to; ) {
    const end = monthStart(year, month + 1);
    out.push({ year, month, from: Math.max(start, range.from), to: Math.min(end, range.to) });
    start = end;
    month = month === 12 ? 1 : month + 1;
    if (month === 1) year++;
  }
  return out;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** "2026-03": a month as the manifest and messages name it. */
export function monthName(m: Pick<MonthSlice, 'year' | 'month'>): string {
  return `${pad(m.year, 4)}-${pad(m.month, 2)}`;
}

/** The Hive folders of one datasource's month: frequency=hour/datasourceId=X/year=2026/month=03. */
export function partitionSegments(
  frequency: OutputFrequency,
  datasourceId: string,
  m: Pick<MonthSlice, 'year' | 'month'>,
): string[] {
  return [
    `frequency=${frequency}`,
    `datasourceId=${datasourceId}`,
    `year=${pad(m.year, 4)}`,
    `month=${pad(m.month, 2)}`,
  ];
}

/** The manifest's key of one datasource's month. */
export function partitionKey(
  frequency: OutputFrequency,
  datasourceId: string,
  m: Pick<MonthSlice, 'year' | 'month'>,
): string {
  return `${frequency}/${datasourceId}/${monthName(m)}`;
}
