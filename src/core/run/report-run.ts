// A report cell: create the report, wait for it with progress, download every file, load them into one Table.
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { MeasurementsClient } from '../api/client';
import type { ReportRecord, ReportRequest } from '../api/types';
import { parseCsvWide } from '../table/csv-read';
import { readParquet } from '../table/parquet';
import type { Table } from '../table/table';
import { waitForReportRecord } from './report-wait';
import { concatTables } from './table-rows';

/** A report that ended in a state other than succeeded (failed, or a status this client does not know). */
export class ReportFailedError extends Error {
  readonly code = 'report-failed';
  constructor(readonly record: ReportRecord) {
    const said = record.message && record.message !== record.reportStatus ? `: ${record.message}` : '';
    super(
      `Report ${record.reportId} ${record.reportStatus === 'failed' ? 'failed' : `ended as '${record.reportStatus}'`}${said}; no files to download.`,
    );
    this.name = 'ReportFailedError';
  }
}

export type ReportProgress =
  | { kind: 'report-created'; reportId: string }
  | { kind: 'report-status'; reportId: string; status: string; elapsedMs: number; nextCheckMs?: number }
  | { kind: 'download'; reportId: string; file: string; index: number; total: number };

export interface RunReportOptions {
  client: Pick<MeasurementsClient, 'createReport' | 'getReport' | 'downloadReportFile'>;
  signal?: AbortSignal;
  onProgress?: (p: ReportProgress) => void;
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
  const record = await waitForReportRecord(client, created, { signal, onProgress: options.onProgress });
  return loadReport(record, options);
}

/** Downloads every file of a finished report into a directory (default: a new temporary one). */
export async function downloadReport(
  record: ReportRecord,
  options: Pick<RunReportOptions, 'client' | 'signal' | 'onProgress' | 'downloadDir'>,
): Promise<{ files: string[]; dir: string }> {
  if (record.reportStatus !== 'succeeded') throw new ReportFailedError(record);
  const dir = options.downloadDir ?? (await mkdtemp(join(tmpdir(), 'measnb-report-')));
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const [index, url] of record.urls.entries()) {
    const path = join(dir, reportFileName(record, url, index));
    options.onProgress?.({ kind: 'download', reportId: record.reportId, file: path, index, total: record.urls.length });
    await options.client.downloadReportFile(url, path, { signal: options.signal });
    files.push(path);
  }
  return { files, dir };
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
    if (path.endsWith('.parquet')) {
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

/** A local file name for a report file URL: its base name without the signature, gzip decoded. */
export function reportFileName(record: ReportRecord, url: string, index: number): string {
  let name = '';
  try {
    name = basename(new URL(url).pathname);
  } catch {
    // keep the fallback
  }
  name = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/\.gz$/i, '');
  const ext = /\.(csv|parquet)$/i.exec(name)?.[0] ?? '.csv';
  if (!name || name.startsWith('.') || name === ext.slice(1)) name = `${index}${ext}`;
  // Several reports may share a directory: the report id keeps their files apart.
  const id = record.reportId.replace(/[^A-Za-z0-9._-]/g, '_');
  return name.includes(id) ? name : `${id}-${name}`;
}
