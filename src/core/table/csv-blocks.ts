// Blocks of csv-wide lines read apart from the rest of the body (on another thread) and merged back in
// order: a block is read into builders of the same classes as the main reader's at that point, and its
// columns are plain data (typed arrays, strings) that cross threads. See csv-parallel.node.ts.

import {
  type ColumnBuilder,
  DictBuilder,
  FlagsBuilder,
  InferredNumberBuilder,
  NumberBuilder,
  TimeBuilder,
} from './builders';
import type { DictColumn } from './table';

/** One column of a block: its builder class (specOf) and its cells. */
export interface BlockColumn {
  spec: string;
  /** number and time columns */
  values?: Float64Array;
  /** dictionary and qcFlags columns */
  codes?: Int32Array;
  dict?: string[];
  /** qcFlags: the lists, and the cell text each was read from */
  flags?: string[][];
  keys?: string[];
}

export interface BlockResult {
  rows: number;
  columns: BlockColumn[];
  /** The block's first incomplete-reply error (a row of another width in a strict read). */
  incomplete?: string;
}

/** A builder's class as text: n number, i inferred number, t time, f qcFlags, d:<kind> dictionary. */
export function specOf(b: ColumnBuilder): string {
  if (b.constructor === InferredNumberBuilder) return 'i';
  if (b.constructor === NumberBuilder) return 'n';
  if (b.constructor === TimeBuilder) return 't';
  if (b.constructor === FlagsBuilder) return 'f';
  return `d:${b.kind}`;
}

export function builderOf(spec: string): ColumnBuilder {
  switch (spec) {
    case 'i':
      return new InferredNumberBuilder();
    case 'n':
      return new NumberBuilder();
    case 't':
      return new TimeBuilder();
    case 'f':
      return new FlagsBuilder();
    default:
      return new DictBuilder(spec.slice(2) as DictColumn['kind']);
  }
}

export function blockColumn(b: ColumnBuilder): BlockColumn {
  const spec = specOf(b);
  if (b instanceof NumberBuilder || b instanceof TimeBuilder) return { spec, values: b.valuesSoFar() };
  if (b instanceof FlagsBuilder) {
    const { codes, flags, keys } = b.block();
    return { spec, codes, flags, keys };
  }
  const d = b as DictBuilder;
  return { spec, codes: d.codesSoFar(), dict: d.dict };
}

export function appendBlockColumn(b: ColumnBuilder, column: BlockColumn): void {
  if (column.values) (b as NumberBuilder | TimeBuilder).appendValues(column.values);
  else if (column.flags) (b as FlagsBuilder).appendCodes(column.codes!, column.flags, column.keys!);
  else (b as DictBuilder).appendCodes(column.codes!, column.dict!);
}

/**
 * The typed arrays' buffers of a block, to transfer it to another thread instead of copying it. A column
 * grown in place (a resizable buffer, past 64K rows) is copied first: only fixed buffers are transferred.
 */
export function blockBuffers(block: BlockResult): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of block.columns) {
    if (c.values && (c.values.buffer as { resizable?: boolean }).resizable) c.values = c.values.slice();
    if (c.codes && (c.codes.buffer as { resizable?: boolean }).resizable) c.codes = c.codes.slice();
    const arr = c.values ?? c.codes;
    if (arr) out.add(arr.buffer as ArrayBuffer);
  }
  return [...out];
}

/** To a block reader's thread: bytes [0, length) of `bytes` (transferred), read with builders of `specs`. */
export interface BlockRequest {
  id: number;
  bytes: ArrayBuffer;
  length: number;
  specs: string[];
  strict: boolean;
}

/** Back: the bytes (transferred back, for reuse) and the block, or what went wrong. */
export interface BlockReply {
  id: number;
  bytes: ArrayBuffer;
  block?: BlockResult;
  error?: string;
}
