// Columns of csv-wide read by another reader of the same lines (on another thread) and handed over:
// builders named by their class (specOf), their cells as plain data (typed arrays, strings) that cross
// threads. See csv-parallel.node.ts.

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

/** A builder holding a column another builder read (its arrays taken over, not copied). */
export function adoptedBuilder(column: BlockColumn): ColumnBuilder {
  const b = builderOf(column.spec);
  if (column.values) (b as NumberBuilder | TimeBuilder).adopt(column.values);
  else if (column.flags) (b as FlagsBuilder).adopt(column.codes!, column.flags, column.keys!);
  else (b as DictBuilder).adopt(column.codes!, column.dict!);
  return b;
}

/** The typed arrays' buffers of columns, to transfer them to another thread instead of copying them. */
export function columnBuffers(columns: readonly BlockColumn[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of columns) {
    const arr = c.values ?? c.codes;
    if (arr) out.add(arr.buffer as ArrayBuffer);
  }
  return [...out];
}

/**
 * To the worker: read the columns [from, to) of the lines to come (builders of `specs`, as the reader's
 * now), starting with the cells read so far (`columns`, their buffers transferred).
 */
export interface ColumnsInit {
  type: 'init';
  specs: string[];
  from: number;
  to: number;
  strict: boolean;
  columns?: BlockColumn[];
}

/**
 * To the worker: the lines in bytes [0, length) of shared buffer `slot`; answered by a BlockDone of the
 * same id. `bytes` comes when the slot has a buffer the worker has not seen (posting a shared buffer is
 * far dearer than a number: ~3 ms a message, measured).
 */
export interface LinesBlock {
  type: 'lines';
  id: number;
  slot: number;
  length: number;
  bytes?: SharedArrayBuffer;
}

/** To the worker: no more lines; answered by its columns (their buffers transferred). */
export interface ColumnsFinish {
  type: 'finish';
}

export type ToWorker = ColumnsInit | LinesBlock | ColumnsFinish;

/** From the worker: a block is read (its buffer can be reused); `failure`: the read must fail. */
export interface BlockDone {
  type: 'done';
  id: number;
  /** A strict read's row of another width (IncompleteReplyError's message). */
  incomplete?: string;
  /** Anything else that went wrong. */
  error?: string;
}

export interface ColumnsDone {
  type: 'columns';
  columns: BlockColumn[];
}

export type FromWorker = 'ready' | BlockDone | ColumnsDone;
