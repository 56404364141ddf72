// The .measnb file: readable, diff-friendly JSON. Stable key order, cell source and text outputs
// as arrays of lines, binary outputs as base64, outputs over a size limit replaced by a summary.
// The one home of the format: the CLI and the extension's serializer both use it.

import { NotebookFormatError } from '../api/errors';
import { base64ToBytes, bytesToBase64 } from '../text/base64';
import {
  type CellExecution,
  type CellKind,
  MIME,
  NOTEBOOK_FORMAT,
  NOTEBOOK_VERSION,
  type Notebook,
  type NotebookCell,
  type NotebookOutput,
  type OutputItem,
  textItem,
} from './model';
import {
  checkCellMetadata,
  checkItem,
  checkNotebookMetadata,
  checkOutputMetadata,
  droppedNote,
  isReadBack,
  type ReadOptions,
} from './read-checks';
import { summarizeOutput } from './summary';

/**
 * Deepest nesting of objects and arrays a .measnb file may have (the format itself needs about ten).
 * Deeper input is refused on read: walking it recursively (sorting keys on save) would overflow the stack.
 */
export const MAX_NESTING_DEPTH = 64;

/** Throws NotebookFormatError when objects/arrays inside `value` nest deeper than MAX_NESTING_DEPTH. Iterative. */
function assertNesting(value: unknown): void {
  const stack: Array<{ v: unknown; depth: number; where: string }> = [{ v: value, depth: 1, where: '' }];
  while (stack.length) {
    const { v, depth, where } = stack.pop()!;
    if (!v || typeof v !== 'object' || ArrayBuffer.isView(v)) continue;
    if (depth > MAX_NESTING_DEPTH) {
      throw new NotebookFormatError(
        where,
        `objects and arrays are nested more than ${MAX_NESTING_DEPTH} levels deep (the limit is ${MAX_NESTING_DEPTH})`,
      );
    }
    // Where: the path of the outer levels (cells[0].metadata), enough to find it in the file.
    const arr = Array.isArray(v);
    for (const [k, child] of Object.entries(v)) {
      if (!child || typeof child !== 'object') continue;
      const at = depth > 3 ? where : arr ? `${where}[${k}]` : where ? `${where}.${k}` : k;
      stack.push({ v: child, depth: depth + 1, where: at });
    }
  }
}

/** Default bound of one saved output (all of its items together). */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

// Never written to a notebook file, wherever they appear in metadata.
const SECRET_KEY = /^(api[-_]?key|x-api-key|key|secret|password|authorization|token|continuation[-_]?token)$/i;

const TEXT_MIMES = new Set<string>([MIME.error, MIME.stdout, MIME.stderr]);

function isTextMime(mime: string): boolean {
  return mime.startsWith('text/') || mime.endsWith('json') || mime.includes('+json') || TEXT_MIMES.has(mime);
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

function toLines(text: string): string[] {
  return text.split('\n');
}

// ---------- serialize ----------

export interface SerializeOptions {
  /** Outputs bigger than this keep only a summary. Default 1 MiB. */
  outputLimitBytes?: number;
}

function sortedRecord(value: unknown, dropSecrets: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => sortedRecord(v, dropSecrets));
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      if (dropSecrets && SECRET_KEY.test(k)) continue;
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortedRecord(v, dropSecrets);
    }
    return out;
  }
  return value;
}

function withExtra(
  known: Record<string, unknown>,
  extra: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!extra) return known;
  const sorted = sortedRecord(extra, true) as Record<string, unknown>;
  for (const k of Object.keys(sorted)) if (!(k in known)) known[k] = sorted[k];
  return known;
}

function serializeItem(item: OutputItem): Record<string, unknown> {
  if (isTextMime(item.mime)) {
    try {
      return { mime: item.mime, lines: toLines(strictDecoder.decode(item.data)) };
    } catch {
      // not UTF-8 after all: fall through to base64
    }
  }
  return { mime: item.mime, base64: bytesToBase64(item.data) };
}

function outputBytes(output: NotebookOutput): number {
  return output.items.reduce((n, i) => n + i.data.byteLength, 0);
}

function serializeOutput(output: NotebookOutput, limit: number): Record<string, unknown> {
  const bounded = outputBytes(output) > limit ? summarizeOutput(output, limit) : output;
  const known: Record<string, unknown> = {};
  if (bounded.metadata && Object.keys(bounded.metadata).length) known.metadata = sortedRecord(bounded.metadata, true);
  known.items = bounded.items.map(serializeItem);
  return withExtra(known, output.extra);
}

function serializeCell(cell: NotebookCell, limit: number): Record<string, unknown> {
  const known: Record<string, unknown> = { kind: cell.kind, language: cell.language, source: toLines(cell.source) };
  if (cell.metadata && Object.keys(cell.metadata).length) known.metadata = sortedRecord(cell.metadata, true);
  if (cell.execution) {
    const e = cell.execution;
    known.execution = sortedRecord(
      { order: e.order, success: e.success, startTime: e.startTime, endTime: e.endTime },
      false,
    );
  }
  known.outputs = cell.outputs.map((o) => serializeOutput(o, limit));
  return withExtra(known, cell.extra);
}

export function serializeNotebook(nb: Notebook, options: SerializeOptions = {}): string {
  assertNesting(nb);
  const limit = options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  const metadata = sortedRecord(nb.metadata ?? {}, true) as Record<string, unknown>;
  // connection and org first: they are what a reader looks for.
  const orderedMeta: Record<string, unknown> = {};
  for (const k of ['connection', 'org']) if (k in metadata) orderedMeta[k] = metadata[k];
  for (const k of Object.keys(metadata)) if (!(k in orderedMeta)) orderedMeta[k] = metadata[k];
  const doc = withExtra(
    {
      [NOTEBOOK_FORMAT]: NOTEBOOK_VERSION,
      metadata: orderedMeta,
      cells: nb.cells.map((c) => serializeCell(c, limit)),
    },
    nb.extra,
  );
  return `${JSON.stringify(doc, null, 2)}\n`;
}

// ---------- parse ----------

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function extraOf(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (!known.includes(k)) extra[k] = o[k];
  return Object.keys(extra).length ? extra : undefined;
}

function readText(v: unknown, where: string): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((l) => typeof l === 'string')) return v.join('\n');
  throw new NotebookFormatError(where, 'expected an array of lines (strings)');
}

function parseItem(v: unknown, where: string): OutputItem {
  if (!isRecord(v) || typeof v.mime !== 'string' || !v.mime) {
    throw new NotebookFormatError(where, 'expected an output item { "mime": ..., "lines" | "base64": ... }');
  }
  if ('lines' in v) return textItem(v.mime, readText(v.lines, `${where}.lines`));
  if (typeof v.base64 === 'string') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v.base64)) throw new NotebookFormatError(`${where}.base64`, 'is not base64');
    return { mime: v.mime, data: base64ToBytes(v.base64) };
  }
  throw new NotebookFormatError(where, 'an output item needs "lines" or "base64"');
}

/** An output as read: its items of read-back types (checked), and the types of the items dropped. */
function parseOutput(v: unknown, where: string, options: ReadOptions): { output: NotebookOutput; dropped: unknown[] } {
  if (!isRecord(v)) throw new NotebookFormatError(where, 'expected an output object');
  if (!Array.isArray(v.items)) throw new NotebookFormatError(`${where}.items`, 'expected an array of output items');
  const items: OutputItem[] = [];
  const dropped: unknown[] = [];
  v.items.forEach((it, i) => {
    const mime = isRecord(it) ? it.mime : undefined;
    const item = isReadBack(mime) ? checkItem(parseItem(it, `${where}.items[${i}]`)) : undefined;
    if (item) items.push(item);
    else dropped.push(mime);
  });
  const out: NotebookOutput = { items };
  if (v.metadata !== undefined) {
    if (!isRecord(v.metadata)) throw new NotebookFormatError(`${where}.metadata`, 'expected an object');
    out.metadata = checkOutputMetadata(v.metadata, options);
  }
  const extra = extraOf(v, ['items', 'metadata']);
  if (extra) out.extra = extra;
  return { output: out, dropped };
}

/** A cell's outputs: dropped items leave a note after their output (in its place when nothing is left). */
function parseOutputs(v: unknown[], where: string, options: ReadOptions): NotebookOutput[] {
  const outputs: NotebookOutput[] = [];
  v.forEach((o, i) => {
    const { output, dropped } = parseOutput(o, `${where}[${i}]`, options);
    if (output.items.length) outputs.push(output);
    if (dropped.length) outputs.push(droppedNote(dropped));
  });
  return outputs;
}

function parseExecution(v: unknown, where: string): CellExecution {
  if (!isRecord(v)) throw new NotebookFormatError(where, 'expected an object');
  const e: CellExecution = {};
  for (const k of ['order', 'startTime', 'endTime'] as const) {
    if (v[k] === undefined) continue;
    if (typeof v[k] !== 'number') throw new NotebookFormatError(`${where}.${k}`, 'expected a number');
    e[k] = v[k] as number;
  }
  if (v.success !== undefined) {
    if (typeof v.success !== 'boolean') throw new NotebookFormatError(`${where}.success`, 'expected true or false');
    e.success = v.success;
  }
  return e;
}

function parseCellJson(v: unknown, where: string, options: ReadOptions): NotebookCell {
  if (!isRecord(v)) throw new NotebookFormatError(where, 'expected a cell object');
  const kind = v.kind ?? 'code';
  if (kind !== 'code' && kind !== 'markup') {
    throw new NotebookFormatError(`${where}.kind`, `expected "code" or "markup", got ${JSON.stringify(kind)}`);
  }
  const language = v.language ?? (kind === 'code' ? 'measq' : 'markdown');
  if (typeof language !== 'string') throw new NotebookFormatError(`${where}.language`, 'expected a string');
  const cell: NotebookCell = {
    kind: kind as CellKind,
    language,
    source: v.source === undefined ? '' : readText(v.source, `${where}.source`),
    outputs: [],
  };
  if (v.outputs !== undefined) {
    if (!Array.isArray(v.outputs)) throw new NotebookFormatError(`${where}.outputs`, 'expected an array');
    cell.outputs = parseOutputs(v.outputs, `${where}.outputs`, options);
  }
  if (v.metadata !== undefined) {
    if (!isRecord(v.metadata)) throw new NotebookFormatError(`${where}.metadata`, 'expected an object');
    cell.metadata = checkCellMetadata(v.metadata);
  }
  if (v.execution !== undefined) cell.execution = parseExecution(v.execution, `${where}.execution`);
  const extra = extraOf(v, ['kind', 'language', 'source', 'outputs', 'metadata', 'execution']);
  if (extra) cell.extra = extra;
  return cell;
}

const decoder = new TextDecoder('utf-8');

/**
 * THE reader of a .measnb file's bytes (the extension's serializer and every `measnb` command): UTF-8,
 * a leading byte order mark skipped.
 */
export function readNotebook(bytes: Uint8Array, options: ReadOptions = {}): Notebook {
  return parseNotebook(decoder.decode(bytes), options);
}

/**
 * Reads a .measnb file's text (a leading BOM skipped). An empty (or blank) file is an empty notebook. Output
 * items of types this extension does not write are dropped with a note (read-checks). Throws NotebookFormatError.
 */
export function parseNotebook(source: string, options: ReadOptions = {}): Notebook {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (text.trim() === '') return { metadata: {}, cells: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new NotebookFormatError('', `not valid JSON (${(e as Error).message})`);
  }
  assertNesting(doc);
  if (!isRecord(doc)) throw new NotebookFormatError('', 'expected a JSON object with "cells"');
  const version = doc[NOTEBOOK_FORMAT];
  if (version !== undefined && (typeof version !== 'number' || version > NOTEBOOK_VERSION)) {
    throw new NotebookFormatError(
      NOTEBOOK_FORMAT,
      `format version ${JSON.stringify(version)} is newer than this version understands (${NOTEBOOK_VERSION}); update the extension or CLI`,
    );
  }
  if (doc.metadata !== undefined && !isRecord(doc.metadata))
    throw new NotebookFormatError('metadata', 'expected an object');
  if (!Array.isArray(doc.cells)) throw new NotebookFormatError('cells', 'expected an array of cells');
  const nb: Notebook = {
    metadata: checkNotebookMetadata((doc.metadata as Record<string, unknown>) ?? {}),
    cells: doc.cells.map((c, i) => parseCellJson(c, `cells[${i}]`, options)),
  };
  const extra = extraOf(doc, [NOTEBOOK_FORMAT, 'metadata', 'cells']);
  if (extra) nb.extra = extra;
  return nb;
}
