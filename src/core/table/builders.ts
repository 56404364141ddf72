// Column builders: append cells as text, end with a compact Column. Growable typed arrays, one
// dictionary per text column, so parsing allocates per distinct value, not per row.

import type { MetricLabelParts } from '../metrics/labels';
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

function grow<T extends Float64Array | Int32Array>(arr: T, needed: number): T {
  if (needed <= arr.length) return arr;
  let cap = arr.length || INITIAL_CAPACITY;
  while (cap < needed) cap *= 2;
  const next = new (arr.constructor as { new (n: number): T })(cap);
  next.set(arr);
  return next;
}

function withMeta<T extends Column>(meta: ColumnMeta, column: T): T {
  if (meta.canonical !== undefined) column.canonical = meta.canonical;
  if (meta.metric !== undefined) column.metric = meta.metric;
  return column;
}

export class NumberBuilder implements ColumnBuilder {
  readonly kind = 'number' as const;
  private values = new Float64Array(INITIAL_CAPACITY);
  length = 0;

  push(cell: string): boolean {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1);
    if (cell === '') {
      this.values[this.length++] = Number.NaN;
      return true;
    }
    const v = +cell;
    if (Number.isNaN(v) && cell.trim() !== 'NaN') return false; // not a number: demote
    this.values[this.length++] = v;
    return true;
  }

  pushNumber(v: number): void {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1);
    this.values[this.length++] = v;
  }

  pushEmpty(count: number): void {
    this.values = grow(this.values, this.length + count);
    this.values.fill(Number.NaN, this.length, this.length + count);
    this.length += count;
  }

  texts(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = Number.isNaN(this.values[i]) ? '' : String(this.values[i]);
    return out;
  }

  finish(meta: ColumnMeta): NumericColumn {
    return withMeta(meta, { name: meta.name, kind: 'number', values: this.values.slice(0, this.length) });
  }
}

/** ISO 8601 timestamps -> epoch ms; a cache makes repeated times (one per datasource) cost a lookup. */
export class TimeBuilder implements ColumnBuilder {
  readonly kind = 'time' as const;
  private values = new Float64Array(INITIAL_CAPACITY);
  private cache = new Map<string, number>();
  length = 0;

  push(cell: string): boolean {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1);
    if (cell === '') {
      this.values[this.length++] = Number.NaN;
      return true;
    }
    let t = this.cache.get(cell);
    if (t === undefined) {
      t = Date.parse(cell);
      if (Number.isNaN(t)) return false;
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(cell, t);
    }
    this.values[this.length++] = t;
    return true;
  }

  pushTime(t: number): void {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1);
    this.values[this.length++] = t;
  }

  pushEmpty(count: number): void {
    this.values = grow(this.values, this.length + count);
    this.values.fill(Number.NaN, this.length, this.length + count);
    this.length += count;
  }

  texts(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < this.length; i++)
      out[i] = Number.isNaN(this.values[i]) ? '' : new Date(this.values[i]).toISOString();
    return out;
  }

  finish(meta: ColumnMeta): NumericColumn {
    return withMeta(meta, { name: meta.name, kind: 'time', values: this.values.slice(0, this.length) });
  }
}

export class DictBuilder implements ColumnBuilder {
  private codes = new Int32Array(INITIAL_CAPACITY);
  private readonly index = new Map<string, number>();
  readonly dict: string[] = [];
  length = 0;

  constructor(readonly kind: DictColumn['kind']) {}

  push(cell: string): boolean {
    if (this.length === this.codes.length) this.codes = grow(this.codes, this.length + 1);
    if (cell === '') {
      this.codes[this.length++] = -1;
      return true;
    }
    let code = this.index.get(cell);
    if (code === undefined) {
      code = this.dict.length;
      this.dict.push(cell);
      this.index.set(cell, code);
    }
    this.codes[this.length++] = code;
    return true;
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

  /** A number column when every distinct value is a number (unknown headers holding numbers). */
  finishInferred(meta: ColumnMeta): Column {
    if (this.dict.length > 0 && this.dict.every((d) => d.trim() !== '' && !Number.isNaN(+d))) {
      const nums = this.dict.map(Number);
      const values = new Float64Array(this.length);
      for (let i = 0; i < this.length; i++) values[i] = this.codes[i] < 0 ? Number.NaN : nums[this.codes[i]];
      return withMeta(meta, { name: meta.name, kind: 'number', values });
    }
    return this.finish(meta);
  }

  finish(meta: ColumnMeta): DictColumn {
    return withMeta(meta, {
      name: meta.name,
      kind: this.kind,
      dict: this.dict,
      codes: this.codes.slice(0, this.length),
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
      codes: this.codes.slice(0, this.length),
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
