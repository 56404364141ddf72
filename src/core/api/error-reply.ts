// A failed request as an error: the one home of the HTTP status -> MeasurementsError mapping, and of
// removing secrets from what a server said. Messages say what a user can do next. They never contain the
// API key: server text is redacted before it is stored, and no raw transport error (which could hold
// request headers) is attached.

import { parseRetryAfter } from '../time/backoff';
import { MeasurementsError, nextUtcMidnight } from './errors';
import { quotaReachedText } from './quota-text';

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
function extractServerMessage(bodyText: string): string | undefined {
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

interface HttpErrorContext {
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
    // The daily quota's one wording (core/api/quota-text.ts), on the client's clock.
    const quota = quotaReachedText(undefined, { resetAt, now, retryAfterSeconds });
    const message =
      ctx.operation === 'createReport'
        ? `${quota} No report was created.`
        : `Too many requests (429) for ${where}. ${quota}`;
    return new MeasurementsError('QUOTA_EXCEEDED', message, { ...base, resetAt });
  }
  if (status === 401) {
    return new MeasurementsError(
      'UNAUTHORIZED',
      `The service did not accept the API key (401 Unauthorized)${said}. Check the key stored for this connection.`,
      base,
    );
  }
  if (status === 403) {
    return new MeasurementsError(
      'FORBIDDEN',
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
    return new MeasurementsError('NOT_FOUND', `${what}${said}.`, base);
  }
  if (status === 400 && ctx.operation === 'continueQuery' && /continuationtoken/i.test(serverMessage ?? '')) {
    return new MeasurementsError(
      'TOKEN_REJECTED',
      `The continuation token was rejected${said}. Tokens are valid for 24 hours; run a new recent query to get a fresh one.`,
      base,
    );
  }
  if (status >= 400 && status < 500) {
    return new MeasurementsError('BAD_REQUEST', `The service rejected the request (${status})${said}.`, base);
  }
  return new MeasurementsError(
    'SERVER_ERROR',
    `The service failed (HTTP ${status}) on ${where}${said}. This is usually temporary; try again later.`,
    base,
  );
}
