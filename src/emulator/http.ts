// HTTP plumbing: JSON errors, body reading, streamed (and gzip-encoded) replies with backpressure.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import type { InjectedError } from './faults';

/** An error reply: JSON {"message"} with this status (API-gateway style). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);

const MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Request body is too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) throw badRequest('Request body must be a JSON object');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The page a gateway in front of the service answers with (not the service's JSON). */
function gatewayPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`;
}

/** An injected error reply: the emulator's JSON, a gateway's HTML page or an empty body, with Retry-After if asked. */
export function sendInjectedError(res: ServerResponse, error: InjectedError): void {
  const headers: Record<string, string> = error.retryAfter === undefined ? {} : { 'retry-after': error.retryAfter };
  if (error.body === 'json') {
    sendJson(res, error.status, { message: 'Service unavailable (injected fault)' }, headers);
    return;
  }
  const text = error.body === 'html' ? gatewayPage(error.status) : '';
  res.writeHead(error.status, {
    ...(text ? { 'content-type': 'text/html' } : {}),
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  return typeof header === 'string' && /\bgzip\b/i.test(header) && !/\bgzip\s*;\s*q=0(\.0*)?\b/i.test(header);
}

/** Injected damage to a streamed body: cut the connection, or end early (a truncated gzip stream). */
export interface BodyDamage {
  kind: 'reset' | 'truncate';
  afterBytes: number;
}

class ByteLimit extends Transform {
  private sent = 0;
  constructor(
    private readonly limit: number,
    private readonly onLimit: () => void,
    /** Never end the body once the limit is reached (the connection is dropped instead). */
    private readonly holdEnd: boolean,
  ) {
    super();
  }

  override _flush(done: TransformCallback): void {
    if (this.holdEnd && this.sent >= this.limit) return; // the socket is being dropped; never end cleanly
    done();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.sent >= this.limit) {
      done();
      return;
    }
    const room = this.limit - this.sent;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.sent += part.length;
    this.push(part);
    if (this.sent >= this.limit) this.onLimit();
    done();
  }
}

interface StreamOptions {
  contentType: string;
  /**
   * negotiate: Content-Encoding gzip when the client accepts it; encoded: Content-Encoding gzip always (an
   * object store serving a gzip upload); file: the body itself is a .gz file (no Content-Encoding).
   */
  gzip: 'negotiate' | 'encoded' | 'file' | 'none';
  headers?: Record<string, string>;
  damage?: BodyDamage;
}

/** Sends generated chunks; the generator runs only as fast as the client reads. */
export async function sendStream(
  req: IncomingMessage,
  res: ServerResponse,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: StreamOptions,
): Promise<void> {
  const encoded = (options.gzip === 'negotiate' && acceptsGzip(req)) || options.gzip === 'encoded';
  const gzip = encoded || options.gzip === 'file';
  res.writeHead(200, {
    'content-type': options.contentType,
    ...(encoded ? { 'content-encoding': 'gzip' } : {}),
    vary: 'accept-encoding',
    ...options.headers,
  });
  const source = Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 });
  const stages: NodeJS.ReadWriteStream[] = [];
  if (gzip) stages.push(createGzip({ level: 1, flush: constants.Z_NO_FLUSH }));
  if (options.damage) stages.push(damageStage(res, options.damage));
  await pipeAll(source, stages, res);
}

/** Sends a reply of known length (a stored file, or only its headers when body is undefined). */
export async function sendWithLength(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  length: number,
  body: NodeJS.ReadableStream | undefined,
  damage: BodyDamage | undefined,
): Promise<void> {
  res.writeHead(status, { ...headers, 'content-length': String(length) });
  if (!body) {
    res.end();
    return;
  }
  await pipeAll(body, damage ? [damageStage(res, damage)] : [], res);
}

async function pipeAll(source: NodeJS.ReadableStream, stages: NodeJS.ReadWriteStream[], res: ServerResponse) {
  try {
    await pipeline([source, ...stages, res] as unknown as NodeJS.ReadWriteStream[]);
  } catch {
    // The client went away (or a reset was injected): nothing more to send.
    res.destroy();
  }
}

/** The stage that damages a body as injected: cut the connection, or end early. */
function damageStage(res: ServerResponse, damage: BodyDamage): ByteLimit {
  const limit: ByteLimit = new ByteLimit(
    damage.afterBytes,
    () => {
      if (damage.kind === 'truncate') {
        // A clean end of an incomplete body: a gzip stream cut short.
        limit.push(null);
        return;
      }
      // Drop the connection once the bytes sent so far have been flushed (the body stays incomplete).
      setImmediate(() => {
        const socket = res.socket;
        socket?.end(() => socket.destroy());
      });
    },
    damage.kind === 'reset',
  );
  return limit;
}
