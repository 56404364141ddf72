// Dictionary codes of short ASCII texts found by their bytes, so that a reader of bytes neither decodes
// nor hashes a repeated id as a string: an open-addressing table of the texts' hashes, with each text's
// bytes kept to compare against (a hash match alone is not a match).

/** Entries kept at most (ids, statuses: a few thousand at most); past it, texts are looked up as strings. */
const MAX_ENTRIES = 1 << 16;
const GOLDEN = 0x9e3779b1 | 0;

export class ByteCodes {
  /** Entry index + 1 per slot (0 = free); slots.length is a power of two, at least twice the entries. */
  private slots = new Int32Array(1024);
  /** 32 − log2(slots.length): a slot is the top bits of the hash times the golden ratio (Fibonacci hashing). */
  private shift = 22;
  private hashes = new Int32Array(512);
  private codes = new Int32Array(512);
  private starts = new Int32Array(513);
  private pool = new Uint8Array(8192);
  private count = 0;
  /** The entry found or added last (-1: none), for runs of the same text (a status, a source type). */
  private last = -1;
  /**
   * Per entry, the entry found right after it the last time (-1: none yet): rows that cycle through the
   * same ids in the same order (every datasource's row, minute after minute) find each id without a hash.
   */
  private after = new Int32Array(512).fill(-1);

  /** The code of the text found or added last. */
  get lastCode(): number {
    return this.codes[this.last];
  }

  /**
   * Where the cell at pos ends when it is the text found or added last (then its code is lastCode), or
   * -1: a run of one status or source type needs neither a hash nor a lookup.
   */
  matchLast(b: Uint8Array, pos: number, end: number, separator: number): number {
    if (this.last < 0) return -1;
    return this.matchEntry(this.last, b, pos, end, separator);
  }

  /**
   * Where the cell at pos ends when it is the text that came after the last one the previous time (then
   * it becomes the last one, and its code is lastCode), or -1.
   */
  matchNext(b: Uint8Array, pos: number, end: number, separator: number): number {
    if (this.last < 0) return -1;
    const e = this.after[this.last];
    if (e < 0) return -1;
    const stop = this.matchEntry(e, b, pos, end, separator);
    if (stop >= 0) this.last = e;
    return stop;
  }

  /** Where the cell at pos ends when it is entry e's text, or -1. */
  private matchEntry(e: number, b: Uint8Array, pos: number, end: number, separator: number): number {
    const start = this.starts[e];
    const len = this.starts[e + 1] - start;
    const stop = pos + len;
    if (stop > end || (stop < end && b[stop] !== separator)) return -1;
    return this.sameBytes(start, b, pos, len) ? stop : -1;
  }

  /**
   * Whether the pool's len bytes from start are the bytes of b from pos: four bytes at a time through
   * DataViews (an 8-character id in two loads, not eight), the rest one by one.
   */
  private sameBytes(start: number, b: Uint8Array, pos: number, len: number): boolean {
    let k = 0;
    if (len >= 4) {
      if (b !== this.viewed) {
        this.viewed = b;
        this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      }
      const view = this.view;
      const poolView = this.poolView;
      for (; k + 4 <= len; k += 4) if (poolView.getInt32(start + k) !== view.getInt32(pos + k)) return false;
    }
    const pool = this.pool;
    for (; k < len; k++) if (pool[start + k] !== b[pos + k]) return false;
    return true;
  }

  /** The bytes sameBytes last compared against, and a DataView of them (made once per buffer). */
  private viewed: Uint8Array | undefined;
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  private poolView = new DataView(this.pool.buffer);

  /** Entry e is the one found now: remembered as the one after the last, then as the last. */
  private found(e: number): void {
    if (this.last >= 0) this.after[this.last] = e;
    this.last = e;
  }

  /** The code of the text b[pos, end) whose hash is h, or -1 when it has not been added. */
  get(h: number, b: Uint8Array, pos: number, end: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    const len = end - pos;
    // Mixed, not masked: ids that differ in their last characters have nearby hashes, and nearby slots
    // would make long runs to probe (measured: 25% slower on 500 ids D0000000..D0000499).
    for (let i = Math.imul(h, GOLDEN) >>> this.shift; ; i = (i + 1) & mask) {
      const e = slots[i] - 1;
      if (e < 0) return -1;
      if (this.hashes[e] !== h) continue;
      const start = this.starts[e];
      if (this.starts[e + 1] - start === len && this.sameBytes(start, b, pos, len)) {
        this.found(e);
        return this.codes[e];
      }
    }
  }

  /** Remembers `code` for the text b[pos, end) (hash h); ignored once the table is full. */
  add(h: number, b: Uint8Array, pos: number, end: number, code: number): void {
    if (this.count >= MAX_ENTRIES) return;
    const e = this.count;
    if (e + 1 >= this.hashes.length) this.growEntries();
    const start = this.starts[e];
    const len = end - pos;
    if (start + len > this.pool.length) {
      const pool = new Uint8Array(Math.max(this.pool.length * 2, start + len));
      pool.set(this.pool);
      this.pool = pool;
      this.poolView = new DataView(pool.buffer);
    }
    this.pool.set(b.subarray(pos, end), start);
    this.starts[e + 1] = start + len;
    this.hashes[e] = h;
    this.codes[e] = code;
    this.found(e);
    this.count++;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(e);
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let i = Math.imul(this.hashes[e], GOLDEN) >>> this.shift;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = e + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    this.shift = 32 - Math.log2(size);
    for (let e = 0; e < this.count; e++) this.place(e);
  }

  private growEntries(): void {
    const n = this.hashes.length * 2;
    const widen = (a: Int32Array, size: number, fill = 0) => {
      const next = new Int32Array(size).fill(fill);
      next.set(a);
      return next;
    };
    this.hashes = widen(this.hashes, n);
    this.codes = widen(this.codes, n);
    this.starts = widen(this.starts, n + 1);
    this.after = widen(this.after, n, -1);
  }
}
