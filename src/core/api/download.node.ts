// Streaming a report file to a file or a stream: bounded memory, gzip decoded, never with the API key.

import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipIfGzipped } from './gzip.node';

export interface DownloadResult {
  /** Bytes written after decoding. */
  bytes: number;
  /** The file written, when the destination was a path. */
  path?: string;
}

/**
 * Pipes a (transfer-decoded) body into dest, gunzipping .csv.gz content. A path destination is written
 * to `<path>.part` and renamed when complete, so a failed download never leaves a plausible-looking file.
 */
export async function writeBody(
  body: NodeJS.ReadableStream,
  dest: string | Writable,
  signal: AbortSignal,
): Promise<DownloadResult> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  if (typeof dest !== 'string') {
    await pipeline(body, gunzipIfGzipped(), counter, dest, { signal });
    return { bytes };
  }
  const part = `${dest}.part`;
  try {
    await pipeline(body, gunzipIfGzipped(), counter, createWriteStream(part), { signal });
    await rename(part, dest);
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
  return { bytes, path: dest };
}
