import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { InputLimitError } from '../../../../src/core/api/errors';
import { GUNZIP_FREE_BYTES, gunzipIfGzipped, MAX_GUNZIP_RATIO } from '../../../../src/core/io/gzip.node';

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

  it('decodes every byte in order when input queues up while zlib is busy (pieces gathered into its input buffer)', async () => {
    // Text that compresses to ~4.5 MB: several input buffers' worth, written in pieces of 1 byte to 1.5 MB
    // (larger than the 1 MB input buffer too) to a reader that takes its time, so pieces queue and are
    // gathered; a reused buffer overwritten before zlib read it would corrupt the output.
    const text = Buffer.from(randomBytes(4_500_000).toString('base64'));
    const gz = gzipSync(text);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (const sizes of [
      [1, 100, 5_000, 16 * 1024, 64 * 1024], // network reads
      [1, 100, 5_000, 64 * 1024, 300_000, 1_500_000], // and pieces larger than the input buffer
    ]) {
      const pieces: Buffer[] = [];
      for (let at = 0; at < gz.length; ) {
        const size = sizes[rand(sizes.length)];
        pieces.push(gz.subarray(at, at + size));
        at += size;
      }
      // Pieces written in bursts and nothing read for a while: zlib stops with its output full and holds
      // the input it was given, while the later bursts queue up behind it.
      const gunzip = gunzipIfGzipped();
      for (let i = 0; i < pieces.length; i++) {
        gunzip.write(pieces[i]);
        if (i % 8 === 7) await new Promise((r) => setImmediate(r));
      }
      gunzip.end();
      await new Promise((r) => setTimeout(r, 50));
      const out: Buffer[] = [];
      await pipeline(
        gunzip,
        new Writable({
          highWaterMark: 16 * 1024,
          write(c, _e, cb) {
            out.push(c);
            setImmediate(cb);
          },
        }),
      );
      assert.ok(Buffer.concat(out).equals(text), `pieces of ${sizes.join(', ')} bytes`);
    }
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

  it('refuses a gzip bomb once past its free bytes (InputLimitError naming the ratio); a sparse 95:1 stream passes', async () => {
    const MiB = 1024 * 1024;
    // 1 GiB of zeros in ~1 MB: 64 gzip members of 16 MiB each (gunzip reads concatenated members).
    const member = gzipSync(Buffer.alloc(16 * MiB), { level: 9 });
    let decoded = 0;
    const sink = new Writable({
      write(c: Buffer, _e, cb) {
        decoded += c.length;
        cb();
      },
    });
    await assert.rejects(
      pipeline(Readable.from(Array.from({ length: 64 }, () => member)), gunzipIfGzipped(), sink),
      (e: unknown) => {
        assert.ok(e instanceof InputLimitError);
        assert.equal(e.code, 'INPUT_LIMIT');
        assert.equal(e.limit, 'gunzip-ratio');
        assert.match(e.message, new RegExp(`expands more than ${MAX_GUNZIP_RATIO} times`));
        return true;
      },
    );
    assert.ok(decoded <= GUNZIP_FREE_BYTES + MiB, `stopped after ${decoded} bytes`);
    // Rows of 300 empty cells (95:1), 64 MiB: a real sparse report, read whole.
    const sparse = Buffer.from(`2026-03-01T00:00:00.000Z${','.repeat(300)}\n`.repeat(4096));
    const body = gzipSync(Buffer.concat(Array.from({ length: 50 }, () => sparse)));
    assert.ok(body.length * 80 < 50 * sparse.length, 'compressed more than 80:1');
    assert.equal((await collect([body])).length, 50 * sparse.length);
  });
});
