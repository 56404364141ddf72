// Replies cut short on the wire, for tests of incomplete-reply detection.
import { constants, createGzip } from 'node:zlib';

/** The gzip of text flushed to its end but without the gzip trailer: what a cut compressed reply looks like. */
export async function gzipWithoutTrailer(text: string): Promise<Buffer> {
  const gz = createGzip();
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  gz.write(text);
  await new Promise<void>((r) => gz.flush(constants.Z_SYNC_FLUSH, () => r()));
  gz.destroy();
  return Buffer.concat(out);
}
