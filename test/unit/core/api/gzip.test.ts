import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { gunzipIfGzipped } from '../../../../src/core/api/gzip.node';

async function collect(input: Buffer[], chunk?: number): Promise<Buffer> {
  const pieces = chunk ? input.flatMap((b) => split(b, chunk)) : input;
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(pieces),
    gunzipIfGzipped(),
    new Writable({
      write(c, _e, cb) {
        out.push(c);
        cb();
      },
    }),
  );
  return Buffer.concat(out);
}

function split(b: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
}

/** Waits until `value()` stops changing (the pipeline went idle), without asserting on time. */
async function idle(value: () => number): Promise<void> {
  let last = -1;
  for (let still = 0; still < 10; ) {
    await new Promise((r) => setTimeout(r, 20));
    const v = value();
    still = v === last ? still + 1 : 0;
    last = v;
  }
}

describe('core api: gunzipIfGzipped', () => {
  it('decodes gzip (even when the magic bytes arrive split) and passes other bytes through', async () => {
    const text = Buffer.from('datasourceId,time\nD1,2026-01-01T00:00:00Z\n'.repeat(1000));
    assert.deepEqual(await collect([gzipSync(text)], 1), text);
    assert.deepEqual(await collect([gzipSync(text)]), text);
    assert.deepEqual(await collect([text], 7), text);
    assert.deepEqual(await collect([Buffer.from('x')]), Buffer.from('x'));
    assert.deepEqual(await collect([]), Buffer.alloc(0));
  });

  it('fails on a corrupt gzip body', async () => {
    const gz = gzipSync(Buffer.alloc(100_000, 'a'));
    gz.fill(0x55, 20, 60);
    await assert.rejects(collect([gz]));
  });

  it('holds back decoding while the destination is not writing (bounded memory)', async () => {
    // 64 MB of zeros is ~64 KB of gzip, one network-sized chunk: without backpressure on zlib's output
    // the whole 64 MB would be decoded into memory.
    const decoded = 64 * 1024 * 1024;
    const source = Readable.from([gzipSync(Buffer.alloc(decoded))]);
    const gunzip = gunzipIfGzipped();
    let received = 0;
    const stalled = new Writable({
      highWaterMark: 64 * 1024,
      write(c: Buffer, _e, _cb) {
        received += c.length; // never calls back: a destination that stopped writing
      },
    });
    source.pipe(gunzip).pipe(stalled);
    await idle(() => received + gunzip.readableLength + stalled.writableLength);
    const buffered = received + gunzip.readableLength + stalled.writableLength;
    assert.ok(buffered < 8 * 1024 * 1024, `${buffered} decoded bytes held while the destination stalled`);
    source.destroy();
    gunzip.destroy();
    stalled.destroy();
  });
});
