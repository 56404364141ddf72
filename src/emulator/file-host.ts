// The report file host: a second origin (another port on 127.0.0.1), as the service's pre-signed file URLs
// point at an object store on another host (SERVICE-FACTS). GET and HEAD, one byte Range, Content-Length
// as object stores send them. Files are generated when asked for; a file whose size is needed (HEAD, Range,
// or a GET after one) is first written to a temporary file (the last few are kept). Every request that
// carries the API key header is recorded (never the key itself): a client must not send the key here.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { API_KEY_HEADER } from '../core/api/paths';
import { sleep } from '../core/time/clock';
import type { FaultDecision, FaultInjector } from './faults';
import { HttpError, sendInjectedError, sendJson, sendStream, sendWithLength } from './http';
import { FILE_PATH_PREFIX, type ReportFile, type ReportService } from './reports';

export type ReportFileEncoding = 'content-encoding' | 'plain-gzip';

/** A request to the file host that carried the API key header: what a test asserts never happens. */
export interface KeyedFileRequest {
  method: string;
  path: string;
}

/** What the file host saw (bounded): how many requests, and those that carried the key. */
export class FileHostLog {
  requests = 0;
  readonly withKey: KeyedFileRequest[] = [];

  record(method: string, path: string, keyed: boolean): void {
    this.requests++;
    if (keyed && this.withKey.length < MAX_KEYED_RECORDED) this.withKey.push({ method, path });
  }
}

const MAX_KEYED_RECORDED = 1000;
/** Files kept on disk once their size was needed (oldest removed first). */
const FILES_KEPT = 8;

interface FileHostParts {
  reports: ReportService;
  faults: FaultInjector;
  log: FileHostLog;
  /** How report .csv.gz files are served: Content-Encoding gzip (default, as object stores do) or a plain .gz body. */
  encoding?: ReportFileEncoding;
  onRequest?: (request: { method: string; path: string }) => void;
}

interface StoredFile {
  file: string;
  size: number;
}

/** Report files written out whole (for their size), by path: a file's bytes are a pure function of its path. */
class FileStore {
  private dir: Promise<string> | undefined;
  private written = 0;
  private readonly files = new Map<string, Promise<StoredFile>>();

  stored(path: string): Promise<StoredFile> | undefined {
    return this.files.get(path);
  }

  get(path: string, file: ReportFile): Promise<StoredFile> {
    let entry = this.files.get(path);
    if (!entry) {
      entry = this.write(file);
      entry.catch(() => this.files.delete(path));
      this.files.set(path, entry);
      if (this.files.size > FILES_KEPT) {
        const [oldest, old] = this.files.entries().next().value as [string, Promise<StoredFile>];
        this.files.delete(oldest);
        old.then((s) => rm(s.file, { force: true })).catch(() => undefined);
      }
    }
    return entry;
  }

  private async write(report: ReportFile): Promise<StoredFile> {
    this.dir ??= mkdtemp(join(tmpdir(), 'measnb-emulator-files-'));
    const file = join(await this.dir, `file-${++this.written}`);
    const stages: NodeJS.ReadWriteStream[] = report.gzipFile
      ? [createGzip({ level: 1, flush: constants.Z_NO_FLUSH })]
      : [];
    await pipeline([Readable.from(report.chunks), ...stages, createWriteStream(file)] as NodeJS.ReadWriteStream[]);
    return { file, size: (await stat(file)).size };
  }

  async close(): Promise<void> {
    this.files.clear();
    if (this.dir) await rm(await this.dir, { recursive: true, force: true });
  }
}

/** A single `bytes=` range of a file of `size` bytes: [start, end] inclusive, 'unsatisfiable', or undefined (serve all). */
export function parseRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined; // several ranges or another unit: the whole file
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return [start, end];
}

export function createFileHostServer(parts: FileHostParts): { server: Server; close(): Promise<void> } {
  const store = new FileStore();
  const server = createServer((req, res) => {
    serveFile(parts, store, req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      req.resume();
      if (err instanceof HttpError) return sendJson(res, err.status, { message: err.message }, err.headers);
      sendJson(res, 500, { message: 'Internal error in the emulator' });
      console.error('[emulator file host]', err);
    });
  });
  return { server, close: () => store.close() };
}

async function serveFile(parts: FileHostParts, store: FileStore, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://files.invalid');
  const method = req.method ?? 'GET';
  parts.onRequest?.({ method, path: url.pathname });
  parts.log.record(method, url.pathname, req.headers[API_KEY_HEADER] !== undefined);
  if (!url.pathname.startsWith(FILE_PATH_PREFIX)) throw new HttpError(404, `Not found: ${url.pathname}`);
  if (method !== 'GET' && method !== 'HEAD') {
    throw new HttpError(405, `Method ${method} is not allowed here; use GET or HEAD`, { allow: 'GET, HEAD' });
  }
  const fault = parts.faults.decide('reportFile');
  if (fault.latencyMs > 0) await sleep(fault.latencyMs);
  if (fault.error) {
    req.resume();
    return sendInjectedError(res, fault.error);
  }
  const file = parts.reports.file(url.pathname, url.searchParams);
  const encoded = (parts.encoding ?? 'content-encoding') === 'content-encoding' && file.gzipFile;
  const headers: Record<string, string> = {
    'content-type': encoded ? 'text/csv; charset=utf-8' : file.contentType,
    'content-disposition': `attachment; filename="${file.name}"`,
    'accept-ranges': 'bytes',
    ...(encoded ? { 'content-encoding': 'gzip' } : {}),
  };
  const needsSize = method === 'HEAD' || req.headers.range !== undefined;
  const stored = needsSize ? store.get(url.pathname, file) : store.stored(url.pathname);
  if (stored) return sendStored(req, res, await stored, headers, fault);
  return sendStream(req, res, file.chunks, {
    contentType: headers['content-type'],
    gzip: !file.gzipFile ? 'none' : encoded ? 'encoded' : 'file',
    headers: { 'content-disposition': headers['content-disposition'], 'accept-ranges': 'bytes' },
    damage: fault.damage,
  });
}

/** A file whose size is known: HEAD, the whole file, or one range (206), with Content-Length. */
function sendStored(
  req: IncomingMessage,
  res: ServerResponse,
  stored: StoredFile,
  headers: Record<string, string>,
  fault: FaultDecision,
): Promise<void> {
  const range = parseRange(req.headers.range, stored.size);
  if (range === 'unsatisfiable') {
    throw new HttpError(416, 'Range not satisfiable', { 'content-range': `bytes */${stored.size}` });
  }
  const [start, end] = range ?? [0, stored.size - 1];
  const status = range ? 206 : 200;
  if (range) headers['content-range'] = `bytes ${start}-${end}/${stored.size}`;
  const body = req.method === 'HEAD' || stored.size === 0 ? undefined : createReadStream(stored.file, { start, end });
  return sendWithLength(res, status, headers, end - start + 1, body, fault.damage);
}
