// Snappy block compression (the raw format Parquet's SNAPPY codec holds) into one reused output buffer.
// Adapted from snappyjs (MIT, © 2016 Zhipeng Jia, https://github.com/zhipeng-jia/snappyjs) as
// hyparquet-writer carries it (src/snappy.js): the same matching, but bytes are stored straight into a
// Uint8Array sized for the worst case, where hyparquet-writer's version grows a fresh ByteWriter per page
// from 1 KB (each page left ~2× its size of garbage) and writes every byte through a DataView call.

const MAX_HASH_BITS = 14;
const MAX_OFFSET = 0xffff;
const INPUT_MARGIN = 15;

const load32 = (a: Uint8Array, i: number): number => a[i] | (a[i + 1] << 8) | (a[i + 2] << 16) | (a[i + 3] << 24);

/** Compresses with snappy; the result is a view of a buffer reused by the next call. */
export class SnappyCompressor {
  private out = new Uint8Array(64 * 1024);
  private readonly tables: Array<Int32Array | undefined> = [];
  private op = 0;

  compress(input: Uint8Array): Uint8Array {
    const worst = 32 + input.length + Math.ceil(input.length / 6);
    if (this.out.length < worst) this.out = new Uint8Array(worst);
    this.op = 0;
    let n = input.length;
    // The uncompressed length as a varint.
    while (n >= 0x80) {
      this.out[this.op++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.out[this.op++] = n;
    const nextEmit = input.length >= INPUT_MARGIN ? this.matchAll(input) : 0;
    if (nextEmit < input.length) this.literal(input, nextEmit, input.length - nextEmit);
    return this.out.subarray(0, this.op);
  }

  private tableFor(size: number): { table: Int32Array; shift: number } {
    let bits = 1;
    while (1 << bits <= size && bits <= MAX_HASH_BITS) bits++;
    bits--;
    let table = this.tables[bits];
    if (!table) {
      table = new Int32Array(1 << bits);
      this.tables[bits] = table;
    } else table.fill(0);
    return { table, shift: 32 - bits };
  }

  /** Emits literals and copies up to the last match; returns where the trailing literal starts. */
  private matchAll(input: Uint8Array): number {
    const { table, shift } = this.tableFor(input.length);
    const end = input.length;
    const limit = end - INPUT_MARGIN;
    let nextEmit = 0;
    let ip = 1;
    let nextHash = Math.imul(load32(input, ip), 0x1e35a7bd) >>> shift;
    for (;;) {
      let skip = 32;
      let nextIp = ip;
      let candidate = 0;
      do {
        ip = nextIp;
        const hash = nextHash;
        nextIp = ip + (skip++ >>> 5);
        if (ip > limit) return nextEmit;
        nextHash = Math.imul(load32(input, nextIp), 0x1e35a7bd) >>> shift;
        candidate = table[hash];
        table[hash] = ip;
      } while (ip - candidate > MAX_OFFSET || load32(input, ip) !== load32(input, candidate));
      this.literal(input, nextEmit, ip - nextEmit);
      do {
        const base = ip;
        let matched = 4;
        while (ip + matched < end && input[ip + matched] === input[candidate + matched]) matched++;
        ip += matched;
        this.copy(base - candidate, matched);
        nextEmit = ip;
        if (ip >= limit) return nextEmit;
        table[Math.imul(load32(input, ip - 1), 0x1e35a7bd) >>> shift] = ip - 1;
        const cur = Math.imul(load32(input, ip), 0x1e35a7bd) >>> shift;
        candidate = table[cur];
        table[cur] = ip;
      } while (ip - candidate <= MAX_OFFSET && load32(input, ip) === load32(input, candidate));
      ip++;
      nextHash = Math.imul(load32(input, ip), 0x1e35a7bd) >>> shift;
    }
  }

  private literal(input: Uint8Array, from: number, len: number): void {
    const out = this.out;
    if (len <= 60) out[this.op++] = (len - 1) << 2;
    else {
      const v = len - 1;
      const bytes = v < 0x100 ? 1 : v < 0x10000 ? 2 : v < 0x1000000 ? 3 : 4;
      out[this.op++] = (59 + bytes) << 2;
      for (let i = 0; i < bytes; i++) out[this.op++] = (v >>> (i * 8)) & 0xff;
    }
    // Short literals byte by byte: a subarray view per literal was most of a conversion's garbage.
    if (len < 64) for (let i = 0; i < len; i++) out[this.op + i] = input[from + i];
    else out.set(input.subarray(from, from + len), this.op);
    this.op += len;
  }

  private copy(offset: number, len: number): void {
    while (len >= 68) {
      this.copyUnder64(offset, 64);
      len -= 64;
    }
    if (len > 64) {
      this.copyUnder64(offset, 60);
      len -= 60;
    }
    this.copyUnder64(offset, len);
  }

  private copyUnder64(offset: number, len: number): void {
    const out = this.out;
    if (len < 12 && offset < 2048) {
      out[this.op++] = 1 + ((len - 4) << 2) + ((offset >>> 8) << 5);
      out[this.op++] = offset & 0xff;
    } else {
      out[this.op++] = 2 + ((len - 1) << 2);
      out[this.op++] = offset & 0xff;
      out[this.op++] = offset >>> 8;
    }
  }
}
