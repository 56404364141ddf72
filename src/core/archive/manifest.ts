// The archive's state, kept in its folder (measnb-archive.json): which datasource-months are complete
// (and over which range, with how many rows), the report a month is being fetched from (so a run that
// stopped picks it up instead of spending another), and the reports created per UTC day. A file in a
// folder is hostile input: it is checked field by field, and anything else is refused.
import { ArchiveError } from '../api/errors';

export const MANIFEST_NAME = 'measnb-archive.json';
const MANIFEST_FORMAT = 'measnb-archive';
/** The most entries a manifest may hold (500 datasources × 10 years × 3 frequencies, with room). */
const MAX_ENTRIES = 500_000;

interface PartitionEntry {
  /** ISO 8601, the part of the month fetched. */
  from: string;
  to: string;
  rows: number;
  reportId: string;
}

/** A month's report, created and not yet written into the dataset. */
interface PendingReport {
  reportId: string;
  datasourceIds: string[];
  from: string;
  to: string;
}

export interface ArchiveManifest {
  format: typeof MANIFEST_FORMAT;
  version: 1;
  /** `<frequency>/<datasourceId>/<yyyy-mm>` → what is in that partition. */
  partitions: Record<string, PartitionEntry>;
  /** `<frequency>/<yyyy-mm>` → the report being fetched for that month. */
  pending: Record<string, PendingReport>;
  /** Reports this archive created on the UTC day `day` (yyyy-mm-dd); `spent` once the service said 429. */
  reports: { day: string; created: number; spent: boolean };
}

export function emptyManifest(): ArchiveManifest {
  return {
    format: MANIFEST_FORMAT,
    version: 1,
    partitions: {},
    pending: {},
    reports: { day: '', created: 0, spent: false },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= 200;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function bad(why: string): ArchiveError {
  return new ArchiveError(
    'ARCHIVE_MANIFEST',
    `${MANIFEST_NAME} is not an archive manifest this version reads: ${why}.`,
  );
}

function checkEntries<T>(v: unknown, what: string, ok: (e: Record<string, unknown>) => boolean): Record<string, T> {
  if (!isObject(v)) throw bad(`${what} is not an object`);
  const keys = Object.keys(v);
  if (keys.length > MAX_ENTRIES) throw bad(`${what} has more than ${MAX_ENTRIES} entries`);
  for (const k of keys) {
    const e = v[k];
    if (!isText(k) || !isObject(e) || !ok(e)) throw bad(`${what} ${JSON.stringify(k.slice(0, 80))} is malformed`);
  }
  return v as Record<string, T>;
}

/** The manifest in `text`, checked; ArchiveError ARCHIVE_MANIFEST otherwise. */
export function parseManifest(text: string): ArchiveManifest {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (!isObject(v) || v.format !== MANIFEST_FORMAT) throw bad('no "format": "measnb-archive"');
  if (v.version !== 1) throw bad(`version ${JSON.stringify(v.version)}`);
  const partitions = checkEntries<PartitionEntry>(
    v.partitions,
    'partition',
    (e) => isText(e.from) && isText(e.to) && isCount(e.rows) && isText(e.reportId),
  );
  const pending = checkEntries<PendingReport>(
    v.pending,
    'pending report',
    (e) =>
      isText(e.reportId) &&
      isText(e.from) &&
      isText(e.to) &&
      Array.isArray(e.datasourceIds) &&
      e.datasourceIds.every(isText),
  );
  const r = v.reports;
  if (!isObject(r) || !isText(r.day) || !isCount(r.created) || typeof r.spent !== 'boolean')
    throw bad('"reports" is malformed');
  return {
    format: MANIFEST_FORMAT,
    version: 1,
    partitions,
    pending,
    reports: { day: r.day, created: r.created, spent: r.spent },
  };
}
