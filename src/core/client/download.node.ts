// Streaming a report file to a file or a stream: bounded memory, gzip decoded, never with the API key.

import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipIfGzipped } from '../io/gzip.node';
import { writeViaPart } from '../io/part-file.node';

export interface DownloadResult {
  /** Bytes written after decoding. */
  bytes: number;
  /** The file written, when the destination was a path. */
  path?: string;
}

/**
 * Pipes a (transfer-decoded) body into dest, gunzipping .csv.gz content. A path destination is written
 * to `<path>.part` (created exclusively, never through a planted symlink) and renamed when complete, so a
 * failed download never leaves a plausible-looking file.
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
  await writeViaPart(dest, (out) => pipeline(body, gunzipIfGzipped(), counter, out, { signal }));
  return { bytes, path: dest };
}
