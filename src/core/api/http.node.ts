// The client's transport: one call = timeout + cancellation + redirects + key policy + retries + one log entry.
// The API key is attached only when the target's origin is the base URL's origin; once a redirect
// leaves that origin, it is never attached again for that call.

import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { CallOptions } from './client-types';
import { errorFromResponse, MeasurementsError, redact } from './errors';
import { gunzipIfGzipped } from './gzip.node';
import { API_KEY_HEADER } from './paths';
import { backoffDelayMs, failedBeforeSending, type RetryPolicy, sleep, transportErrorCode } from './retry';
import { request } from './undici-request.node';

export interface RequestLogEntry {
  method: string;
  /** Path without query string (file URLs carry signatures there) and without host. */
  path: string;
  status?: number;
  durationMs: number;
  retries: number;
  /** The MeasurementsError code when the call failed. */
  error?: string;
}

export type RequestLogger = (entry: RequestLogEntry) => void;

export type { CallOptions } from './client-types';

export interface TransportOptions {
  baseUrl: URL;
  apiKey?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  log?: RequestLogger;
  dispatcher?: Dispatcher;
}

/**
 * How a call may be retried:
 * - 'read': network errors, 5xx and 429 with an acceptable Retry-After;
 * - 'connect-only': only when the connection failed before anything was sent (report creation costs quota).
 */
export type RetryMode = 'read' | 'connect-only';

export interface CallSpec<T> {
  method: 'GET' | 'POST';
  url: URL;
  /** JSON body for POST. */
  json?: unknown;
  /** Whether the x-api-key may be attached (never for report file URLs). */
  withKey: boolean;
  retry: RetryMode;
  /** Names the operation in error messages ('createReport', 'getReport', ...). */
  operation: string;
  subject?: string;
  /** Reads a 2xx response; runs inside the call's timeout, and a transport failure here is retried for reads. */
  consume: (res: ResponseInfo) => Promise<T>;
  /** false when consume has side effects that cannot be repeated (writing into a caller's stream). */
  retryConsumeFailure?: boolean;
}

export interface ResponseInfo {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body with Content-Encoding gzip already decoded. */
  body: Readable;
  url: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const MAX_ERROR_BODY = 64 * 1024;

class TimeoutSignal extends Error {}

export class Transport {
  constructor(private readonly opts: TransportOptions) {}

  get origin(): string {
    return this.opts.baseUrl.origin;
  }

  async call<T>(spec: CallSpec<T>, callOptions: CallOptions = {}): Promise<T> {
    const started = Date.now();
    const path = spec.url.pathname;
    let retries = 0;
    let lastStatus: number | undefined;
    const log = (error?: MeasurementsError) =>
      this.opts.log?.({
        method: spec.method,
        path,
        status: error?.status ?? lastStatus,
        durationMs: Date.now() - started,
        retries,
        error: error?.code,
      });

    const timeoutMs = callOptions.timeoutMs ?? this.opts.timeoutMs;
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort(new TimeoutSignal('timeout'));
    }, timeoutMs);
    const userSignal = callOptions.signal;
    const onUserAbort = () => ctrl.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });

    const abortError = (): MeasurementsError =>
      timedOut
        ? new MeasurementsError(
            'timeout',
            `No complete answer from ${spec.url.origin} within ${formatMs(timeoutMs)} (${spec.method} ${path}).`,
            { method: spec.method, path },
          )
        : new MeasurementsError('cancelled', `Cancelled: ${spec.method} ${path}.`, { method: spec.method, path });

    try {
      if (userSignal?.aborted) throw abortError();
      for (let attempt = 0; ; attempt++) {
        let retryAfterMs: number | undefined;
        let failure: MeasurementsError;
        let consuming = false;
        try {
          const res = await this.exchange(spec, ctrl.signal);
          lastStatus = res.status;
          if (res.status >= 200 && res.status < 300) {
            consuming = true;
            const value = await spec.consume(res);
            log();
            return value;
          }
          const bodyText = await readLimited(res.body, MAX_ERROR_BODY);
          const retryAfter = headerValue(res.headers, 'retry-after');
          failure = errorFromResponse({
            status: res.status,
            method: spec.method,
            path,
            bodyText,
            retryAfter,
            secret: this.opts.apiKey,
            operation: spec.operation,
            subject: spec.subject,
          });
          const retryable =
            spec.retry === 'read' &&
            (res.status >= 500 ||
              (res.status === 429 && retryAfter !== undefined && failure.retryAfterSeconds !== undefined));
          if (res.status === 429) retryAfterMs = (failure.retryAfterSeconds ?? 0) * 1000;
          if (!retryable || (retryAfterMs !== undefined && retryAfterMs > this.opts.retry.maxRetryAfterMs))
            throw failure;
        } catch (e) {
          if (ctrl.signal.aborted) throw abortError();
          if (e instanceof MeasurementsError) throw e;
          const code = transportErrorCode(e);
          if (consuming && code?.startsWith('CSV_')) throw this.malformedBody(e, spec);
          failure = this.networkError(e, spec, consuming);
          const retryable =
            (spec.retry === 'read' && !(consuming && spec.retryConsumeFailure === false)) || failedBeforeSending(e);
          if (!retryable) throw failure;
        }
        if (attempt >= this.opts.retry.maxRetries) throw failure;
        try {
          await sleep(backoffDelayMs(this.opts.retry, attempt, retryAfterMs), ctrl.signal);
        } catch {
          throw abortError();
        }
        retries++;
      }
    } catch (e) {
      const err = e instanceof MeasurementsError ? e : ctrl.signal.aborted ? abortError() : this.networkError(e, spec);
      log(err);
      throw err;
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /** One request with its redirects followed; the key policy is applied at every hop. */
  private async exchange<T>(spec: CallSpec<T>, signal: AbortSignal): Promise<ResponseInfo> {
    let url = spec.url;
    let method: 'GET' | 'POST' = spec.method;
    let body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
    let keyAllowed = spec.withKey;
    for (let hop = 0; ; hop++) {
      if (url.origin !== this.origin) keyAllowed = false;
      const headers: Record<string, string> = {
        accept: 'application/json, text/csv;q=0.9, */*;q=0.5',
        'accept-encoding': 'gzip',
        'user-agent': 'measnb',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (keyAllowed && this.opts.apiKey) headers[API_KEY_HEADER] = this.opts.apiKey;
      const res = await request(url, { method, headers, body, signal, dispatcher: this.opts.dispatcher });
      const location = headerValue(res.headers, 'location');
      if (REDIRECTS.has(res.statusCode) && location) {
        await res.body.dump().catch(() => undefined);
        if (hop >= MAX_REDIRECTS) {
          throw new MeasurementsError(
            'server-error',
            `Too many redirects from ${spec.url.origin} (${spec.method} ${spec.url.pathname}).`,
            {
              status: res.statusCode,
              method: spec.method,
              path: spec.url.pathname,
            },
          );
        }
        url = new URL(location, url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') {
          throw new MeasurementsError('server-error', `Refusing a redirect to a ${url.protocol} URL.`, {
            method: spec.method,
            path: spec.url.pathname,
          });
        }
        if (res.statusCode === 303 || (method === 'POST' && (res.statusCode === 301 || res.statusCode === 302))) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const encoding = String(headerValue(res.headers, 'content-encoding') ?? '').toLowerCase();
      const decoded: Readable = encoding.includes('gzip') ? res.body.pipe(gunzipIfGzipped()) : res.body;
      if (decoded !== res.body) res.body.on('error', (e) => decoded.destroy(e));
      return { status: res.statusCode, headers: res.headers, body: decoded, url };
    }
  }

  private networkError<T>(e: unknown, spec: CallSpec<T>, duringBody = false): MeasurementsError {
    const code = transportErrorCode(e);
    const detail = redact(code ?? (e instanceof Error ? e.message : String(e)), this.opts.apiKey);
    const where = `${spec.url.origin} (${spec.method} ${spec.url.pathname})`;
    return new MeasurementsError(
      'network',
      duringBody
        ? `The connection to ${where} broke while reading the reply: ${detail}. Try again.`
        : `Could not reach ${where}: ${detail}. Check the URL and your network.`,
      { method: spec.method, path: spec.url.pathname },
    );
  }

  /** A body that arrived whole but cannot be read (malformed CSV): the service's fault, not worth a retry. */
  private malformedBody<T>(e: unknown, spec: CallSpec<T>): MeasurementsError {
    const detail = redact(e instanceof Error ? e.message : String(e), this.opts.apiKey).slice(0, 200);
    return new MeasurementsError(
      'server-error',
      `The service sent a reply that could not be read (${spec.method} ${spec.url.pathname}): ${detail}`,
      { method: spec.method, path: spec.url.pathname },
    );
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Reads at most `limit` bytes of a body as text and discards the rest. */
async function readLimited(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

export async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
