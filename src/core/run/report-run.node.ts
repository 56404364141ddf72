// A report cell: create the report, wait for it with progress (the core ReportPoller), download every
// file (core downloadReportFiles), and load them (csv or parquet) into one Table.
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReportFailedError } from '../api/errors';
import type { ReportRecord, ReportRequest } from '../api/types';
import type { MeasurementsClient } from '../client/client.node';
import { confinedFolder, reportFolderName } from '../io/local-paths.node';
import { downloadReportFiles } from '../reports/download.node';
import { waitForReport } from '../reports/poller';
import { reportState } from '../reports/status';
import { parseCsvWide } from '../table/csv-read.node';
import { readerOfName } from '../table/file-format';
import { readParquet } from '../table/parquet';
import type { Table } from '../table/table';
import { concatTables } from '../table/table-rows';

export type ReportProgress =
  | { kind: 'report-created'; reportId: string }
  | {
      kind: 'report-status';
      reportId: string;
      status: string;
      elapsedMs: number;
      nextCheckMs?: number;
      /** The last check failed (transiently); waiting goes on. */
      error?: string;
      /** The record the check returned (absent after a failed check): other views of the report show it. */
      record?: ReportRecord;
    }
  | { kind: 'download'; reportId: string; file: string; index: number; total: number };

type ReportClient = Pick<MeasurementsClient, 'clock' | 'createReport' | 'getReport' | 'downloadReportFile'>;

interface RunReportOptions {
  client: ReportClient;
  signal?: AbortSignal;
  onProgress?: (p: ReportProgress) => void;
  /** Files go into `<downloadDir>/<reportId>/` (default: a new temporary directory). */
  downloadDir?: string;
  wait: boolean;
}

export interface ReportOutcome {
  table: Table;
  summary: string;
  format?: 'csv-wide' | 'parquet-wide';
  report: { record: ReportRecord; files: string[]; dir?: string };
}

export async function runReport(request: ReportRequest, options: RunReportOptions): Promise<ReportOutcome> {
  const { client, signal } = options;
  const created = await client.createReport(request, { signal });
  options.onProgress?.({ kind: 'report-created', reportId: created.reportId });
  if (!options.wait) {
    return {
      table: { columns: [], rowCount: 0 },
      summary: `Report ${created.reportId} created (${created.reportStatus})`,
      report: { record: created, files: [] },
    };
  }
  const record = await waitForReportProgress(client, created, options);
  return loadReport(record, options);
}

/** Waits for a report (created or looked up) until it succeeds or fails, with progress. */
export function waitForReportProgress(
  client: Pick<MeasurementsClient, 'getReport' | 'clock'>,
  initial: ReportRecord,
  options: Pick<RunReportOptions, 'signal' | 'onProgress'>,
): Promise<ReportRecord> {
  return waitForReport(client, initial.reportId, {
    clock: client.clock,
    initial,
    signal: options.signal,
    onProgress: (p) =>
      options.onProgress?.({
        kind: 'report-status',
        reportId: p.reportId,
        status: p.status,
        elapsedMs: p.elapsedMs,
        nextCheckMs: p.nextCheckInMs,
        error: p.error?.message,
        record: p.record,
      }),
  });
}

/** Downloads every file of a finished report into `<dir>/<reportId>/` (default dir: a new temporary one). */
export async function downloadReport(
  record: ReportRecord,
  options: Pick<RunReportOptions, 'client' | 'signal' | 'onProgress' | 'downloadDir'>,
): Promise<{ files: string[]; dir: string }> {
  if (reportState(record.reportStatus) !== 'succeeded') throw new ReportFailedError(record);
  const base = options.downloadDir ?? (await mkdtemp(join(tmpdir(), 'measnb-report-')));
  // One directory per report, so reports downloaded to the same place never overwrite each other; its
  // name comes from the service, so it is made one plain name and confined to the chosen folder.
  const dir = await confinedFolder(base, [reportFolderName(record.reportId)]);
  const files = await downloadReportFiles(options.client, record, dir, {
    signal: options.signal,
    onFile: (e) => {
      if (e.bytes === undefined) {
        options.onProgress?.({
          kind: 'download',
          reportId: record.reportId,
          file: e.path,
          index: e.index,
          total: e.total,
        });
      }
    },
  });
  return { files: files.map((f) => f.path), dir };
}

/** Downloads a finished report's files and loads them (csv or parquet) into one Table. */
export async function loadReport(
  record: ReportRecord,
  options: Pick<RunReportOptions, 'client' | 'signal' | 'onProgress' | 'downloadDir'>,
): Promise<ReportOutcome> {
  const { files, dir } = await downloadReport(record, options);
  const tables: Table[] = [];
  let parquet = false;
  for (const path of files) {
    if (readerOfName(path) === 'parquet') {
      parquet = true;
      tables.push(await readParquet(await readFile(path)));
    } else {
      tables.push(await parseCsvWide(createReadStream(path)));
    }
  }
  const table = concatTables(tables);
  const rows = table.rowCount;
  return {
    table,
    summary: `Report ${record.reportId} succeeded: ${files.length} file${files.length === 1 ? '' : 's'}, ${rows} row${rows === 1 ? '' : 's'} × ${table.columns.length} columns`,
    format: parquet ? 'parquet-wide' : 'csv-wide',
    report: { record, files, dir },
  };
}
