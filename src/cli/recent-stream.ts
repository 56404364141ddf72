// `measnb query --csv` of a csv-wide cell: the service's CSV bytes go straight to stdout (or a file),
// streamed with backpressure: no Table, no per-row objects, so it keeps pace with curl.
// The field rules, paths, header names and error mapping are the core's; only the byte pump is here.
import type { Writable } from 'node:stream';
import { errorFromResponse, MeasurementsError, redact } from '../core/api/errors';
import { API_KEY_HEADER, CONTINUATION_TOKEN_HEADER, PATHS } from '../core/api/paths';
import { transportErrorCode } from '../core/api/retry';
import type { RecentQueryRequest } from '../core/api/types';
import { type ResponseData, request } from '../core/api/undici-request.node';
import { describeIssues, validateRecentQuery } from '../core/api/validate';

export interface StreamConnection {
  baseUrl: string;
  apiKey?: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

async function readSome(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** Runs a csv-wide recent query and writes the body to dest as it arrives; returns the bytes written. */
export async function streamRecentCsv(
  conn: StreamConnection,
  req: RecentQueryRequest,
  dest: Writable,
  signal?: AbortSignal,
): Promise<{ bytes: number; continuationToken?: string }> {
  const issues = validateRecentQuery(req);
  if (issues.length) {
    throw new MeasurementsError(
      'invalid-request',
      `Invalid recent query: ${describeIssues(issues)}. Nothing was sent.`,
      {
        issues,
      },
    );
  }
  const base = new URL(conn.baseUrl);
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${PATHS.recentQuery}`;
  url.search = '';
  const headers: Record<string, string> = {
    accept: 'text/csv, application/json;q=0.5',
    'content-type': 'application/json',
    'user-agent': 'measnb',
  };
  // Compression pays over a network; on the loopback it only costs CPU on both ends.
  if (!LOOPBACK.has(url.hostname)) headers['accept-encoding'] = 'gzip';
  if (conn.apiKey) headers[API_KEY_HEADER] = conn.apiKey;
  const path = url.pathname;
  let res: ResponseData;
  try {
    // undici does not follow redirects here, so the key never leaves the base URL's origin.
    res = await request(url, { method: 'POST', headers, body: JSON.stringify(req), signal });
  } catch (e) {
    if (signal?.aborted) throw new MeasurementsError('cancelled', `Cancelled: POST ${path}.`);
    const detail = redact(transportErrorCode(e) ?? (e instanceof Error ? e.message : String(e)), conn.apiKey);
    throw new MeasurementsError(
      'network',
      `Could not reach ${url.origin} (POST ${path}): ${detail}. Check the URL and your network.`,
      { method: 'POST', path },
    );
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const bodyText = await readSome(res.body as AsyncIterable<Buffer>, 64 * 1024);
    const retryAfter = res.headers['retry-after'];
    throw errorFromResponse({
      status: res.statusCode,
      method: 'POST',
      path,
      bodyText,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      secret: conn.apiKey,
      operation: 'recentQuery',
    });
  }
  const token = res.headers[CONTINUATION_TOKEN_HEADER];
  const encoding = String(res.headers['content-encoding'] ?? '');
  let body: AsyncIterable<Buffer> = res.body as AsyncIterable<Buffer>;
  if (/gzip/i.test(encoding)) {
    const { createGunzip } = await import('node:zlib');
    body = (res.body as unknown as NodeJS.ReadableStream).pipe(createGunzip()) as unknown as AsyncIterable<Buffer>;
  }
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (!dest.write(chunk)) {
        await new Promise<void>((resolve, reject) => {
          const onError = (err: Error) => reject(err);
          dest.once('error', onError);
          dest.once('drain', () => {
            dest.off('error', onError);
            resolve();
          });
        });
      }
    }
  } catch (e) {
    if (signal?.aborted) throw new MeasurementsError('cancelled', `Cancelled: POST ${path}.`);
    if (e instanceof MeasurementsError) throw e;
    const detail = redact(transportErrorCode(e) ?? (e instanceof Error ? e.message : String(e)), conn.apiKey);
    throw new MeasurementsError('network', `The reply from ${url.origin} broke off after ${bytes} bytes: ${detail}.`, {
      method: 'POST',
      path,
    });
  }
  return { bytes, continuationToken: Array.isArray(token) ? token[0] : token };
}
