// Gzip decoding by content, not by name: a .csv.gz file served with Content-Encoding: gzip is
// compressed twice on the wire, and a plain file may be named .gz. Sniffing the magic bytes
// decodes exactly the layers that are there.

import { Duplex } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import { InputLimitError } from '../api/errors';

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

/**
 * A stream that gunzips its input when it starts with the gzip magic bytes and passes it through otherwise.
 * Decoded bytes are pulled by the reader: a slow destination slows zlib (which holds back mid-chunk when
 * its output is not read), which slows the input, so memory stays bounded whatever the compression ratio.
 */
export function gunzipIfGzipped(): Duplex {
  return new GunzipIfGzipped();
}

/**
 * Input taken ahead of zlib. Large on purpose: undici pauses its parser whenever the body stream refuses a
 * chunk and re-copies the socket's buffered bytes on every resume, so refusing each small chunk of a
 * backpressured body costs more CPU than parsing it; with a roomy input the body pauses once per megabyte.
 */
const INPUT_BUFFER_BYTES = 1 << 20;

/**
 * Decoded bytes per zlib call. zlib's default (16 KB) costs one threadpool round trip and one stream
 * push per 16 KB: for a 100 MB body that main-thread overhead is ~3× the inflate itself (measured:
 * 0.74 s vs 0.19 s with 256 KB, bench/recent-query). Each round trip wakes the other core, which costs
 * tens of microseconds on a VM: 512 KB halves them again (recent-query body, 21 alternating runs in two
 * sets: 0.675/0.690 s with 256 KB, 0.655/0.650 s with 512 KB, the same peak RSS; 1 MB gained nothing more).
 */
const GUNZIP_CHUNK_BYTES = 512 * 1024;

/**
 * A gzip stream may expand at most this many times its compressed bytes (once past GUNZIP_FREE_BYTES):
 * beyond it, it is a bomb (1 GiB of zeros is ~1 MB of gzip, 1,030:1), not a report. Measured on csv-wide:
 * 6.5:1 for the 1 GB bench file, 24:1 for constant values, 95:1 for 300 empty columns per row.
 */
export const MAX_GUNZIP_RATIO = 250;
/**
 * Decoded bytes allowed before the ratio is checked: a small file of empty lines is no bomb, and a gzip
 * without line ends meets the line bound (16 MiB, core/table/csv-wide-reader.ts) first.
 */
export const GUNZIP_FREE_BYTES = 32 * 1024 * 1024;

class GunzipIfGzipped extends Duplex {
  constructor() {
    super({ writableHighWaterMark: INPUT_BUFFER_BYTES });
  }

  /** The first bytes until there are two to sniff; undefined once decided. */
  private head: Buffer | undefined = Buffer.alloc(0);
  private gunzip: Gunzip | undefined;
  /** The reused buffer that queued input is gathered into (see _writev). */
  private input: Buffer | undefined;
  /** Pass-through: the write waiting for the reader. */
  private pendingWrite: (() => void) | undefined;
  /** The reader asked for more and has not been refused since (push returned false). */
  private wanted = false;
  /** Bytes decoded so far (checked against the compressed bytes zlib took, once per decoded chunk). */
  private decoded = 0;

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (error?: Error | null) => void): void {
    if (this.head) {
      this.head = this.head.length ? Buffer.concat([this.head, chunk]) : chunk;
      if (this.head.length < 2) {
        cb();
        return;
      }
      chunk = this.head;
      this.head = undefined;
      if (isGzip(chunk)) this.startGunzip();
    }
    const gunzip = this.gunzip;
    if (gunzip) {
      if (gunzip.write(chunk)) cb();
      else gunzip.once('drain', () => cb());
      return;
    }
    if (this.push(chunk)) cb();
    else this.pendingWrite = () => cb();
  }

  /**
   * The input that queued while zlib was busy goes to zlib in one write, so it decodes in full output chunks.
   * Fed one network read (~64 KB) at a time, zlib makes one short output per read and the reader waits for
   * each (recent-query body, 9 alternating runs on a quiet machine: 0.78 s vs 0.83-0.84 s; peak RSS +5 to
   * +13 MiB, transient: zlib and the network run further ahead of the reader). The pieces are
   * copied into one input buffer of this stream's own, reused: a write over zlib's high-water mark waits
   * for zlib's drain, and zlib drains once it has read all of it.
   */
  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (error?: Error | null) => void): void {
    const gunzip = this.gunzip;
    if (chunks.length === 1 || this.head || !gunzip) {
      this.writeEach(chunks, 0, cb);
      return;
    }
    if (!this.input) this.input = Buffer.allocUnsafe(INPUT_BUFFER_BYTES);
    const input = this.input;
    let size = 0;
    let i = 0;
    for (; i < chunks.length && size + chunks[i].chunk.length <= input.length; i++) {
      input.set(chunks[i].chunk, size);
      size += chunks[i].chunk.length;
    }
    const next = () => (i < chunks.length ? this.writeEach(chunks, i, cb) : cb());
    if (size === 0) {
      next(); // a first piece larger than the input buffer goes as it is
      return;
    }
    if (size <= gunzip.writableHighWaterMark) {
      // Too small to wait for a drain: a copy of its own, so the input buffer is free again at once.
      this._write(Buffer.from(input.subarray(0, size)), 'binary', (e) => (e ? cb(e) : next()));
      return;
    }
    gunzip.write(input.subarray(0, size));
    gunzip.once('drain', next);
  }

  private writeEach(chunks: Array<{ chunk: Buffer }>, from: number, cb: (error?: Error | null) => void): void {
    if (from === chunks.length) {
      cb();
      return;
    }
    this._write(chunks[from].chunk, 'binary', (e) => (e ? cb(e) : this.writeEach(chunks, from + 1, cb)));
  }

  override _final(cb: (error?: Error | null) => void): void {
    if (this.head?.length) this.push(this.head);
    this.head = undefined;
    if (this.gunzip) this.gunzip.end();
    else this.push(null);
    cb();
  }

  override _read(): void {
    this.wanted = true;
    if (this.gunzip) {
      this.pump();
      return;
    }
    const resume = this.pendingWrite;
    this.pendingWrite = undefined;
    resume?.();
  }

  override _destroy(error: Error | null, cb: (error?: Error | null) => void): void {
    this.gunzip?.destroy();
    cb(error);
  }

  private startGunzip(): void {
    const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
    this.gunzip = gunzip;
    gunzip.on('readable', () => this.pump());
    gunzip.on('end', () => this.push(null));
    gunzip.on('error', (e) => this.destroy(e));
  }

  /** Moves decoded bytes out while the reader wants them; zlib pauses when its own buffer fills. */
  private pump(): void {
    const gunzip = this.gunzip!;
    let chunk: Buffer | null;
    // biome-ignore lint/suspicious/noAssignInExpressions: the stream read loop
    while (this.wanted && (chunk = gunzip.read() as Buffer | null) !== null) {
      this.decoded += chunk.length;
      if (this.decoded > GUNZIP_FREE_BYTES && this.decoded > MAX_GUNZIP_RATIO * gunzip.bytesWritten) {
        this.destroy(gunzipBomb(this.decoded, gunzip.bytesWritten));
        return;
      }
      this.wanted = this.push(chunk);
    }
  }
}

function gunzipBomb(decoded: number, compressed: number): InputLimitError {
  const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
  return new InputLimitError(
    'gunzip-ratio',
    `the gzip data expands more than ${MAX_GUNZIP_RATIO} times (${mib(compressed)} gave ${mib(decoded)} so far): refused as a gzip bomb`,
  );
}
