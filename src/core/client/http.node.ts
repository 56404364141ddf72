// The client's transport: one call = timeout + cancellation + redirects + key policy + retries + one log entry.
// The API key is attached only when the target's origin is the base URL's origin; once a redirect
// leaves that origin, it is never attached again for that call.

import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { errorFromResponse, redact } from '../api/error-reply';
import {
  AttemptFailedError,
  IncompleteReplyError,
  MalformedReplyError,
  MeasurementsError,
  OutputError,
} from '../api/errors';
import { API_KEY_HEADER } from '../api/paths';
import { gunzipIfGzipped } from '../io/gzip.node';
import { type RetryPolicy, retryAfterMs, withRetries } from '../time/backoff';
import { nowDate, type WaitClock } from '../time/clock';
import type { CallOptions } from './client-types';
import { failedBeforeSending, transportErrorCode } from './retry';
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

interface TransportOptions {
  baseUrl: URL;
  apiKey?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  log?: RequestLogger;
  dispatcher?: Dispatcher;
  /** Call durations, error times, and the waits between retries. */
  clock: WaitClock;
}

/**
 * How a call may be retried:
 * - 'read': network errors, 5xx and 429 with an acceptable Retry-After (core/time/backoff: the one policy);
 * - 'connect-only': only when the connection failed before anything was sent (report creation costs quota).
 */
type RetryMode = 'read' | 'connect-only';

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
  /**
   * Whether a failure while consuming may be retried: false when consume has side effects that cannot be
   * repeated (writing into a caller's stream); a function when that holds only from some point on (the
   * first byte written). Default true.
   */
  retryConsumeFailure?: boolean | (() => boolean);
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

interface AttemptStats {
  retries: number;
  lastStatus?: number;
}

/** The whole call's budget: the overall timeout and the caller's signal, as one signal and one error. */
class CallBudget {
  private readonly ctrl = new AbortController();
  private timedOut = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onUserAbort = () => this.ctrl.abort(this.userSignal?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly userSignal: AbortSignal | undefined,
    private readonly spec: { method: string; url: URL },
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.ctrl.abort(this.error());
    }, timeoutMs);
    userSignal?.addEventListener('abort', this.onUserAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.ctrl.signal;
  }

  throwIfAborted(): void {
    if (this.userSignal?.aborted) throw this.error();
  }

  error(): MeasurementsError {
    const { method, url } = this.spec;
    const where = { method, path: url.pathname };
    return this.timedOut
      ? new MeasurementsError(
          'TIMEOUT',
          `No complete answer from ${url.origin} within ${formatMs(this.timeoutMs)} (${method} ${url.pathname}).`,
          where,
        )
      : new MeasurementsError('CANCELLED', `Cancelled: ${method} ${url.pathname}.`, where);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.userSignal?.removeEventListener('abort', this.onUserAbort);
  }
}

/** undici's own words for a body shorter than its framing (Content-Length, chunked without its terminator). */
const INCOMPLETE_FRAMING_CODES = new Set(['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_SOCKET', 'Z_BUF_ERROR']);

function isIncompleteFraming(e: unknown): boolean {
  const code = transportErrorCode(e);
  return code !== undefined && INCOMPLETE_FRAMING_CODES.has(code);
}

export class Transport {
  constructor(private readonly opts: TransportOptions) {}

  get origin(): string {
    return this.opts.baseUrl.origin;
  }

  async call<T>(spec: CallSpec<T>, callOptions: CallOptions = {}): Promise<T> {
    const started = this.opts.clock.nowMs();
    const budget = new CallBudget(callOptions.timeoutMs ?? this.opts.timeoutMs, callOptions.signal, spec);
    const stats: AttemptStats = { retries: 0 };
    const log = (error?: MeasurementsError) =>
      this.opts.log?.({
        method: spec.method,
        path: spec.url.pathname,
        status: error?.status ?? stats.lastStatus,
        durationMs: this.opts.clock.nowMs() - started,
        retries: stats.retries,
        error: error?.code,
      });
    try {
      budget.throwIfAborted();
      const value = await withRetries(
        { policy: this.opts.retry, clock: this.opts.clock, signal: budget.signal, onRetry: () => stats.retries++ },
        () => this.attempt(spec, budget.signal, stats),
        (e) => (e instanceof AttemptFailedError && !budget.signal.aborted ? e.decision : { retry: false }),
      );
      log();
      return value;
    } catch (e) {
      const failure = budget.signal.aborted ? budget.error() : e instanceof AttemptFailedError ? e.failure : e;
      const err =
        failure instanceof MeasurementsError || failure instanceof OutputError ? failure : this.networkError(e, spec);
      log(err instanceof MeasurementsError ? err : undefined);
      throw err;
    } finally {
      budget.dispose();
    }
  }

  /** One exchange (request, redirects, status, body); every failure leaves as a AttemptFailedError saying whether to retry. */
  private async attempt<T>(spec: CallSpec<T>, signal: AbortSignal, stats: AttemptStats): Promise<T> {
    let consuming = false;
    try {
      const res = await this.exchange(spec, signal);
      stats.lastStatus = res.status;
      if (res.status < 200 || res.status >= 300) throw await this.statusFailure(spec, res);
      consuming = true;
      return await spec.consume(res);
    } catch (e) {
      if (e instanceof AttemptFailedError || signal.aborted) throw e;
      if (e instanceof MeasurementsError || e instanceof OutputError) throw new AttemptFailedError(e, { retry: false });
      if (consuming && e instanceof MalformedReplyError) {
        throw new AttemptFailedError(this.malformedBody(e, spec), { retry: false });
      }
      const consumeRetry = spec.retryConsumeFailure;
      const mayRepeat = !consuming || (typeof consumeRetry === 'function' ? consumeRetry() : consumeRetry !== false);
      const retry = (spec.retry === 'read' && mayRepeat) || failedBeforeSending(e);
      throw new AttemptFailedError(this.networkError(e, spec, consuming), { retry });
    }
  }

  /** A non-2xx reply as an error; 5xx and 429 with an acceptable Retry-After are worth another read. */
  private async statusFailure<T>(spec: CallSpec<T>, res: ResponseInfo): Promise<AttemptFailedError> {
    const bodyText = await readLimited(res.body, MAX_ERROR_BODY);
    const retryAfter = headerValue(res.headers, 'retry-after');
    const failure = errorFromResponse({
      status: res.status,
      method: spec.method,
      path: spec.url.pathname,
      bodyText,
      retryAfter,
      secret: this.opts.apiKey,
      operation: spec.operation,
      subject: spec.subject,
      now: nowDate(this.opts.clock),
    });
    // 5xx, and a 429 only when the server said when to come back; both wait at least its Retry-After.
    const retryable =
      spec.retry === 'read' && (res.status >= 500 || (res.status === 429 && failure.retryAfterSeconds !== undefined));
    return new AttemptFailedError(failure, { retry: retryable, retryAfterMs: retryAfterMs(failure) });
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
            'SERVER_ERROR',
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
          throw new MeasurementsError('SERVER_ERROR', `Refusing a redirect to a ${url.protocol} URL.`, {
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
    const where = `${spec.url.origin} (${spec.method} ${spec.url.pathname})`;
    const options = { method: spec.method, path: spec.url.pathname };
    if (e instanceof IncompleteReplyError || (duringBody && isIncompleteFraming(e))) {
      const detail = redact(e instanceof Error ? e.message : String(e), this.opts.apiKey);
      return new MeasurementsError(
        'NETWORK',
        `The reply from ${where} ended before it was complete: ${detail}.`,
        options,
      );
    }
    const code = transportErrorCode(e);
    const detail = redact(code ?? (e instanceof Error ? e.message : String(e)), this.opts.apiKey);
    return new MeasurementsError(
      'NETWORK',
      duringBody
        ? `The connection to ${where} broke while reading the reply: ${detail}. Try again.`
        : `Could not reach ${where}: ${detail}. Check the URL and your network.`,
      options,
    );
  }

  /** A body that arrived whole but cannot be read (malformed CSV): the service's fault, not worth a retry. */
  private malformedBody<T>(e: unknown, spec: CallSpec<T>): MeasurementsError {
    const detail = redact(e instanceof Error ? e.message : String(e), this.opts.apiKey).slice(0, 200);
    return new MeasurementsError(
      'SERVER_ERROR',
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
