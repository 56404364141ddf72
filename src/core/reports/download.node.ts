// Downloads every file of a succeeded report into a directory, named from the URL path (never from
// its query string, which carries the pre-signed signature).

import { MeasurementsError } from '../api/errors';
import type { ReportRecord } from '../api/types';
import type { CallOptions } from '../client/client.node';
import type { DownloadResult } from '../client/download.node';
import { confinedFile, confinedFolder, reportFolderName, safeFileName } from '../io/local-paths.node';
import type { Clock } from '../time/clock';
import { reportState, urlsExpired } from './status';

interface ReportFileClient {
  /** Whether the files' URLs have expired is read on this clock (the client's). */
  readonly clock: Clock;
  downloadReportFile(url: string, dest: string, options?: CallOptions): Promise<DownloadResult>;
  getReport(reportId: string, options?: CallOptions): Promise<ReportRecord>;
}

interface DownloadedFile {
  /** The file URL without its query string (safe to show and log). */
  displayUrl: string;
  path: string;
  bytes: number;
}

interface DownloadFilesOptions extends CallOptions {
  /** Called before each file starts and after it is written. */
  onFile?: (event: { index: number; total: number; displayUrl: string; path: string; bytes?: number }) => void;
}

/** The URL without query and fragment: what may be shown or logged. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split(/[?#]/)[0];
  }
}

/**
 * A safe local file name for the i-th URL of a report: the last path segment, decoded, with anything
 * that is not a plain file-name character replaced; `.gz` dropped because the content is stored
 * decoded; `<reportId>_<i>.csv` when the URL has no usable name.
 */
export function fileNameForUrl(url: string, index: number, reportId: string): string {
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0];
  }
  let base = path.split('/').filter(Boolean).pop() ?? '';
  try {
    base = decodeURIComponent(base);
  } catch {
    // keep it encoded
  }
  return safeFileName(base.replace(/\.gz$/i, ''), `${reportFolderName(reportId)}_${index}.csv`);
}

/**
 * Downloads every URL of a succeeded report into dir (created if needed; confined: no file lands
 * outside it, see local-paths). Expired URLs are refreshed once first.
 */
export async function downloadReportFiles(
  client: ReportFileClient,
  record: ReportRecord,
  dir: string,
  options: DownloadFilesOptions = {},
): Promise<DownloadedFile[]> {
  if (reportState(record.reportStatus) !== 'succeeded') {
    throw new MeasurementsError(
      'INVALID_REQUEST',
      `Report ${record.reportId} is ${record.reportStatus}, not succeeded: there are no files to download yet.`,
    );
  }
  // The local clock may be skewed from the service's: expiry by our clock only triggers a refresh,
  // and the file host stays the judge (a 403/404 on a file also refreshes the URLs, once). A file host
  // that cannot be reached at all also refreshes them: the URLs may name a host that moved (a restarted
  // local emulator on another port).
  let current = record;
  let refreshed = false;
  const refresh = async () => {
    refreshed = true;
    current = await client.getReport(record.reportId, options);
  };
  if (urlsExpired(current, client.clock.nowMs())) await refresh();
  const folder = await confinedFolder(dir);
  const used = new Set<string>();
  const out: DownloadedFile[] = [];
  const total = current.urls.length;
  for (let index = 0; index < total; index++) {
    const url = current.urls[index];
    let name = fileNameForUrl(url, index, current.reportId);
    if (used.has(name.toLowerCase())) {
      const dot = name.lastIndexOf('.');
      name = dot > 0 ? `${name.slice(0, dot)}_${index}${name.slice(dot)}` : `${name}_${index}`;
    }
    used.add(name.toLowerCase());
    const path = await confinedFile(folder, name);
    const shown = displayUrl(url);
    options.onFile?.({ index, total, displayUrl: shown, path });
    const call = { signal: options.signal, timeoutMs: options.timeoutMs };
    let result: DownloadResult;
    try {
      result = await client.downloadReportFile(url, path, call);
    } catch (e) {
      const stale =
        e instanceof MeasurementsError && (e.code === 'FORBIDDEN' || e.code === 'NOT_FOUND' || e.code === 'NETWORK');
      if (!stale || refreshed) throw e;
      await refresh();
      const again = current.urls[index];
      if (!again) throw e;
      result = await client.downloadReportFile(again, path, call);
    }
    options.onFile?.({ index, total, displayUrl: shown, path, bytes: result.bytes });
    out.push({ displayUrl: shown, path, bytes: result.bytes });
  }
  return out;
}
