// `measnb archive` and the extension's Archive command: an org's history as Hive-partitioned Parquet.
// Plans one report per UTC month (the datasources still missing that month in it), creates at most
// `maxReportsPerDay` per UTC day (kept in the manifest, so runs on the same day add up; a 429 means
// reports were made elsewhere too and the day is spent), waits for each, downloads its files into a
// staging folder, converts them to Parquet (parquet-parts: no DuckDB in this process), and swaps each datasource's month into place. Re-running
// continues where it stopped: complete months are skipped, a month's created report is reused.
import { resolve } from 'node:path';
import { ArchiveError, ArchiveQuotaError, isMeasurementsError, nextUtcMidnight } from '../api/errors';
import type { DatasourceList, ReportRecord } from '../api/types';
import type { CallOptions, MeasurementsClient } from '../client/client.node';
import { downloadReportFiles } from '../reports/download.node';
import { waitForReport } from '../reports/poller';
import type { PollSchedule } from '../reports/schedule';
import { reportState } from '../reports/status';
import type { WaitClock } from '../time/clock';
import type { ArchiveManifest } from './manifest';
import { csvToPartitionedParquet } from './parquet-parts.node';
import {
  type ArchiveRange,
  checkArchiveInput,
  checkDatasourceIds,
  DEFAULT_MAX_REPORTS_PER_DAY,
  type MonthSlice,
  monthName,
  monthSlices,
  partitionKey,
  partitionSegments,
} from './plan';
import {
  clearLeftovers,
  ensureFolder,
  readManifest,
  removeFolder,
  stagedPartitions,
  stagingFolder,
  swapPartition,
  writeManifest,
} from './store.node';

type ArchiveClient = Pick<
  MeasurementsClient,
  'clock' | 'createReport' | 'getReport' | 'downloadReportFile' | 'listDatasources'
>;

export type ArchiveEvent =
  | { kind: 'plan'; months: number; toFetch: number; datasources: number; reportsToday: number }
  | { kind: 'month-report'; month: string; reportId: string; reused: boolean; datasources: number }
  | { kind: 'report-status'; month: string; reportId: string; status: string; elapsedMs: number }
  | { kind: 'month-done'; month: string; rows: number; done: number; total: number }
  | { kind: 'quota-wait'; until: Date };

interface ArchiveOptions {
  client: ArchiveClient;
  clock: WaitClock;
  org: string;
  dest: string;
  from: string;
  to: string;
  frequency: string;
  /** The datasources, or undefined for every datasource of the org (--all). */
  datasourceIds?: readonly string[];
  maxReportsPerDay?: number;
  /** Sleep until the quota resets instead of stopping. */
  wait?: boolean;
  signal?: AbortSignal;
  onEvent?: (e: ArchiveEvent) => void;
  pollSchedule?: Partial<PollSchedule>;
}

interface ArchiveSummary {
  months: number;
  fetched: number;
  reportsCreated: number;
  rows: number;
}

interface MonthTask {
  slice: MonthSlice;
  missing: string[];
}

interface Run {
  o: ArchiveOptions;
  dest: string;
  range: ArchiveRange;
  manifest: ArchiveManifest;
  max: number;
  created: number;
  call: CallOptions;
}

export async function runArchive(o: ArchiveOptions): Promise<ArchiveSummary> {
  const max = o.maxReportsPerDay ?? DEFAULT_MAX_REPORTS_PER_DAY;
  const range = checkArchiveInput({
    from: o.from,
    to: o.to,
    frequency: o.frequency,
    nowMs: o.clock.nowMs(),
    maxReportsPerDay: max,
  });
  const dest = resolve(o.dest);
  await ensureFolder(dest);
  const manifest = await readManifest(dest);
  const call = { signal: o.signal };
  const ids = await datasourcesToArchive(o, call);
  await clearLeftovers(dest);
  const run: Run = { o, dest, range, manifest, max, created: 0, call };
  const tasks = monthSlices(range)
    .map((slice) => ({ slice, missing: ids.filter((id) => !isComplete(manifest, range, id, slice)) }))
    .filter((t) => t.missing.length > 0);
  o.onEvent?.({
    kind: 'plan',
    months: monthSlices(range).length,
    toFetch: tasks.length,
    datasources: ids.length,
    reportsToday: reportsToday(run),
  });
  let rows = 0;
  try {
    for (const [i, task] of tasks.entries()) {
      rows += await fetchMonth(run, task, tasks.length - i);
      o.onEvent?.({ kind: 'month-done', month: monthName(task.slice), rows, done: i + 1, total: tasks.length });
    }
  } finally {
    await clearLeftovers(dest).catch(() => undefined);
  }
  return { months: monthSlices(range).length, fetched: tasks.length, reportsCreated: run.created, rows };
}

/** The ids to archive, every one known to the org (checked before any report is spent). */
async function datasourcesToArchive(o: ArchiveOptions, call: CallOptions): Promise<string[]> {
  const given = o.datasourceIds ? checkDatasourceIds(o.datasourceIds) : undefined;
  const list: DatasourceList = await o.client.listDatasources(o.org, call);
  const known = new Set(list.datasources.map((d) => d.datasourceId));
  if (!given) return checkDatasourceIds([...known].sort());
  const unknown = given.filter((id) => !known.has(id));
  if (unknown.length) {
    throw new ArchiveError(
      'ARCHIVE_UNKNOWN_DATASOURCE',
      `Unknown datasource${unknown.length > 1 ? 's' : ''} for org ${o.org}: ${unknown.slice(0, 5).join(', ')}. No report was created.`,
    );
  }
  return given;
}

function isComplete(manifest: ArchiveManifest, range: ArchiveRange, id: string, m: MonthSlice): boolean {
  const e = manifest.partitions[partitionKey(range.frequency, id, m)];
  return !!e && Date.parse(e.from) <= m.from && Date.parse(e.to) >= m.to;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function reportsToday(run: Run): number {
  const r = run.manifest.reports;
  return r.day === utcDay(run.o.clock.nowMs()) ? r.created : 0;
}

/** Waits until `resumeAt` (with --wait) or stops with ArchiveQuotaError. */
async function quotaStop(run: Run, resumeAt: Date, remaining: number, why: string): Promise<void> {
  if (!run.o.wait) throw new ArchiveQuotaError(why, resumeAt, remaining);
  run.o.onEvent?.({ kind: 'quota-wait', until: resumeAt });
  await run.o.clock.sleep(Math.max(0, resumeAt.getTime() - run.o.clock.nowMs()), run.o.signal);
}

/** Creates the month's report within the day's budget (our cap, then the service's 429), recorded at once. */
async function createMonthReport(run: Run, task: MonthTask, remaining: number): Promise<ReportRecord> {
  const { o, manifest } = run;
  for (;;) {
    const now = o.clock.nowMs();
    const day = utcDay(now);
    if (manifest.reports.day !== day) manifest.reports = { day, created: 0, spent: false };
    const midnight = nextUtcMidnight(new Date(now));
    if (manifest.reports.spent || manifest.reports.created >= run.max) {
      const why = manifest.reports.spent
        ? 'The org has no reports left today (the service answered 429: reports were also made elsewhere).'
        : `This archive created its ${run.max} reports for today (--max-reports-per-day).`;
      await quotaStop(run, midnight, remaining, why);
      continue;
    }
    try {
      const record = await o.client.createReport(
        {
          org: o.org,
          report: 'datasource-measurements',
          datasourceIds: task.missing,
          outputFrequency: run.range.frequency,
          startTime: new Date(task.slice.from).toISOString(),
          endTime: new Date(task.slice.to).toISOString(),
          fileFormat: 'csv-wide',
        },
        run.call,
      );
      manifest.reports.created++;
      run.created++;
      manifest.pending[pendingKey(run, task.slice)] = {
        reportId: record.reportId,
        datasourceIds: task.missing,
        from: new Date(task.slice.from).toISOString(),
        to: new Date(task.slice.to).toISOString(),
      };
      await writeManifest(run.dest, manifest);
      return record;
    } catch (e) {
      if (!isMeasurementsError(e, 'QUOTA_EXCEEDED')) throw e;
      manifest.reports.spent = true;
      await writeManifest(run.dest, manifest);
      const resumeAt = e.resetAt ?? (e.retryAfterSeconds ? new Date(now + e.retryAfterSeconds * 1000) : midnight);
      await quotaStop(run, resumeAt, remaining, `The service refused a report (429): ${e.message}`);
    }
  }
}

const pendingKey = (run: Run, m: MonthSlice) => `${run.range.frequency}/${monthName(m)}`;

/** The report of a month already created by a run that stopped, when it covers this task and still works. */
async function pendingReport(run: Run, task: MonthTask): Promise<ReportRecord | undefined> {
  const p = run.manifest.pending[pendingKey(run, task.slice)];
  if (!p) return undefined;
  const covers =
    Date.parse(p.from) === task.slice.from &&
    Date.parse(p.to) === task.slice.to &&
    task.missing.every((id) => p.datasourceIds.includes(id));
  if (covers) {
    const record = await run.o.client.getReport(p.reportId, run.call).catch((e: unknown) => {
      if (isMeasurementsError(e, 'NOT_FOUND')) return undefined;
      throw e;
    });
    if (record && reportState(record.reportStatus) !== 'failed') return record;
  }
  delete run.manifest.pending[pendingKey(run, task.slice)];
  return undefined;
}

/** One month: its report (reused or created), waited for, downloaded, converted and swapped in. */
async function fetchMonth(run: Run, task: MonthTask, remaining: number): Promise<number> {
  const { o } = run;
  const month = monthName(task.slice);
  const reused = await pendingReport(run, task);
  const created = reused ?? (await createMonthReport(run, task, remaining));
  const ids = reused ? run.manifest.pending[pendingKey(run, task.slice)].datasourceIds : task.missing;
  o.onEvent?.({ kind: 'month-report', month, reportId: created.reportId, reused: !!reused, datasources: ids.length });
  const record = await waitForReport(o.client, created.reportId, {
    clock: o.clock,
    signal: o.signal,
    initial: reused ? undefined : created,
    schedule: o.pollSchedule,
    onProgress: (p) =>
      o.onEvent?.({ kind: 'report-status', month, reportId: p.reportId, status: p.status, elapsedMs: p.elapsedMs }),
  });
  if (reportState(record.reportStatus) !== 'succeeded') {
    delete run.manifest.pending[pendingKey(run, task.slice)];
    await writeManifest(run.dest, run.manifest);
    throw new ArchiveError(
      'ARCHIVE_REPORT_CONTENT',
      `The report of ${month} (${record.reportId}) ended as ${record.reportStatus}: ${record.message}. Run again to request it anew.`,
    );
  }
  return writeMonth(run, task, ids, record);
}

/** Downloads and converts a succeeded report in staging, then swaps each datasource's month into place. */
async function writeMonth(run: Run, task: MonthTask, ids: string[], record: ReportRecord): Promise<number> {
  const { range, manifest, dest } = run;
  const token = `${range.frequency}-${monthName(task.slice)}-${record.reportId}`;
  const staging = await stagingFolder(dest, token);
  const files = await downloadReportFiles(run.o.client, record, `${staging}/files`, run.call);
  const parts = `${staging}/parts`;
  await ensureFolder(parts);
  const rows = new Map<string, number>();
  const asked = new Set(ids);
  for (const [i, f] of files.entries()) {
    const written = await csvToPartitionedParquet(f.path, parts, 'datasourceId', `part-${i}`, asked, run.call.signal);
    for (const [id, n] of written) rows.set(id, (rows.get(id) ?? 0) + n);
    await removeFolder(f.path);
  }
  const staged = await stagedPartitions(parts, 'datasourceId');
  // Entries go first: a run stopped between two swaps fetches the month again (its pending report).
  for (const id of ids) delete manifest.partitions[partitionKey(range.frequency, id, task.slice)];
  await writeManifest(dest, manifest);
  for (const id of ids) {
    await swapPartition(dest, partitionSegments(range.frequency, id, task.slice), staged.get(id), token);
  }
  let total = 0;
  for (const id of ids) {
    const n = rows.get(id) ?? 0;
    total += n;
    manifest.partitions[partitionKey(range.frequency, id, task.slice)] = {
      from: new Date(task.slice.from).toISOString(),
      to: new Date(task.slice.to).toISOString(),
      rows: n,
      reportId: record.reportId,
    };
  }
  delete manifest.pending[pendingKey(run, task.slice)];
  await writeManifest(dest, manifest);
  await removeFolder(staging);
  return total;
}
