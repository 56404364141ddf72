// Gzip decoding by content, not by name: a .csv.gz file served with Content-Encoding: gzip is
// compressed twice on the wire, and a plain file may be named .gz. Sniffing the magic bytes
// decodes exactly the layers that are there.

import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

/** A stream that gunzips its input when it starts with the gzip magic bytes and passes it through otherwise. */
export function gunzipIfGzipped(): Transform {
  let head: Buffer | undefined = Buffer.alloc(0);
  let gunzip: Gunzip | undefined;
  let decided = false;

  const out = new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      if (decided) return forward(chunk, cb);
      head = Buffer.concat([head!, chunk]);
      if (head.length < 2) return cb();
      decide();
      const buffered = head;
      head = undefined;
      forward(buffered, cb);
    },
    flush(cb: TransformCallback) {
      if (!decided) {
        decide();
        if (head?.length) out.push(head);
        head = undefined;
      }
      if (!gunzip) return cb();
      gunzip.once('end', () => cb());
      gunzip.end();
    },
  });

  function decide(): void {
    decided = true;
    if (!isGzip(head!)) return;
    gunzip = createGunzip();
    gunzip.on('data', (d: Buffer) => out.push(d));
    gunzip.on('error', (e) => out.destroy(e));
  }

  function forward(chunk: Buffer, cb: TransformCallback): void {
    if (!gunzip) {
      cb(null, chunk);
      return;
    }
    // The write callback waits until zlib took the chunk, which bounds what sits in memory.
    gunzip.write(chunk, (err) => cb(err ?? null));
  }

  return out;
}
