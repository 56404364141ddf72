// Waiting for a report: polls with back-off from the first seconds (never a blind 60 s sleep, no
// 12-minute cap) and reports status, elapsed time and the next check until a terminal state.
import type { MeasurementsClient } from '../api/client';
import type { ReportRecord } from '../api/types';
import type { ReportProgress } from './report-run';

const SCHEDULE_MS = [1000, 1000, 2000, 3000, 5000, 8000, 13000, 20000, 30000];

export function nextCheckDelayMs(attempt: number): number {
  return SCHEDULE_MS[Math.min(attempt, SCHEDULE_MS.length - 1)];
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function waitForReportRecord(
  client: Pick<MeasurementsClient, 'getReport'>,
  created: ReportRecord,
  options: { signal?: AbortSignal; onProgress?: (p: ReportProgress) => void },
): Promise<ReportRecord> {
  const started = Date.now();
  let record = created;
  for (let attempt = 0; record.reportStatus === 'in-progress'; attempt++) {
    const delay = nextCheckDelayMs(attempt);
    options.onProgress?.({
      kind: 'report-status',
      reportId: record.reportId,
      status: record.reportStatus,
      elapsedMs: Date.now() - started,
      nextCheckMs: delay,
    });
    await sleep(delay, options.signal);
    record = await client.getReport(record.reportId, { signal: options.signal });
  }
  options.onProgress?.({
    kind: 'report-status',
    reportId: record.reportId,
    status: record.reportStatus,
    elapsedMs: Date.now() - started,
  });
  return record;
}
