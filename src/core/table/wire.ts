// The renderer wire format (MIME `MIME.table` of core/notebook/model.ts): a small JSON header (names, kinds,
// dictionaries) then the typed-array buffers, 8-byte aligned so the decoder can view them in place.
// Decimal columns travel as their scaled Int16s or Int32s (a quarter or half the bytes) and are decoded
// to Float64 numbers; dictionary codes travel as they are, Int16 or Int32.
// decodeTable runs in the notebook webview: browser APIs only (no Buffer, no node modules).

import { TableFileError } from '../api/errors';
import { AGGREGATIONS, CORRECTION_TAGS, INDEXES, METRIC_FIELDS } from '../metrics/catalog';
import { type MetricLabelParts, quantityInfo } from '../metrics/labels';
import { decimalsToFloat64, MAX_DECIMAL_SCALE } from './decimal';
import { type Column, type ColumnKind, type DictCodes, isDecimal, isNumeric, type Table, withMeta } from './table';

const MAGIC = [0x4d, 0x4e, 0x54, 0x31]; // "MNT1"
const PRELUDE = 8; // magic + u32 header length

interface WireColumn {
  name: string;
  kind: Column['kind'];
  canonical?: string;
  metric?: Column['metric'];
  dict?: string[] | string[][];
  /** A decimal number column: value = int / 10^scale. */
  scale?: number;
  /**
   * A decimal or dictionary column's element width: 16 for Int16 (a decimal's empty cell is INT16_MIN, a
   * code's -1); absent for Int32.
   */
  bits?: 16;
  offset: number;
  length: number; // elements
}

interface WireHeader {
  rowCount: number;
  columns: WireColumn[];
}

const align8 = (n: number) => (n + 7) & ~7;

/** The header and where each column's bytes go in the data section (8-byte aligned). */
function layout(table: Table): { header: Uint8Array; buffers: Uint8Array[]; columns: WireColumn[]; dataBytes: number } {
  const buffers: Uint8Array[] = [];
  const columns: WireColumn[] = [];
  let offset = 0;
  for (const c of table.columns) {
    const data = isDecimal(c) ? c.ints : isNumeric(c) ? c.values : c.codes;
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const wc: WireColumn = { name: c.name, kind: c.kind, offset, length: data.length };
    if (isDecimal(c)) wc.scale = c.scale;
    if (data.BYTES_PER_ELEMENT === 2) wc.bits = 16;
    if (c.canonical !== undefined) wc.canonical = c.canonical;
    if (c.metric !== undefined) wc.metric = c.metric;
    if (!isNumeric(c)) wc.dict = c.dict;
    columns.push(wc);
    buffers.push(bytes);
    offset = align8(offset + bytes.length);
  }
  const header = new TextEncoder().encode(JSON.stringify({ rowCount: table.rowCount, columns } satisfies WireHeader));
  return { header, buffers, columns, dataBytes: offset };
}

/** encodeTable(table).byteLength, without making the bytes (a million rows are 100+ MB). */
export function encodedTableBytes(table: Table): number {
  const { header, dataBytes } = layout(table);
  return align8(PRELUDE + header.length) + dataBytes;
}

export function encodeTable(table: Table): Uint8Array {
  const { header, buffers, columns, dataBytes } = layout(table);
  const dataStart = align8(PRELUDE + header.length);
  const out = new Uint8Array(dataStart + dataBytes);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, header.length, true);
  out.set(header, PRELUDE);
  for (let i = 0; i < buffers.length; i++) out.set(buffers[i], dataStart + columns[i].offset);
  return out;
}

/** Wire bytes that are not a table: the message says what does not hold (TableFileError, code TABLE_FILE). */
function refused(message: string): TableFileError {
  return new TableFileError(`not a valid measnb table: ${message}`);
}

const KINDS: ReadonlySet<string> = new Set<ColumnKind>([
  'identifier',
  'time',
  'number',
  'status',
  'qcAssessment',
  'qcFlags',
  'text',
]);

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const oneOf = (list: readonly string[], v: unknown) => v === undefined || list.includes(v as string);

/** Metric label parts as core/metrics makes them: a known quantity, and known aggregation, index, field, tag. */
function isMetricParts(v: unknown): v is MetricLabelParts {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  return (
    typeof m.quantity === 'string' &&
    quantityInfo(m.quantity) !== undefined &&
    oneOf(AGGREGATIONS, m.aggregation) &&
    oneOf(INDEXES, m.index) &&
    oneOf(METRIC_FIELDS, m.field) &&
    oneOf(CORRECTION_TAGS, m.correction)
  );
}

/** The header's JSON, checked: every field of the kind its use needs (a column's bytes are checked later). */
function checkHeader(raw: unknown): WireHeader {
  const h = raw as Partial<WireHeader> | null;
  if (!h || typeof h !== 'object' || !isCount(h.rowCount) || !Array.isArray(h.columns)) {
    throw refused('the header has no row count or no columns');
  }
  if (h.columns.length === 0 && h.rowCount !== 0) throw refused(`${h.rowCount} rows but no columns`);
  for (const [i, c] of (h.columns as unknown[]).entries()) checkColumn(c as WireColumn, i, h.rowCount);
  return h as WireHeader;
}

function checkColumn(wc: WireColumn, i: number, rowCount: number): void {
  if (!wc || typeof wc !== 'object' || typeof wc.name !== 'string') throw refused(`column ${i + 1} has no name`);
  const what = columnText(wc.name);
  if (!KINDS.has(wc.kind)) throw refused(`${what} is of an unknown kind`);
  if (wc.canonical !== undefined && typeof wc.canonical !== 'string') throw refused(`${what} has a bad canonical name`);
  if (wc.metric !== undefined && !isMetricParts(wc.metric)) throw refused(`${what} has bad metric parts`);
  if (!isCount(wc.offset) || !isCount(wc.length)) throw refused(`${what} has a bad offset or length`);
  if (wc.length !== rowCount) throw refused(`${what} has ${wc.length} rows, the table ${rowCount}`);
  const numeric = wc.kind === 'number' || wc.kind === 'time';
  const decimal = wc.kind === 'number' && wc.scale !== undefined;
  if (
    wc.scale !== undefined &&
    !(decimal && Number.isInteger(wc.scale) && wc.scale <= MAX_DECIMAL_SCALE && wc.scale >= 0)
  )
    throw refused(`${what} has a bad scale`);
  if (wc.bits !== undefined && !((decimal || !numeric) && wc.bits === 16)) {
    throw refused(`${what} has a bad element width`);
  }
  if (numeric ? wc.dict !== undefined : !isDict(wc.dict, wc.kind === 'qcFlags')) {
    throw refused(`${what} has a bad dictionary`);
  }
}

/** A dictionary column's texts (strings), or a qcFlags column's flag lists (lists of strings). */
function isDict(dict: unknown, flags: boolean): boolean {
  return Array.isArray(dict) && dict.every((d) => (flags ? isStrings(d) : typeof d === 'string'));
}

/** Every code indexes the dictionary, or is -1 (an empty cell). */
function checkCodes(codes: DictCodes, dictLength: number, name: string): void {
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c < -1 || c >= dictLength) {
      throw refused(`${columnText(name)} has the code ${c} in row ${i + 1}, past its dictionary of ${dictLength}`);
    }
  }
}

const columnText = (name: string) => `column ${JSON.stringify(name.slice(0, 80))}`;

/** Bytes per element of a checked column: Float64, else Int16 (bits 16) or Int32. */
function widthOf(wc: WireColumn): number {
  const float = (wc.kind === 'number' && wc.scale === undefined) || wc.kind === 'time';
  return float ? 8 : wc.bits === 16 ? 2 : 4;
}

/** The header (JSON after the magic and its length) and where the column bytes start. */
function readHeader(bytes: Uint8Array): { header: WireHeader; dataStart: number } {
  if (bytes.length < PRELUDE || MAGIC.some((m, i) => bytes[i] !== m)) throw refused('bad magic (not MNT1)');
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (PRELUDE + headerLength > bytes.length) throw refused('the header is cut short');
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes.subarray(PRELUDE, PRELUDE + headerLength)));
  } catch {
    throw refused('the header is not JSON');
  }
  return { header: checkHeader(raw), dataStart: align8(PRELUDE + headerLength) };
}

/**
 * The Table of wire bytes. They may come from anywhere (a .measnb file's saved output, a message): everything is
 * checked before a column is made (the header's fields, each column's bytes inside the buffer, so nothing is
 * allocated for rows the bytes do not hold), and every dictionary code indexes its dictionary; anything else is
 * a TableFileError.
 */
export function decodeTable(bytes: Uint8Array): Table {
  const { header, dataStart } = readHeader(bytes);
  // Every column inside the bytes before any is made: no allocation for rows the bytes do not hold.
  for (const wc of header.columns) {
    if (dataStart + wc.offset + wc.length * widthOf(wc) > bytes.length)
      throw refused(`${columnText(wc.name)} is cut short`);
  }
  const columns = header.columns.map((wc) => decodeColumn(bytes, dataStart, wc));
  return { columns, rowCount: header.rowCount };
}

/** One column of a checked header: a view of its bytes (a copy when misaligned), decimals to Float64. */
function decodeColumn(bytes: Uint8Array, dataStart: number, wc: WireColumn): Column {
  const numeric = wc.kind === 'number' || wc.kind === 'time';
  const decimal = wc.kind === 'number' && wc.scale !== undefined;
  const width = widthOf(wc);
  const start = dataStart + wc.offset;
  const abs = bytes.byteOffset + start;
  // View in place when aligned (the usual case); copy otherwise. Uint8Array's own slice, because a node
  // Buffer's slice() is a view (the extension host hands outputs out as Buffers) and would stay misaligned.
  const source = abs % width === 0 ? bytes : Uint8Array.prototype.slice.call(bytes, start, start + wc.length * width);
  const base = source === bytes ? abs : source.byteOffset;
  const name = wc.name;
  if (numeric && !decimal) {
    const values = new Float64Array(source.buffer, base, wc.length);
    return withMeta<Column>(wc, { name, kind: wc.kind as 'number' | 'time', values });
  }
  const ints =
    width === 2 ? new Int16Array(source.buffer, base, wc.length) : new Int32Array(source.buffer, base, wc.length);
  if (decimal)
    return withMeta<Column>(wc, { name, kind: 'number', values: decimalsToFloat64(ints, wc.scale as number) });
  const dict = wc.dict as string[] | string[][];
  checkCodes(ints, dict.length, name);
  if (wc.kind === 'qcFlags')
    return withMeta<Column>(wc, { name, kind: 'qcFlags', dict: dict as string[][], codes: ints });
  const kind = wc.kind as 'identifier' | 'status' | 'qcAssessment' | 'text';
  return withMeta<Column>(wc, { name, kind, dict: dict as string[], codes: ints });
}
