// The renderer wire format (MIME `MIME.table` of core/notebook/model.ts): a small JSON header (names, kinds,
// dictionaries) then the typed-array buffers, 8-byte aligned so the decoder can view them in place.
// Decimal columns travel as their scaled Int16s or Int32s (a quarter or half the bytes) and are decoded
// to Float64 numbers; dictionary codes travel as they are, Int16 or Int32.
// decodeTable runs in the notebook webview: browser APIs only (no Buffer, no node modules).

import { decimalsToFloat64, MAX_DECIMAL_SCALE } from './decimal';
import { type Column, isDecimal, isNumeric, type Table, withMeta } from './table';

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

export function decodeTable(bytes: Uint8Array): Table {
  if (bytes.length < PRELUDE || MAGIC.some((m, i) => bytes[i] !== m)) {
    throw new Error('not a measnb table (bad magic)');
  }
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (PRELUDE + headerLength > bytes.length) throw new Error('truncated measnb table header');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(PRELUDE, PRELUDE + headerLength))) as WireHeader;
  const dataStart = align8(PRELUDE + headerLength);
  const columns = header.columns.map((wc): Column => {
    const numeric = wc.kind === 'number' || wc.kind === 'time';
    const decimal = wc.kind === 'number' && wc.scale !== undefined;
    if (decimal && !(Number.isInteger(wc.scale) && wc.scale! >= 0 && wc.scale! <= MAX_DECIMAL_SCALE)) {
      throw new Error(`bad scale for measnb table column ${wc.name}`);
    }
    if (wc.bits !== undefined && !((decimal || !numeric) && wc.bits === 16)) {
      throw new Error(`bad element width for measnb table column ${wc.name}`);
    }
    const width = numeric && !decimal ? 8 : wc.bits === 16 ? 2 : 4;
    const start = dataStart + wc.offset;
    if (start + wc.length * width > bytes.length) throw new Error(`truncated measnb table column ${wc.name}`);
    const abs = bytes.byteOffset + start;
    // View in place when aligned (the usual case); copy otherwise. Uint8Array's own slice, because a node
    // Buffer's slice() is a view (the extension host hands outputs out as Buffers) and would stay misaligned.
    const source = abs % width === 0 ? bytes : Uint8Array.prototype.slice.call(bytes, start, start + wc.length * width);
    const base = source === bytes ? abs : source.byteOffset;
    const name = wc.name;
    if (decimal) {
      const ints =
        width === 2 ? new Int16Array(source.buffer, base, wc.length) : new Int32Array(source.buffer, base, wc.length);
      const values = decimalsToFloat64(ints, wc.scale!);
      return withMeta<Column>(wc, { name, kind: 'number', values });
    }
    if (numeric) {
      const values = new Float64Array(source.buffer, base, wc.length);
      return withMeta<Column>(wc, { name, kind: wc.kind as 'number' | 'time', values });
    }
    const codes =
      width === 2 ? new Int16Array(source.buffer, base, wc.length) : new Int32Array(source.buffer, base, wc.length);
    if (wc.kind === 'qcFlags')
      return withMeta<Column>(wc, { name, kind: 'qcFlags', dict: (wc.dict ?? []) as string[][], codes });
    const kind = wc.kind as 'identifier' | 'status' | 'qcAssessment' | 'text';
    return withMeta<Column>(wc, { name, kind, dict: (wc.dict ?? []) as string[], codes });
  });
  return { columns, rowCount: header.rowCount };
}
