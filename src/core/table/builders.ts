// Column builders: append cells as text, end with a compact Column. Growable typed arrays (numbers from
// csv text as exact scaled Int16 or Int32 decimals), one dictionary per text column, so parsing allocates per
// distinct value, not per row.

import type { MetricLabelParts } from '../metrics/labels';
import { isoToMs } from '../time/iso';
import {
  DECIMAL_EMPTY,
  DECIMAL_MAX,
  DECIMAL_POW10,
  DECIMAL16_EMPTY,
  DECIMAL16_MAX,
  type DecimalInts,
  type DecimalParts,
  decimalAt,
  isPlainNumber,
  MAX_DECIMAL_SCALE,
  parseDecimal,
  partsValue,
  scanDecimal,
} from './decimal';
import { grow, INITIAL_CAPACITY, STAGE, StagedArray, trimTo } from './growable';
import {
  type Column,
  type ColumnKind,
  DICT16_CODES,
  type DictCodes,
  type DictColumn,
  type FlagsColumn,
  type FloatColumn,
  type NumericColumn,
  withMeta,
} from './table';

interface ColumnMeta {
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
  /** Undefined while a NumberBuilder holds decimals instead. */
  protected floats: StagedArray<Float64Array> | undefined;

  constructor(floats = true) {
    if (floats) this.floats = new StagedArray(Float64Array);
  }

  get length(): number {
    return this.floats!.length;
  }

  pushEmpty(count: number): void {
    this.floats!.fill(Number.NaN, count);
  }

  /** Each value as text ('' for an empty cell). */
  protected textsOf(text: (v: number) => string): string[] {
    return Array.from(this.floats!.view(), (v) => (Number.isNaN(v) ? '' : text(v)));
  }

  protected column(kind: 'number' | 'time', meta: ColumnMeta): FloatColumn {
    return withMeta(meta, { name: meta.name, kind, values: this.floats!.view() });
  }
}

const PARTS: DecimalParts = { m: 0, frac: 0, neg: false };

/**
 * Numbers. Built from csv text (`decimals`), a column holds exact scaled decimals (core/table/decimal) while
 * every value fits: at most 9 fraction digits and |value| × 10^scale within Int32. They start as Int16 (a
 * quarter of Float64's memory) and widen to Int32 at the first scaled value past 16 bits. The scale is the
 * most fraction digits seen so far (earlier values are rescaled in place); the first value that does not
 * fit (too many digits, an exponent, -0) turns the column to Float64, values kept. Without `decimals`
 * (values that come as doubles: JSON, Parquet) it is Float64 from the start.
 */
export class NumberBuilder extends Float64Builder implements ColumnBuilder {
  readonly kind = 'number' as const;
  // The decimal state is public for one reader: the csv-wide reader's decimal loop (decimalColumn) reads
  // cells that fit without a rescale or a widening straight into `ints`' staging array, and writes
  // `maxAbs` back; every other change goes through pushDecimal/pushNumber.
  /** The scaled integers while the column is decimal (then `floats` is undefined). */
  ints: StagedArray<DecimalInts> | undefined;
  scale = 0;
  /** The largest |scaled integer| so far (to know whether a rescale fits). */
  maxAbs = 0;
  /** The largest magnitude `ints` holds, and its empty cell: Int16's, then Int32's once widened. */
  limit = DECIMAL16_MAX;
  empty = DECIMAL16_EMPTY;

  constructor(decimals = false) {
    super(!decimals);
    if (decimals) this.ints = new StagedArray(Int16Array);
  }

  override get length(): number {
    return this.ints ? this.ints.length : super.length;
  }

  push(cell: string): boolean {
    if (cell === '') {
      this.pushNumber(Number.NaN);
      return true;
    }
    if (scanDecimal(cell, PARTS)) {
      this.pushDecimal(PARTS.m, PARTS.frac, PARTS.neg);
      return true;
    }
    const v = numberOf(cell);
    if (v === undefined) return false;
    this.pushNumber(v);
    return true;
  }

  /** A plain decimal's parts (scanDecimal's): m, an integer of at most 15 digits; frac digits after the point. */
  pushDecimal(m: number, frac: number, neg: boolean): void {
    if (this.ints) {
      if (frac > this.scale) this.rescale(frac);
      const ints = this.ints;
      if (ints) {
        const x = frac === this.scale ? m : m * DECIMAL_POW10[this.scale - frac];
        if (x <= this.limit && (x !== 0 || !neg)) {
          if (x > this.maxAbs) this.maxAbs = x;
          if (ints.staged === STAGE) ints.flush();
          ints.stage[ints.staged++] = neg ? -x : x;
          return;
        }
        if (x <= DECIMAL_MAX && x !== 0) {
          // Past 16 bits (so past every value so far): Int32 from here on.
          this.widen();
          this.maxAbs = x;
          this.ints.append(neg ? -x : x);
          return;
        }
        this.toFloats();
      }
    }
    this.floats!.append(partsValue(m, frac, neg));
  }

  /** A value as a double: NaN is an empty cell; any other turns a decimal column to Float64. */
  pushNumber(v: number): void {
    if (this.ints) {
      if (Number.isNaN(v)) {
        const ints = this.ints;
        if (ints.staged === STAGE) ints.flush();
        ints.stage[ints.staged++] = this.empty;
        return;
      }
      this.toFloats();
    }
    this.floats!.append(v);
  }

  override pushEmpty(count: number): void {
    if (this.ints) this.ints.fill(this.empty, count);
    else super.pushEmpty(count);
  }

  texts(): string[] {
    if (!this.ints) return this.textsOf(String);
    const ints = this.ints.view();
    const scale = this.scale;
    return Array.from(ints, (_, i) => {
      const v = decimalAt(ints, i, scale);
      return Number.isNaN(v) ? '' : String(v);
    });
  }

  finish(meta: ColumnMeta): NumericColumn {
    if (!this.ints) return this.column('number', meta);
    return withMeta(meta, { name: meta.name, kind: 'number', ints: this.ints.view(), scale: this.scale });
  }

  /** Scales every value up to `frac` fraction digits, or turns the column to Float64 when they would not fit. */
  private rescale(frac: number): void {
    const k = DECIMAL_POW10[frac - this.scale];
    if (frac > MAX_DECIMAL_SCALE || this.maxAbs * k > DECIMAL_MAX) {
      this.toFloats();
      return;
    }
    if (this.maxAbs * k > this.limit) this.widen();
    const empty = this.empty;
    if (this.maxAbs > 0) this.ints!.map((x) => (x === empty ? x : x * k));
    this.maxAbs *= k;
    this.scale = frac;
  }

  /** From Int16 to Int32: the values so far copied, empty cells marked as Int32's. */
  private widen(): void {
    const wide = new StagedArray(Int32Array);
    wide.appendAll(this.ints!.view());
    const values = wide.view();
    for (let i = 0; i < values.length; i++) if (values[i] === DECIMAL16_EMPTY) values[i] = DECIMAL_EMPTY;
    this.ints = wide;
    this.limit = DECIMAL_MAX;
    this.empty = DECIMAL_EMPTY;
  }

  /** From here on Float64: the values so far converted (exactly: the same doubles as their text). */
  private toFloats(): void {
    const ints = this.ints!.view();
    this.ints = undefined;
    const floats = new StagedArray(Float64Array);
    for (let i = 0; i < ints.length; i++) floats.append(decimalAt(ints, i, this.scale));
    this.floats = floats;
  }
}

/** ISO 8601 timestamps -> epoch ms (core/time's parser: zone-less text is UTC, never local time). */
export class TimeBuilder extends Float64Builder implements ColumnBuilder {
  readonly kind = 'time' as const;

  push(cell: string): boolean {
    const t = cell === '' ? Number.NaN : timeOf(cell);
    if (t === undefined) return false;
    this.floats!.append(t);
    return true;
  }

  pushTime(t: number): void {
    const floats = this.floats!;
    if (floats.staged === STAGE) floats.flush();
    floats.stage[floats.staged++] = t;
  }

  texts(): string[] {
    return this.textsOf((v) => new Date(v).toISOString());
  }

  finish(meta: ColumnMeta): FloatColumn {
    return this.column('time', meta);
  }
}

export class DictBuilder implements ColumnBuilder {
  /** Int16 codes while the dictionary fits them (DICT16_CODES texts), Int32 from the next text on. */
  private codes: StagedArray<DictCodes> = new StagedArray<DictCodes>(Int16Array);
  private readonly index = new Map<string, number>();
  readonly dict: string[] = [];
  // Runs of the same text (one datasource's rows, one status) skip the hash lookup.
  private lastText = '';
  /** The code of the last text pushed (not of an empty cell). */
  lastCode = -1;

  constructor(readonly kind: DictColumn['kind']) {}

  get length(): number {
    return this.codes.length;
  }

  push(cell: string): boolean {
    if (cell === '') {
      this.codes.append(-1);
      return true;
    }
    if (cell === this.lastText) {
      this.codes.append(this.lastCode);
      return true;
    }
    let code = this.index.get(cell);
    if (code === undefined) {
      code = this.dict.length;
      if (code === DICT16_CODES) this.widenCodes();
      this.dict.push(cell);
      this.index.set(cell, code);
    }
    this.lastText = cell;
    this.lastCode = code;
    this.codes.append(code);
    return true;
  }

  /** Appends a code this builder gave (lastCode after a push), or -1 for an empty cell. */
  pushCode(code: number): void {
    const codes = this.codes;
    if (codes.staged === STAGE) codes.flush();
    codes.stage[codes.staged++] = code;
  }

  pushEmpty(count: number): void {
    this.codes.fill(-1, count);
  }

  texts(): string[] {
    return Array.from(this.codes.view(), (code) => (code < 0 ? '' : this.dict[code]));
  }

  /** From Int16 to Int32 codes (the dictionary outgrew Int16): the codes so far copied, -1 kept. */
  private widenCodes(): void {
    const wide = new StagedArray<DictCodes>(Int32Array);
    wide.appendAll(this.codes.view());
    this.codes = wide;
  }

  finish(meta: ColumnMeta): DictColumn {
    return withMeta(meta, { name: meta.name, kind: this.kind, dict: this.dict, codes: this.codes.view() });
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

/**
 * An unknown csv column that holds numbers so far: only plain decimal literals count (no leading zeros,
 * spaces or hex), so ids such as "007" demote the column to text instead of becoming 7.
 */
export class InferredNumberBuilder extends NumberBuilder {
  constructor() {
    super(true);
  }

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
    if (!leadingZero && scanDecimal(cell, PARTS)) {
      this.pushDecimal(PARTS.m, PARTS.frac, PARTS.neg);
      return true;
    }
    if (!isPlainNumber(cell)) return false;
    this.pushNumber(+cell);
    return true;
  }
}

export function builderFor(kind: ColumnKind): ColumnBuilder {
  switch (kind) {
    case 'number':
      return new NumberBuilder(true);
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
