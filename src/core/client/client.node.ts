// MeasurementsClient: one method per endpoint of the measurements service (SERVICE-INTERFACE.md).
// Requests are validated before anything is sent; reads are retried, report creation is not (it costs
// daily quota); the API key goes only to the base URL's origin and never to report file URLs.

import type { Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { readDatasourceDetail, readDatasourceList } from '../api/datasources';
import { redactUserinfo } from '../api/error-reply';
import { MeasurementsError, OutputError } from '../api/errors';
import { CONTINUATION_TOKEN_HEADER, PATHS, serviceUrl } from '../api/paths';
import type {
  ContinuationRequest,
  DatasourceInfo,
  DatasourceList,
  JsonLongBody,
  RecentFormat,
  RecentQueryRequest,
  ReportRecord,
  ReportRequest,
} from '../api/types';
import {
  describeIssues,
  isPlainReportId,
  type ValidationIssue,
  validateContinuation,
  validateRecentQuery,
  validateReportRequest,
} from '../api/validate';
import { writeWholeLines } from '../io/line-stream.node';
import { parseCsvWide } from '../table/csv-read.node';
import { pivotJsonLong } from '../table/json-long';
import { safeForTerminalLine } from '../text/terminal';
import { type RetryPolicy, retryPolicy } from '../time/backoff';
import type { WaitClock } from '../time/clock';
import { HOUR_MS } from '../time/duration';
import type { RecentResult } from './client-types';
import { type DownloadResult, writeBody } from './download.node';
import {
  type CallOptions,
  type CallSpec,
  headerValue,
  type RequestLogger,
  type ResponseInfo,
  readText,
  Transport,
} from './http.node';

export type { CallOptions, RequestLogEntry, RequestLogger } from './http.node';

interface MeasurementsClientOptions {
  /** The service's base URL, e.g. https://api.example.com (a path prefix is kept). */
  baseUrl: string;
  apiKey?: string;
  /** Default budget per call, retries included (default 30 s). */
  timeoutMs?: number;
  /** Retry policy for reads; false disables retries. */
  retry?: Partial<RetryPolicy> | false;
  /** Receives one entry per call; the key is never part of it. */
  log?: RequestLogger;
  dispatcher?: Dispatcher;
  /**
   * Reads "now" for call durations, 429 reset times and URL expiry, and waits for reports: required, passed
   * from the one owner of the clock (ExtensionServices.clock in the extension, the action's ctx.clock in the CLI).
   */
  clock: WaitClock;
}

export type { RecentResult } from './client-types';

interface RecentCallOptions extends CallOptions {
  /** false: do not keep the parsed json-long reply in the result (`body`), to save memory. Default true. */
  keepBody?: boolean;
}

interface CsvStreamResult {
  /** Bytes written to the destination (the decoded reply). */
  bytes: number;
  continuationToken?: string;
}

interface PingResult {
  status: number;
  durationMs: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class MeasurementsClient {
  /** The clock of this client's calls (durations, 429 reset times, URL expiry of its reports' files). */
  readonly clock: WaitClock;
  private readonly transport: Transport;
  private readonly base: URL;

  constructor(options: MeasurementsClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new MeasurementsError(
        'INVALID_REQUEST',
        `The base URL ${JSON.stringify(redactUserinfo(String(options.baseUrl)))} is not a URL.`,
      );
    }
    if (base.username || base.password) {
      // Never echoed: the URL's credentials would be printed with it.
      throw new MeasurementsError(
        'INVALID_REQUEST',
        `The base URL ${redactUserinfo(base.href)} holds credentials (user:password@); they are not used. Remove them: the API key is the only credential sent.`,
      );
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new MeasurementsError(
        'INVALID_REQUEST',
        `The base URL must start with https:// or http:// (got ${base.protocol}).`,
      );
    }
    base.search = '';
    base.hash = '';
    this.base = base;
    this.clock = options.clock;
    this.transport = new Transport({
      baseUrl: base,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: retryPolicy(options.retry),
      log: options.log,
      dispatcher: options.dispatcher,
      clock: this.clock,
    });
  }

  get baseUrl(): string {
    return this.base.href;
  }

  /** The URL of an API path under the base URL (which may carry a path prefix). */
  url(path: string, query?: Record<string, string>): URL {
    return serviceUrl(this.base, path, query);
  }

  /** Connectivity check: GET {base_url} must answer 200. Sends no key. */
  async ping(options?: CallOptions): Promise<PingResult> {
    const started = this.clock.nowMs();
    const status = await this.transport.call(
      {
        method: 'GET',
        url: this.url('/'),
        withKey: false,
        retry: 'read',
        operation: 'ping',
        consume: async (res) => {
          await res.body.resume();
          return res.status;
        },
      },
      options,
    );
    return { status, durationMs: this.clock.nowMs() - started };
  }

  /** Creates a historical report. Never retried once the request may have reached the server. */
  async createReport(req: ReportRequest, options?: CallOptions): Promise<ReportRecord> {
    assertValid(validateReportRequest(req), 'report request');
    return this.transport.call(
      {
        method: 'POST',
        url: this.url(PATHS.reportRequests),
        json: req,
        withKey: true,
        retry: 'connect-only',
        operation: 'createReport',
        consume: async (res) => normalizeReport(await readJson(res)),
      },
      options,
    );
  }

  async getReport(reportId: string, options?: CallOptions): Promise<ReportRecord> {
    if (typeof reportId !== 'string' || !reportId.trim()) {
      throw invalid([{ field: 'reportId', message: 'reportId is required' }], 'report status request');
    }
    return this.transport.call(
      {
        method: 'GET',
        url: this.url(PATHS.reportRequest(reportId)),
        withKey: true,
        retry: 'read',
        operation: 'getReport',
        subject: reportId,
        consume: async (res) => normalizeReport(await readJson(res)),
      },
      options,
    );
  }

  async listDatasources(org: string, options?: CallOptions): Promise<DatasourceList> {
    requireOrg(org);
    return this.transport.call(
      {
        method: 'GET',
        url: this.url(PATHS.datasources, { org }),
        withKey: true,
        retry: 'read',
        operation: 'listDatasources',
        consume: async (res) => readDatasourceList(await readJson(res), org),
      },
      options,
    );
  }

  async getDatasource(org: string, datasourceId: string, options?: CallOptions): Promise<DatasourceInfo> {
    requireOrg(org);
    if (typeof datasourceId !== 'string' || !datasourceId.trim()) {
      throw invalid([{ field: 'datasourceId', message: 'datasourceId is required' }], 'datasource request');
    }
    return this.transport.call(
      {
        method: 'GET',
        url: this.url(PATHS.datasource(datasourceId), { org }),
        withKey: true,
        retry: 'read',
        operation: 'getDatasource',
        subject: datasourceId,
        consume: async (res) => readDatasourceDetail(await readJson(res), datasourceId),
      },
      options,
    );
  }

  /** The recent query; json-long and csv-wide both end as a Table. */
  async recentQuery(req: RecentQueryRequest, options?: RecentCallOptions): Promise<RecentResult> {
    assertValid(validateRecentQuery(req), 'recent query');
    return this.transport.call(
      this.recentSpec(req, (res) => readRecent(res, req.format ?? 'json-long', options?.keepBody)),
      options,
    );
  }

  /**
   * A csv-wide recent query whose reply goes byte for byte into dest (stdout, a file), whole lines only:
   * no Table, no per-row objects. Retried like any read until the first byte is written; after that a
   * failure is final (dest already holds the complete lines before it, never half a row), unless the
   * caller can take the bytes back: `restart` gives an empty destination in place of the one written to
   * (a .part file nobody has seen, a spool), and the reply is read again from its beginning.
   */
  async recentQueryCsv(
    req: RecentQueryRequest,
    dest: Writable,
    options?: CallOptions & { restart?: () => Promise<Writable> },
  ): Promise<CsvStreamResult> {
    assertValid(validateRecentQuery(req), 'recent query');
    if ((req.format ?? 'json-long') !== 'csv-wide') {
      throw invalid([{ field: 'format', message: 'streaming needs format csv-wide' }], 'recent query');
    }
    const restart = options?.restart;
    let target = dest;
    let written = false;
    const spec = this.recentSpec(req, async (res) => {
      const continuationToken = headerValue(res.headers, CONTINUATION_TOKEN_HEADER) || undefined;
      try {
        const bytes = await writeWholeLines(res.body, target, () => {
          written = true;
        });
        return { bytes, continuationToken };
      } catch (e) {
        // Taken back now, while the broken body is still being read (its errors have a listener).
        if (written && restart) {
          target = await restart().catch((r: unknown) => {
            throw new OutputError(r);
          });
          written = false;
        }
        throw e;
      }
    });
    return this.transport.call({ ...spec, retryConsumeFailure: () => !written }, options);
  }

  private recentSpec<T>(req: RecentQueryRequest, consume: (res: ResponseInfo) => Promise<T>): CallSpec<T> {
    return {
      method: 'POST',
      url: this.url(PATHS.recentQuery),
      json: req,
      withKey: true,
      retry: 'read',
      operation: 'recentQuery',
      consume,
    };
  }

  /** Measurements newer than the previous call; the reply's format follows the first query's. */
  async continueQuery(
    req: ContinuationRequest,
    options?: RecentCallOptions & { format?: RecentFormat },
  ): Promise<RecentResult> {
    assertValid(validateContinuation(req), 'continuation request');
    return this.transport.call(
      {
        method: 'POST',
        url: this.url(PATHS.continuation),
        json: { org: req.org, continuationToken: req.continuationToken },
        withKey: true,
        retry: 'read',
        operation: 'continueQuery',
        consume: (res) => readRecent(res, options?.format, options?.keepBody),
      },
      options,
    );
  }

  /**
   * Streams a report file (a pre-signed URL, usually on another host) to a path or stream, without the
   * API key, whatever its origin. .csv.gz content and Content-Encoding gzip are decoded.
   */
  async downloadReportFile(url: string, dest: string | Writable, options?: CallOptions): Promise<DownloadResult> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw invalid([{ field: 'url', message: 'the report file URL is not a URL' }], 'download');
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      throw invalid(
        [{ field: 'url', message: `report file URLs must be http(s) (got ${target.protocol})` }],
        'download',
      );
    }
    return this.transport.call(
      {
        method: 'GET',
        url: target,
        withKey: false,
        retry: 'read',
        operation: 'downloadReportFile',
        consume: (res) => writeBody(res.body, dest, neverAbort),
        // A path is rewritten from the start on retry; a caller's stream cannot take the bytes twice.
        retryConsumeFailure: typeof dest === 'string',
      },
      { ...options, timeoutMs: options?.timeoutMs ?? DOWNLOAD_TIMEOUT_MS },
    );
  }
}

// Downloads of big reports take long; they are cancelled with the caller's signal (which aborts the body).
const DOWNLOAD_TIMEOUT_MS = HOUR_MS;
const neverAbort = new AbortController().signal;

function requireOrg(org: string): void {
  if (typeof org !== 'string' || !org.trim()) throw invalid([{ field: 'org', message: 'org is required' }], 'request');
}

function invalid(issues: ValidationIssue[], what: string): MeasurementsError {
  return new MeasurementsError('INVALID_REQUEST', `Invalid ${what}: ${describeIssues(issues)}. Nothing was sent.`, {
    issues,
  });
}

function assertValid(issues: ValidationIssue[], what: string): void {
  if (issues.length) throw invalid(issues, what);
}

async function readJson(res: ResponseInfo): Promise<unknown> {
  const text = await readText(res.body);
  try {
    return JSON.parse(text);
  } catch {
    throw new MeasurementsError(
      'SERVER_ERROR',
      `The service answered ${res.status} with a body that is not JSON (${res.url.pathname}).`,
      { status: res.status, path: res.url.pathname },
    );
  }
}

/** A refused id as it may be shown: at most 40 characters, control characters escaped (core/text/terminal). */
function shownId(id: string): string {
  return `${safeForTerminalLine(id.slice(0, 40))}${id.length > 40 ? '…' : ''}`;
}

/** Keeps every field; fills the ones a client relies on so that unknown statuses display instead of crashing. */
function normalizeReport(body: unknown): ReportRecord {
  const r = (body && typeof body === 'object' ? body : {}) as Partial<ReportRecord> & Record<string, unknown>;
  if (typeof r.reportId !== 'string') {
    throw new MeasurementsError('SERVER_ERROR', 'The service answered with a report record that has no reportId.');
  }
  if (!isPlainReportId(r.reportId)) {
    throw new MeasurementsError(
      'SERVER_ERROR',
      `The service answered with a report id that is not letters, digits, - and _ ("${shownId(r.reportId)}"); refusing it.`,
    );
  }
  return {
    ...r,
    reportId: r.reportId,
    reportStatus: typeof r.reportStatus === 'string' ? r.reportStatus : 'unknown',
    message: typeof r.message === 'string' ? r.message : '',
    report: typeof r.report === 'string' ? r.report : '',
    urls: Array.isArray(r.urls) ? r.urls.filter((u): u is string => typeof u === 'string') : [],
    query: r.query && typeof r.query === 'object' ? r.query : {},
  };
}

async function readRecent(
  res: ResponseInfo,
  requested: RecentFormat | undefined,
  keepBody = true,
): Promise<RecentResult> {
  const continuationToken = headerValue(res.headers, CONTINUATION_TOKEN_HEADER) || undefined;
  const type = String(headerValue(res.headers, 'content-type') ?? '').toLowerCase();
  const format: RecentFormat | undefined = type.includes('csv')
    ? 'csv-wide'
    : type.includes('json')
      ? 'json-long'
      : requested;
  if (format === 'csv-wide') {
    return { table: await parseCsvWide(res.body, { complete: true }), continuationToken, format };
  }
  const text = await readText(res.body);
  if (format === undefined && !text.trimStart().startsWith('{')) {
    return { table: await parseCsvWide(text, { complete: true }), continuationToken, format: 'csv-wide' };
  }
  let body: JsonLongBody;
  try {
    body = JSON.parse(text) as JsonLongBody;
  } catch {
    throw new MeasurementsError(
      'SERVER_ERROR',
      `The service sent a json-long reply that is not JSON (${res.url.pathname}).`,
      {
        status: res.status,
        path: res.url.pathname,
      },
    );
  }
  const result: RecentResult = { table: pivotJsonLong(body), continuationToken, format: 'json-long' };
  if (body && typeof body.request === 'object' && body.request !== null) result.request = body.request;
  if (keepBody) result.body = body;
  return result;
}
