// Growable typed arrays for column builders: grown in place in a resizable ArrayBuffer past 64K
// elements, trimmed to a view at the end, and written through a small staging array.

export const INITIAL_CAPACITY = 1024;

/** ES2024's resizable ArrayBuffer (not in this project's lib yet). */
interface ResizableBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

type GrowableArray = Float64Array | Int32Array | Int16Array;
type ArrayCtor<T> = { new (buffer: ArrayBuffer, byteOffset?: number, length?: number): T; new (n: number): T };

/**
 * From this many elements on, columns grow in place inside a resizable ArrayBuffer (address space
 * reserved, memory committed as it grows) instead of doubling into a new array: no copy of the column
 * per doubling, and no old arrays waiting for the collector at the peak (measured on a 96 MB recent
 * query: 149 ms of copying, ~35 MB of peak RSS). Below it, plain arrays (most tables are small).
 */
const IN_PLACE_FROM = 64 * 1024;
/** Bytes reserved per column in place; a column that outgrows it moves once into a reservation 8× larger. */
const RESERVE_BYTES = 64 * 1024 * 1024;

const canResize = typeof (ArrayBuffer.prototype as Partial<ResizableBuffer>).resize === 'function';

function resizable(buffer: ArrayBufferLike): ResizableBuffer | undefined {
  const b = buffer as ResizableBuffer;
  return b.resizable ? b : undefined;
}

/** A length-tracking view over a fresh resizable buffer holding arr; undefined when the engine cannot. */
function inPlaceCopy<T extends GrowableArray>(arr: T, bytes: number, reserve: number): T | undefined {
  if (!canResize) return undefined;
  let buffer: ResizableBuffer;
  try {
    buffer = new (ArrayBuffer as unknown as { new (n: number, o: { maxByteLength: number }): ResizableBuffer })(bytes, {
      maxByteLength: reserve,
    });
  } catch {
    return undefined; // no address space for the reservation: plain arrays
  }
  const next = new (arr.constructor as ArrayCtor<T>)(buffer);
  next.set(arr);
  return next;
}

/** arr with room for `needed` elements: grown in place when it can be, else a doubled copy. */
export function grow<T extends GrowableArray>(arr: T, needed: number): T {
  if (needed <= arr.length) return arr;
  let cap = arr.length || INITIAL_CAPACITY;
  while (cap < needed) cap *= 2;
  const bytes = cap * arr.BYTES_PER_ELEMENT;
  const buffer = resizable(arr.buffer);
  if (buffer && bytes <= buffer.maxByteLength) {
    buffer.resize(bytes); // arr tracks the buffer's length
    return arr;
  }
  if (buffer || cap >= IN_PLACE_FROM) {
    const reserve = buffer ? buffer.maxByteLength * 8 : Math.max(RESERVE_BYTES, bytes);
    const next = inPlaceCopy(arr, bytes, Math.max(reserve, bytes));
    if (next) return next;
  }
  const next = new (arr.constructor as ArrayCtor<T>)(cap);
  next.set(arr);
  return next;
}

/**
 * The first `length` elements, as a view (never a copy). A compact copy of every column at the end of a
 * parse would hold the table twice until the grown arrays are collected (measured on a 96 MB recent
 * query: 350 MB peak RSS with copies, 263 MB with views). The view leaves the unused tail of the last
 * growth: reserved address space for a column grown in place (shrinking it costs more than it gives: V8
 * clears what it gives back), at most the size of the values after a doubling, and pages never written
 * are not backed by memory either way.
 */
export function trimTo<T extends GrowableArray>(arr: T, length: number): T {
  return new (arr.constructor as ArrayCtor<T>)(arr.buffer as ArrayBuffer, arr.byteOffset, length);
}

/**
 * Values per flush from the staging array into the column. V8 (node 20) writes one element into a typed
 * array over a resizable buffer ~1.5-2× slower than into a plain one (16 M writes: 300-390 ms vs 170-215
 * ms), and columns past 64K rows live in resizable buffers (see IN_PLACE_FROM): cells go to a small plain
 * array first and reach the column a block at a time (one copy; the column itself still grows in place).
 */
export const STAGE = 2048;

/**
 * A growing Float64Array, Int32Array or Int16Array written one value at a time: values go to a small plain staging
 * array and reach the column STAGE at a time (see STAGE). The staging array is a Float64Array for a Float64
 * column and an Int32Array for any other (an Int16 column's values are converted as they are flushed), so
 * that a builder's hot path stores into one element type only. Builders append in their own methods
 * (`if (s.staged === STAGE) s.flush(); s.stage[s.staged++] = v`) rather than through append(): V8 keeps
 * one store site's type feedback per function, and append() shared by every column saw Int16, Int32 and
 * Float64 stages at once (a polymorphic store on every cell).
 */
export class StagedArray<T extends GrowableArray> {
  private values: T;
  /** Values in `values`; the next `staged` ones are still in `stage`. */
  private stored = 0;
  readonly stage: Float64Array | Int32Array;
  staged = 0;

  constructor(ctor: ArrayCtor<T>) {
    this.values = new ctor(INITIAL_CAPACITY);
    this.stage = ctor === (Float64Array as unknown) ? new Float64Array(STAGE) : new Int32Array(STAGE);
  }

  get length(): number {
    return this.stored + this.staged;
  }

  append(v: number): void {
    if (this.staged === STAGE) this.flush();
    this.stage[this.staged++] = v;
  }

  /** Appends `count` copies of v. */
  fill(v: number, count: number): void {
    this.flush();
    this.values = grow(this.values, this.stored + count);
    this.values.fill(v, this.stored, this.stored + count);
    this.stored += count;
  }

  /** Appends every value of `from` (converted to this array's type, as TypedArray.set does). */
  appendAll(from: GrowableArray): void {
    this.flush();
    this.values = grow(this.values, this.stored + from.length);
    this.values.set(from, this.stored);
    this.stored += from.length;
  }

  /** Every value, as a view (staged values flushed first). */
  view(): T {
    this.flush();
    return trimTo(this.values, this.stored);
  }

  /** Replaces every value v with f(v), in place. */
  map(f: (v: number) => number): void {
    const all = this.view();
    for (let i = 0; i < all.length; i++) all[i] = f(all[i]);
  }

  /** The staged values into the column. */
  flush(): void {
    if (this.staged === 0) return;
    this.values = grow(this.values, this.stored + this.staged);
    this.values.set(this.staged === STAGE ? this.stage : this.stage.subarray(0, this.staged), this.stored);
    this.stored += this.staged;
    this.staged = 0;
  }
}
