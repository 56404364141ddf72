// Typed errors of the measurements client: the one home of the HTTP status -> error mapping.
// Messages say what a user can do next. They never contain the API key: server text is redacted
// before it is stored, and no raw transport error (which could hold request headers) is attached.

import { parseRetryAfter } from '../time/backoff';
import { DAILY_REPORT_LIMIT } from './paths';
import type { ValidationIssue } from './validate';

export const ERROR_CODES = [
  'invalid-request',
  'quota-exceeded',
  'unauthorized',
  'forbidden',
  'bad-request',
  'not-found',
  'token-rejected',
  'server-error',
  'network',
  'timeout',
  'cancelled',
] as const;
export type MeasurementsErrorCode = (typeof ERROR_CODES)[number];

export interface MeasurementsErrorOptions {
  status?: number;
  /** The server's own message (redacted), when it sent one. */
  serverMessage?: string;
  /** HTTP method and path (no query string, no host) of the failed request. */
  method?: string;
  path?: string;
  /** quota-exceeded: when the daily quota resets (next UTC midnight). */
  resetAt?: Date;
  /** The server's Retry-After (any status), in seconds; absent when it sent none (core/time/backoff reads it). */
  retryAfterSeconds?: number;
  /** invalid-request: every problem found, each naming its field. */
  issues?: ValidationIssue[];
}

export class MeasurementsError extends Error {
  readonly code: MeasurementsErrorCode;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly method?: string;
  readonly path?: string;
  readonly resetAt?: Date;
  readonly retryAfterSeconds?: number;
  readonly issues?: ValidationIssue[];

  constructor(code: MeasurementsErrorCode, message: string, options: MeasurementsErrorOptions = {}) {
    super(message);
    this.name = 'MeasurementsError';
    this.code = code;
    // Only defined fields, so that inspecting the error shows nothing surprising.
    for (const [k, v] of Object.entries(options)) if (v !== undefined) Object.assign(this, { [k]: v });
  }
}

/** Errors another try may fix (network, timeout, 5xx, 429): polling loops ride them out (core/time/repeat). */
const TRANSIENT_CODES: ReadonlySet<MeasurementsErrorCode> = new Set([
  'network',
  'timeout',
  'server-error',
  'quota-exceeded',
]);

export function isTransientError(e: unknown): boolean {
  return e instanceof MeasurementsError && TRANSIENT_CODES.has(e.code);
}

export function isMeasurementsError(e: unknown, code?: MeasurementsErrorCode): e is MeasurementsError {
  return e instanceof MeasurementsError && (code === undefined || e.code === code);
}

/** The next UTC midnight after `now`: when the daily report quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * A reply that ended before it was complete although the connection closed cleanly: a body shorter than
 * its framing, a gzip stream without its trailer, a last line without its line end, a row with the wrong
 * number of fields. A transient failure: reads are retried, and nothing built from the reply is kept.
 */
export class IncompleteReplyError extends Error {
  override name = 'IncompleteReplyError';
  readonly code = 'INCOMPLETE_REPLY';
}

/**
 * A reply that arrived whole but cannot be read (malformed CSV: an unclosed quote, a stray quote): the
 * service's fault, not worth another read. Readers of bodies (core/table/csv-read.node.ts) throw it in
 * place of their parser's own errors, so the transport decides by this type, not by a parser's codes.
 */
export class MalformedReplyError extends Error {
  override name = 'MalformedReplyError';
  readonly code: 'MALFORMED_REPLY' | 'INPUT_LIMIT' = 'MALFORMED_REPLY';
}

/** Which bound of a reader an input went past (see InputLimitError). */
export type InputLimit = 'line-bytes' | 'columns' | 'gunzip-ratio';

/**
 * An input (a reply, a file) past one of the readers' bounds: a line longer than MAX_LINE_BYTES, a header
 * of more than MAX_COLUMNS columns (core/table/csv-wide-reader.ts), a gzip stream expanding past its
 * ratio (core/api/gzip.node.ts). Malformed for the transport (not worth another read); the message names
 * the limit.
 */
export class InputLimitError extends MalformedReplyError {
  override name = 'InputLimitError';
  override readonly code = 'INPUT_LIMIT';
  constructor(
    readonly limit: InputLimit,
    message: string,
  ) {
    super(message);
  }
}

/** Writing a reply into the caller's destination (stdout, a file) failed: never retried, never a network error. */
export class OutputError extends Error {
  override name = 'OutputError';
  readonly code: string | undefined;
  constructor(cause: unknown) {
    const code = (cause as { code?: unknown })?.code;
    const text = typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
    super(`Cannot write the output: ${text}.`, { cause });
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** A URL's user:password@ part replaced by ***@ wherever it appears in text (credentials are never printed). */
export function redactUserinfo(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, '$1***@');
}

/** Replaces every occurrence of the secret in text (servers sometimes echo what they got). */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 1) return text;
  return text.split(secret).join('***');
}

const MAX_SERVER_MESSAGE = 300;

/**
 * The message a server sent in an error body: `message` (API-gateway style), `Message` or `error`
 * of a JSON body; otherwise the text itself, tags stripped and shortened. Undefined when empty.
 */
export function extractServerMessage(bodyText: string): string | undefined {
  const text = bodyText.trim();
  if (!text) return undefined;
  if (text.startsWith('{')) {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      for (const k of ['message', 'Message', 'error', 'errorMessage']) {
        const v = body[k];
        if (typeof v === 'string' && v.trim()) return shorten(v.trim());
      }
    } catch {
      // not JSON after all: fall through to plain text
    }
  }
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  return plain ? shorten(plain) : undefined;
}

function shorten(s: string): string {
  return s.length > MAX_SERVER_MESSAGE ? `${s.slice(0, MAX_SERVER_MESSAGE)}…` : s;
}

export interface HttpErrorContext {
  status: number;
  method: string;
  /** Path of the request without query string. */
  path: string;
  bodyText: string;
  /** Retry-After header value, if any. */
  retryAfter?: string;
  /** The API key, only so it can be removed from server text. */
  secret?: string;
  /** Which operation failed, to phrase the message (e.g. 'getReport'). */
  operation?: string;
  /** The report id or datasource id the request was about, for not-found messages. */
  subject?: string;
  now: Date;
}

/** Maps a non-2xx response to a MeasurementsError. */
export function errorFromResponse(ctx: HttpErrorContext): MeasurementsError {
  const { now } = ctx;
  const raw = extractServerMessage(ctx.bodyText);
  const serverMessage = raw === undefined ? undefined : redact(raw, ctx.secret);
  const said = serverMessage ? `: ${serverMessage}` : '';
  const retryAfterSeconds = parseRetryAfter(ctx.retryAfter, now.getTime());
  const base = { status: ctx.status, serverMessage, method: ctx.method, path: ctx.path, retryAfterSeconds };
  const where = `${ctx.method} ${ctx.path}`;
  const { status } = ctx;

  if (status === 429) {
    const resetAt = nextUtcMidnight(now);
    const waitSeconds = retryAfterSeconds ?? Math.ceil((resetAt.getTime() - now.getTime()) / 1000);
    const message =
      ctx.operation === 'createReport'
        ? `Daily report quota exceeded (at most ${DAILY_REPORT_LIMIT} reports per org per UTC day). It resets at ${resetAt.toISOString()} (UTC midnight); no report was created.`
        : `Too many requests (429) for ${where}; try again in ${waitSeconds} s. Report quota resets at ${resetAt.toISOString()} (UTC midnight).`;
    return new MeasurementsError('quota-exceeded', message, { ...base, resetAt });
  }
  if (status === 401) {
    return new MeasurementsError(
      'unauthorized',
      `The service did not accept the API key (401 Unauthorized)${said}. Check the key stored for this connection.`,
      base,
    );
  }
  if (status === 403) {
    return new MeasurementsError(
      'forbidden',
      `Access denied (403 Forbidden)${said}. The API key may be wrong, or it has no access to this org or resource; check the key and the org of the connection.`,
      base,
    );
  }
  if (status === 404) {
    const what =
      ctx.operation === 'getReport' && ctx.subject
        ? `Report ${ctx.subject} was not found (404); it may belong to another org or connection`
        : ctx.operation === 'getDatasource' && ctx.subject
          ? `Datasource ${ctx.subject} was not found (404)`
          : `Not found (404): ${where}`;
    return new MeasurementsError('not-found', `${what}${said}.`, base);
  }
  if (status === 400 && ctx.operation === 'continueQuery' && /continuationtoken/i.test(serverMessage ?? '')) {
    return new MeasurementsError(
      'token-rejected',
      `The continuation token was rejected${said}. Tokens are valid for 24 hours; run a new recent query to get a fresh one.`,
      base,
    );
  }
  if (status >= 400 && status < 500) {
    return new MeasurementsError('bad-request', `The service rejected the request (${status})${said}.`, base);
  }
  return new MeasurementsError(
    'server-error',
    `The service failed (HTTP ${status}) on ${where}${said}. This is usually temporary; try again later.`,
    base,
  );
}
