// Column builders: append cells as text, end with a compact Column. Growable typed arrays, one
// dictionary per text column, so parsing allocates per distinct value, not per row.

import type { MetricLabelParts } from '../metrics/labels';
import { isoToMs } from '../time/iso';
import type { Column, ColumnKind, DictColumn, FlagsColumn, NumericColumn } from './table';

export interface ColumnMeta {
  name: string;
  canonical?: string;
  metric?: MetricLabelParts;
}

export interface ColumnBuilder {
  readonly kind: ColumnKind;
  /** Appends a cell at row `length`; false when the text does not fit the kind (then the caller demotes to text). */
  push(cell: string): boolean;
  /** Appends `count` empty cells. */
  pushEmpty(count: number): void;
  readonly length: number;
  /** Every cell back as text (for demotion to a text column). */
  texts(): string[];
  finish(meta: ColumnMeta): Column;
}

const INITIAL_CAPACITY = 1024;

/** ES2024's resizable ArrayBuffer (not in this project's lib yet). */
interface ResizableBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

type GrowableArray = Float64Array | Int32Array;
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

function withMeta<T extends Column>(meta: ColumnMeta, column: T): T {
  if (meta.canonical !== undefined) column.canonical = meta.canonical;
  if (meta.metric !== undefined) column.metric = meta.metric;
  return column;
}

/**
 * Values per flush from the staging array into the column. V8 (node 20) writes one element into a typed
 * array over a resizable buffer ~1.5-2× slower than into a plain one (16 M writes: 300-390 ms vs 170-215
 * ms), and columns past 64K rows live in resizable buffers (see IN_PLACE_FROM): cells go to a small plain
 * array first and reach the column a block at a time (one copy; the column itself still grows in place).
 */
const STAGE = 2048;

/** A number cell's value; undefined when the text is not a number (the text 'NaN' is one). */
function numberOf(cell: string): number | undefined {
  const v = parseDecimal(cell);
  return Number.isNaN(v) && cell.trim() !== 'NaN' ? undefined : v;
}

/** A time cell's epoch ms; undefined when the text is not an ISO 8601 time. */
function timeOf(cell: string): number | undefined {
  const t = isoToMs(cell);
  return Number.isNaN(t) ? undefined : t;
}

/** A column of float64 values, grown in place (numbers and times share it: NaN is an empty cell). */
abstract class Float64Builder {
  protected values = new Float64Array(INITIAL_CAPACITY);
  /** Values in `values`; the next `staged` ones are still in `stage`. */
  private stored = 0;
  private readonly stage = new Float64Array(STAGE);
  private staged = 0;

  get length(): number {
    return this.stored + this.staged;
  }

  protected append(v: number): void {
    if (this.staged === STAGE) this.flush();
    this.stage[this.staged++] = v;
  }

  /** The staged values into the column. */
  protected flush(): void {
    if (this.staged === 0) return;
    this.values = grow(this.values, this.stored + this.staged);
    this.values.set(this.staged === STAGE ? this.stage : this.stage.subarray(0, this.staged), this.stored);
    this.stored += this.staged;
    this.staged = 0;
  }

  /** A cell as text: '' is empty (NaN); `read` gives its value, or undefined when it does not fit (demote). */
  protected pushCell(cell: string, read: (cell: string) => number | undefined): boolean {
    const v = cell === '' ? Number.NaN : read(cell);
    if (v === undefined) return false;
    this.append(v);
    return true;
  }

  pushEmpty(count: number): void {
    this.flush();
    this.values = grow(this.values, this.stored + count);
    this.values.fill(Number.NaN, this.stored, this.stored + count);
    this.stored += count;
  }

  /** Each value as text ('' for an empty cell). */
  protected textsOf(text: (v: number) => string): string[] {
    this.flush();
    const out = new Array<string>(this.stored);
    for (let i = 0; i < this.stored; i++) out[i] = Number.isNaN(this.values[i]) ? '' : text(this.values[i]);
    return out;
  }

  protected column(kind: 'number' | 'time', meta: ColumnMeta): NumericColumn {
    this.flush();
    return withMeta(meta, { name: meta.name, kind, values: trimTo(this.values, this.stored) });
  }
}

export class NumberBuilder extends Float64Builder implements ColumnBuilder {
  readonly kind = 'number' as const;

  push(cell: string): boolean {
    return this.pushCell(cell, numberOf);
  }

  pushNumber(v: number): void {
    this.append(v);
  }

  texts(): string[] {
    return this.textsOf(String);
  }

  finish(meta: ColumnMeta): NumericColumn {
    return this.column('number', meta);
  }
}

/** ISO 8601 timestamps -> epoch ms (core/time's parser: zone-less text is UTC, never local time). */
export class TimeBuilder extends Float64Builder implements ColumnBuilder {
  readonly kind = 'time' as const;

  push(cell: string): boolean {
    return this.pushCell(cell, timeOf);
  }

  pushTime(t: number): void {
    this.append(t);
  }

  texts(): string[] {
    return this.textsOf((v) => new Date(v).toISOString());
  }

  finish(meta: ColumnMeta): NumericColumn {
    return this.column('time', meta);
  }
}

export class DictBuilder implements ColumnBuilder {
  private codes = new Int32Array(INITIAL_CAPACITY);
  private readonly index = new Map<string, number>();
  readonly dict: string[] = [];
  length = 0;
  // Runs of the same text (one datasource's rows, one status) skip the hash lookup.
  private lastText = '';
  /** The code of the last text pushed (not of an empty cell). */
  lastCode = -1;

  constructor(readonly kind: DictColumn['kind']) {}

  push(cell: string): boolean {
    if (this.length === this.codes.length) this.codes = grow(this.codes, this.length + 1);
    if (cell === '') {
      this.codes[this.length++] = -1;
      return true;
    }
    if (cell === this.lastText) {
      this.codes[this.length++] = this.lastCode;
      return true;
    }
    let code = this.index.get(cell);
    if (code === undefined) {
      code = this.dict.length;
      this.dict.push(cell);
      this.index.set(cell, code);
    }
    this.lastText = cell;
    this.lastCode = code;
    this.codes[this.length++] = code;
    return true;
  }

  /** Appends a code this builder gave (lastCode after a push), or -1 for an empty cell. */
  pushCode(code: number): void {
    if (this.length === this.codes.length) this.codes = grow(this.codes, this.length + 1);
    this.codes[this.length++] = code;
  }

  pushEmpty(count: number): void {
    this.codes = grow(this.codes, this.length + count);
    this.codes.fill(-1, this.length, this.length + count);
    this.length += count;
  }

  texts(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.codes[i] < 0 ? '' : this.dict[this.codes[i]];
    return out;
  }

  finish(meta: ColumnMeta): DictColumn {
    return withMeta(meta, {
      name: meta.name,
      kind: this.kind,
      dict: this.dict,
      codes: trimTo(this.codes, this.length),
    });
  }
}

/** qcFlags cells: JSON arrays in text, parsed once per distinct text. */
export class FlagsBuilder implements ColumnBuilder {
  readonly kind = 'qcFlags' as const;
  private codes = new Int32Array(INITIAL_CAPACITY);
  private readonly index = new Map<string, number>();
  private readonly dict: string[][] = [];
  length = 0;

  push(cell: string): boolean {
    if (cell === '') {
      this.pushCode(-1);
      return true;
    }
    let code = this.index.get(cell);
    if (code === undefined) {
      const flags = parseFlags(cell);
      if (!flags) return false;
      code = this.addFlags(flags);
      this.index.set(cell, code);
    }
    this.pushCode(code);
    return true;
  }

  /** Appends an already-parsed list (json-long); undefined = empty cell. */
  pushFlags(flags: readonly string[] | undefined): void {
    if (!flags) {
      this.pushCode(-1);
      return;
    }
    const key = JSON.stringify(flags);
    let code = this.index.get(key);
    if (code === undefined) {
      code = this.addFlags(flags.map(String));
      this.index.set(key, code);
    }
    this.pushCode(code);
  }

  private addFlags(flags: string[]): number {
    this.dict.push(flags);
    return this.dict.length - 1;
  }

  private pushCode(code: number): void {
    if (this.length === this.codes.length) this.codes = grow(this.codes, this.length + 1);
    this.codes[this.length++] = code;
  }

  pushEmpty(count: number): void {
    this.codes = grow(this.codes, this.length + count);
    this.codes.fill(-1, this.length, this.length + count);
    this.length += count;
  }

  texts(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.codes[i] < 0 ? '' : JSON.stringify(this.dict[this.codes[i]]);
    return out;
  }

  finish(meta: ColumnMeta): FlagsColumn {
    return withMeta(meta, {
      name: meta.name,
      kind: 'qcFlags',
      dict: this.dict,
      codes: trimTo(this.codes, this.length),
    });
  }
}

/** A qcFlags cell: a JSON array of strings; undefined when it is not one. */
export function parseFlags(text: string): string[] | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v) && v.every((f) => typeof f === 'string')) return v as string[];
  } catch {
    // not JSON
  }
  return undefined;
}

export const DECIMAL_POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * A number from text. Plain decimals of at most 15 digits take the exact fast path (an integer mantissa
 * divided by a power of ten: both exact, so the quotient is correctly rounded, same as `+text`);
 * everything else goes to `+text`. NaN when the text is not a number ('' too).
 */
export function parseDecimal(s: string): number {
  const v = fastDecimal(s);
  if (!Number.isNaN(v)) return v;
  return s === '' ? Number.NaN : +s;
}

/** The fast path alone: the value of a plain decimal (`-12.5`, at most 15 digits), NaN for any other text. */
export function fastDecimal(s: string): number {
  const n = s.length;
  if (n === 0 || n > 17) return Number.NaN;
  let i = 0;
  let neg = false;
  if (s.charCodeAt(0) === 45 /* - */) {
    neg = true;
    i = 1;
  }
  let m = 0;
  let digits = 0;
  let frac = -1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if (c === 46 /* . */ && frac < 0) frac = 0;
    else return Number.NaN;
  }
  if (digits === 0 || digits > 15) return Number.NaN;
  const v = frac > 0 ? m / DECIMAL_POW10[frac] : m;
  return neg ? -v : v;
}

/**
 * An unknown column that holds numbers so far: only plain decimal literals count (no leading zeros,
 * spaces or hex), so ids such as "007" demote the column to text instead of becoming 7.
 */
export class InferredNumberBuilder extends NumberBuilder {
  override push(cell: string): boolean {
    if (cell === '') {
      this.pushNumber(Number.NaN);
      return true;
    }
    const start = cell.charCodeAt(0) === 45 /* - */ ? 1 : 0;
    const leadingZero =
      cell.charCodeAt(start) === 48 &&
      start + 1 < cell.length &&
      cell.charCodeAt(start + 1) !== 46; /* "007" is an id */
    if (!leadingZero) {
      const v = fastDecimal(cell);
      if (!Number.isNaN(v)) {
        this.pushNumber(v);
        return true;
      }
    }
    if (!isPlainNumber(cell)) return false;
    this.pushNumber(+cell);
    return true;
  }
}

export function isPlainNumber(s: string): boolean {
  const n = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === 45 /* - */) {
    if (n === 1) return false;
    c = s.charCodeAt(++i);
  }
  if (c === 48 /* 0 */ && i + 1 < n && s.charCodeAt(i + 1) !== 46 /* . */) return false; // leading zero
  let digits = 0;
  let dot = false;
  for (; i < n; i++) {
    c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && !dot) dot = true;
    else if ((c === 101 || c === 69) && digits > 0) return /^[eE][+-]?\d+$/.test(s.slice(i));
    else return false;
  }
  return digits > 0;
}

export function builderFor(kind: ColumnKind): ColumnBuilder {
  switch (kind) {
    case 'number':
      return new NumberBuilder();
    case 'time':
      return new TimeBuilder();
    case 'qcFlags':
      return new FlagsBuilder();
    default:
      return new DictBuilder(kind);
  }
}

/** A text column holding the cells so far (when a cell did not fit the column's kind). */
export function demoteToText(builder: ColumnBuilder): DictBuilder {
  const text = new DictBuilder('text');
  for (const t of builder.texts()) text.push(t);
  return text;
}
