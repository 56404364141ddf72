// Parquet writing for the archive: one row group at a time, each column chunk one DATA_PAGE_V2 written
// straight from the piece's typed arrays into reused buffers (no per-cell JavaScript values), snappy.
// Doubles PLAIN DOUBLE, times PLAIN INT64 microseconds, texts from their dictionary codes (RLE_DICTIONARY
// with a PLAIN dictionary page when a chunk repeats its texts, else PLAIN BYTE_ARRAY); every column
// OPTIONAL, its definition levels an RLE/bit-packed hybrid (bit width 1). Statistics per chunk:
// null_count, min_value and max_value (doubles with the spec's signed-zero rule: a zero min written -0, a
// zero max +0; texts ordered by their UTF-8 bytes). The footer (FileMetaData, Thrift compact) is
// parquet-footer.ts's, each row group's part serialized as it is written. Formats:
// https://parquet.apache.org/docs/file-format/ (data pages; encodings: RLE/bit-packing hybrid,
// dictionary) and parquet-format's parquet.thrift (PageHeader).
import { ByteWriter } from 'hyparquet-writer';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { type ChunkMeta, CompactWriter, type FooterColumn, writeFileMeta, writeRowGroupMeta } from './parquet-footer';
import { SnappyCompressor } from './snappy';

export type ParquetKind = 'double' | 'time' | 'text';

/** One column's cells in a piece: numbers and times as Float64 (times in ms; NaN empty), texts as codes. */
export type PieceCells =
  | { kind: 'double' | 'time'; values: Float64Array }
  | { kind: 'text'; codes: ArrayLike<number>; texts: readonly string[] };

/** A column of the files: its name and kind (stored as DuckDB's COPY stores a DOUBLE, TIMESTAMPTZ, VARCHAR). */
export type ParquetColumn = FooterColumn;

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error('The Parquet writer stores values in the machine order, which must be little-endian.');
}

const PAR1 = 0x31524150;
const PAGE_DICTIONARY = 2;
const PAGE_DATA_V2 = 3;
const ENC_PLAIN = 0;
const ENC_RLE_DICTIONARY = 8;
const TWO32 = 4294967296;
const utf8 = new TextEncoder();

/** A page's parts before it is written: its header fields and the bytes after the header. */
interface Page {
  type: number;
  numValues: number;
  numNulls: number;
  encoding: number;
  levels: Uint8Array;
  raw: Uint8Array;
}

/** What a chunk's encoder tells the footer (its pages went to `emit`): empty cells, least and greatest. */
type ChunkStats = Pick<ChunkMeta, 'nulls' | 'min' | 'max'>;

type Emit = (page: Page) => void;

const NO_BYTES = new Uint8Array(0);

/** Buffers shared by every file (one file is written at a time); grown, never shrunk. */
class Scratch {
  bytes = new Uint8Array(64 * 1024);
  f64 = new Float64Array(this.bytes.buffer);
  i32 = new Int32Array(this.bytes.buffer);
  present = new Uint8Array(4096);
  readonly range = new Float64Array(2);
  indices = new Int32Array(4096);
  local = new Int32Array(1024).fill(-1);
  readonly used: number[] = [];
  readonly snappy = new SnappyCompressor();
  readonly levelsOut = new ByteWriter(1024);
  readonly indicesOut = new ByteWriter(4096);
  readonly header = new Uint8Array(128);
  readonly rowGroupMeta = new CompactWriter();
  readonly footer = new CompactWriter();
  private textsOf: Array<readonly string[] | undefined> = [];
  private bytesOf: Array<Array<Uint8Array | undefined>> = [];

  /** At least n bytes in `bytes` (its Float64 and Int32 views follow it). */
  valueBytes(n: number): Uint8Array {
    if (this.bytes.length < n) {
      this.bytes = new Uint8Array(Math.max(n + 7 - ((n + 7) % 8), this.bytes.length * 2));
      this.f64 = new Float64Array(this.bytes.buffer);
      this.i32 = new Int32Array(this.bytes.buffer);
    }
    return this.bytes;
  }

  /** Room for n rows in `present` and `indices`, and codes below `codes` in `local` (all -1). */
  rows(n: number, codes = 0): void {
    if (this.present.length < n) {
      this.present = new Uint8Array(n);
      this.indices = new Int32Array(n);
    }
    if (this.local.length < codes) this.local = new Int32Array(codes).fill(-1);
  }

  /** A text's UTF-8 bytes, encoded once per piece and column. */
  utf8Of(col: number, texts: readonly string[], code: number): Uint8Array {
    if (this.textsOf[col] !== texts) {
      this.textsOf[col] = texts;
      this.bytesOf[col] = [];
    }
    const cache = this.bytesOf[col];
    let b = cache[code];
    if (b === undefined) {
      b = utf8.encode(texts[code]);
      cache[code] = b;
    }
    return b;
  }
}

/**
 * The definition levels of n rows (present[i] 1 for a value, 0 for an empty cell) as the RLE/bit-packed
 * hybrid with bit width 1, without the length prefix (DATA_PAGE_V2 keeps the length in its header).
 */
function definitionLevels(s: Scratch, n: number, nulls: number): Uint8Array {
  const w = s.levelsOut;
  w.offset = 0;
  w.index = 0;
  if (nulls === 0 || nulls === n) {
    // One run: its length, then the level in one byte.
    w.appendVarInt(n * 2);
    w.appendUint8(nulls === 0 ? 1 : 0);
  } else writeRleBitPackedHybrid(w, s.present.subarray(0, n), 1);
  return w.getBytes();
}

/**
 * Milliseconds since 1970 as int64 µs in two 32-bit halves at out[at] (low), out[at + 1] (high). ms × 1000
 * as a double is exact only below 2^53 µs (the year 2255), so the whole milliseconds are split first
 * (exact for every ms a double holds as an integer); a fraction of a ms is rounded to the µs.
 */
function putMicros(out: Int32Array, at: number, ms: number): void {
  const whole = Math.floor(ms);
  const msHi = Math.floor(whole / TWO32);
  const lowUs = (whole - msHi * TWO32) * 1000 + Math.round((ms - whole) * 1000);
  const carry = Math.floor(lowUs / TWO32);
  out[at] = lowUs - carry * TWO32;
  out[at + 1] = msHi * 1000 + carry;
}

/** A statistic's bytes: a double (a zero as `zero`: the spec's -0 min, +0 max) or ms as int64 µs. */
function statBytes(v: number, time: boolean, zero: number): Uint8Array {
  const out = new Uint8Array(8);
  if (time) putMicros(new Int32Array(out.buffer), 0, v);
  else new Float64Array(out.buffer)[0] = v === 0 ? zero : v;
  return out;
}

/**
 * The present values of `rows` of `values` into `out` (in order), 1/0 per row into `present`, their least
 * and greatest into range[0], range[1]; the count. Doubles and times each their own loop: one loop for
 * both was deoptimized by V8 on every switch, its doubles boxed meanwhile (~17 MB of garbage a file).
 */
function gatherDoubles(
  values: Float64Array,
  rows: readonly number[],
  present: Uint8Array,
  out: Float64Array,
  range: Float64Array,
): number {
  let k = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < rows.length; i++) {
    const v = values[rows[i]];
    if (Number.isNaN(v)) {
      present[i] = 0;
      continue;
    }
    present[i] = 1;
    if (v < min) min = v;
    if (v > max) max = v;
    out[k++] = v;
  }
  range[0] = min;
  range[1] = max;
  return k;
}

/** gatherDoubles for times: ms into int64 µs (putMicros). */
function gatherTimes(
  values: Float64Array,
  rows: readonly number[],
  present: Uint8Array,
  out: Int32Array,
  range: Float64Array,
): number {
  let k = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < rows.length; i++) {
    const v = values[rows[i]];
    if (Number.isNaN(v)) {
      present[i] = 0;
      continue;
    }
    present[i] = 1;
    if (v < min) min = v;
    if (v > max) max = v;
    putMicros(out, 2 * k++, v);
  }
  range[0] = min;
  range[1] = max;
  return k;
}

/** A number or time chunk: the present values PLAIN (DOUBLE, or INT64 µs), one DATA_PAGE_V2. */
function numberChunk(
  s: Scratch,
  cells: { kind: 'double' | 'time'; values: Float64Array },
  rows: readonly number[],
  emit: Emit,
): ChunkStats {
  const n = rows.length;
  const values = cells.values;
  const time = cells.kind === 'time';
  s.rows(n);
  s.valueBytes(n * 8);
  const range = s.range;
  const k = time
    ? gatherTimes(values, rows, s.present, s.i32, range)
    : gatherDoubles(values, rows, s.present, s.f64, range);
  const min = range[0];
  const max = range[1];
  const stats: ChunkStats = { nulls: n - k };
  if (k > 0) {
    stats.min = statBytes(min, time, -0);
    stats.max = statBytes(max, time, 0);
  }
  const levels = definitionLevels(s, n, n - k);
  emit({
    type: PAGE_DATA_V2,
    numValues: n,
    numNulls: n - k,
    encoding: ENC_PLAIN,
    levels,
    raw: s.bytes.subarray(0, k * 8),
  });
  return stats;
}

/** Unsigned byte order (how Parquet orders UTF8 statistics). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Numbers the distinct codes of `rows` in order of first use (`s.used`; `s.local` maps a code to its
 * number and is left all -1 again), each present row's number into `s.indices`, 1/0 per row into
 * `s.present`; the count of present rows.
 */
function numberTexts(s: Scratch, codes: ArrayLike<number>, rows: readonly number[], textCount: number): number {
  s.rows(rows.length, textCount);
  const { present, indices, local, used } = s;
  used.length = 0;
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const c = codes[rows[i]];
    if (c < 0) {
      present[i] = 0;
      continue;
    }
    present[i] = 1;
    let l = local[c];
    if (l < 0) {
      l = used.length;
      local[c] = l;
      used.push(c);
    }
    indices[k++] = l;
  }
  for (const c of used) local[c] = -1;
  return k;
}

/** The least and greatest of texts by their bytes (none when there are no texts). */
function byteRange(texts: readonly Uint8Array[], stats: ChunkStats): void {
  if (texts.length === 0) return;
  let min = texts[0];
  let max = texts[0];
  for (const b of texts) {
    if (compareBytes(b, min) < 0) min = b;
    if (compareBytes(b, max) > 0) max = b;
  }
  stats.min = min;
  stats.max = max;
}

/**
 * A text chunk: dictionary-encoded (a PLAIN dictionary page, then the numbers as the RLE/bit-packed
 * hybrid) when each of its texts repeats on average, else PLAIN.
 */
function textChunk(
  s: Scratch,
  col: number,
  cells: { codes: ArrayLike<number>; texts: readonly string[] },
  rows: readonly number[],
  emit: Emit,
): ChunkStats {
  const n = rows.length;
  const k = numberTexts(s, cells.codes, rows, cells.texts.length);
  const distinct = s.used.map((c) => s.utf8Of(col, cells.texts, c));
  const stats: ChunkStats = { nulls: n - k };
  byteRange(distinct, stats);
  const levels = definitionLevels(s, n, n - k);
  const page = { type: PAGE_DATA_V2, numValues: n, numNulls: n - k, levels };
  if (distinct.length === 0 || distinct.length * 2 > k) {
    emit({ ...page, encoding: ENC_PLAIN, raw: plainTexts(s, distinct, s.indices, k) });
    return stats;
  }
  const dictionary = plainTexts(s, distinct, null, distinct.length);
  emit({
    type: PAGE_DICTIONARY,
    numValues: distinct.length,
    numNulls: 0,
    encoding: ENC_PLAIN,
    levels: NO_BYTES,
    raw: dictionary,
  });
  const w = s.indicesOut;
  w.offset = 0;
  w.index = 0;
  const bitWidth = Math.max(1, Math.ceil(Math.log2(distinct.length)));
  w.appendUint8(bitWidth);
  writeRleBitPackedHybrid(w, s.indices.subarray(0, k), bitWidth);
  emit({ ...page, encoding: ENC_RLE_DICTIONARY, raw: w.getBytes() });
  return stats;
}

/** PLAIN BYTE_ARRAY values (4-byte little-endian length, then the bytes): texts[order[i]], or texts[i]. */
function plainTexts(s: Scratch, texts: readonly Uint8Array[], order: Int32Array | null, count: number): Uint8Array {
  let size = 0;
  for (let i = 0; i < count; i++) size += 4 + texts[order ? order[i] : i].length;
  const out = s.valueBytes(size);
  let p = 0;
  for (let i = 0; i < count; i++) {
    const b = texts[order ? order[i] : i];
    const len = b.length;
    out[p] = len & 0xff;
    out[p + 1] = (len >>> 8) & 0xff;
    out[p + 2] = (len >>> 16) & 0xff;
    out[p + 3] = len >>> 24;
    out.set(b, p + 4);
    p += 4 + len;
  }
  return out.subarray(0, p);
}

/** A PageHeader in Thrift's compact protocol (i32 fields and nested structs only). */
class HeaderWriter {
  private pos = 0;
  private last = 0;
  private readonly stack: number[] = [];

  constructor(private readonly buf: Uint8Array) {}

  /** An i32 field: its header, then the value zigzag-encoded as a varint. */
  field(id: number, value: number): void {
    this.fieldHeader(id, 5);
    let z = ((value << 1) ^ (value >> 31)) >>> 0;
    while (z >= 0x80) {
      this.buf[this.pos++] = (z & 0x7f) | 0x80;
      z >>>= 7;
    }
    this.buf[this.pos++] = z;
  }

  /** Opens a struct field; its fields follow, `end()` closes it. */
  struct(id: number): void {
    this.fieldHeader(id, 12);
    this.stack.push(this.last);
    this.last = 0;
  }

  /** Closes every open struct and the header itself; the bytes (a view of the buffer). */
  end(): Uint8Array {
    while (this.stack.length > 0) {
      this.buf[this.pos++] = 0;
      this.last = this.stack.pop()!;
    }
    this.buf[this.pos++] = 0;
    return this.buf.subarray(0, this.pos);
  }

  private fieldHeader(id: number, type: number): void {
    const delta = id - this.last;
    if (delta <= 0 || delta > 15) throw new Error('Page header fields must come in order, close together.');
    this.buf[this.pos++] = (delta << 4) | type;
    this.last = id;
  }
}

/** Writes Parquet files one after another through their sinks, with one set of reused buffers. */
export class ParquetEncoder {
  private readonly scratch = new Scratch();
  private readonly out = new ByteWriter(256 * 1024);

  /** Starts a file of `columns` (in order); its bytes go to `sink` as they are made. */
  file(columns: readonly ParquetColumn[], sink: (bytes: Uint8Array) => void, createdBy = 'measnb'): ParquetFile {
    this.out.offset = 0;
    this.out.index = 0;
    this.scratch.rowGroupMeta.length = 0;
    return new ParquetFile(this.out, this.scratch, columns, sink, createdBy);
  }
}

/** One Parquet file being written: row groups, then `finish()` (the footer). */
export class ParquetFile {
  private rowGroupCount = 0;
  private rowCount = 0;
  private chunk: ChunkMeta = ParquetFile.emptyChunk(0);
  private readonly emit: Emit = (page) => this.writePage(page);

  constructor(
    private readonly out: ByteWriter,
    private readonly scratch: Scratch,
    private readonly columns: readonly ParquetColumn[],
    private readonly sink: (bytes: Uint8Array) => void,
    private readonly createdBy: string,
  ) {
    out.appendUint32(PAR1);
  }

  private static emptyChunk(start: number): ChunkMeta {
    return { start, dataOffset: 0, dictionaryOffset: -1, uncompressed: 0, compressed: 0, nulls: 0 };
  }

  /** Writes the rows `rows` of a piece's columns (`cells[i]` for `columns[i]`) as one row group. */
  writeRowGroup(cells: readonly PieceCells[], rows: readonly number[]): void {
    if (cells.length !== this.columns.length) throw new Error('A row group needs one cell source per column.');
    if (rows.length === 0 || rows.length > 1 << 24) throw new Error('A row group holds 1 to 2^24 rows.');
    const chunks: ChunkMeta[] = [];
    for (let i = 0; i < cells.length; i++) chunks.push(this.writeChunk(i, cells[i], rows));
    writeRowGroupMeta(this.scratch.rowGroupMeta, this.columns, chunks, rows.length);
    this.rowGroupCount++;
    this.rowCount += rows.length;
    this.flush();
  }

  /** The footer (FileMetaData, then its length) and the closing magic. */
  finish(): void {
    const w = this.scratch.footer;
    w.length = 0;
    const { rowGroupMeta } = this.scratch;
    writeFileMeta(w, this.columns, rowGroupMeta, this.rowGroupCount, this.rowCount, this.createdBy);
    this.out.appendBytes(w.bytes.subarray(0, w.length));
    this.out.appendUint32(w.length);
    this.out.appendUint32(PAR1);
    this.flush();
  }

  private flush(): void {
    this.sink(new Uint8Array(this.out.buffer, 0, this.out.index));
    this.out.index = 0;
  }

  private writeChunk(col: number, cells: PieceCells, rows: readonly number[]): ChunkMeta {
    const chunk = ParquetFile.emptyChunk(this.out.offset);
    this.chunk = chunk;
    const stats =
      cells.kind === 'text'
        ? textChunk(this.scratch, col, cells, rows, this.emit)
        : numberChunk(this.scratch, cells, rows, this.emit);
    chunk.compressed = this.out.offset - chunk.start;
    return Object.assign(chunk, stats);
  }

  /** Writes a page: its header, the levels, the values compressed. */
  private writePage(page: Page): void {
    if (page.type === PAGE_DICTIONARY) this.chunk.dictionaryOffset = this.out.offset;
    else this.chunk.dataOffset = this.out.offset;
    const compressed = this.scratch.snappy.compress(page.raw);
    const h = new HeaderWriter(this.scratch.header);
    h.field(1, page.type);
    h.field(2, page.levels.length + page.raw.length);
    h.field(3, page.levels.length + compressed.length);
    if (page.type === PAGE_DICTIONARY) {
      h.struct(7);
      h.field(1, page.numValues);
      h.field(2, page.encoding);
    } else {
      h.struct(8);
      h.field(1, page.numValues);
      h.field(2, page.numNulls);
      h.field(3, page.numValues);
      h.field(4, page.encoding);
      h.field(5, page.levels.length);
      h.field(6, 0);
    }
    const header = h.end();
    this.out.appendBytes(header);
    this.out.appendBytes(page.levels);
    this.out.appendBytes(compressed);
    this.chunk.uncompressed += header.length + page.levels.length + page.raw.length;
  }
}
