// A Parquet file's footer (FileMetaData) in Thrift's compact protocol, written as the file goes: each row
// group's metadata is serialized when the row group is written, so a file holds bytes (~80 per column
// chunk), not an object per chunk, until its end (a minute month's file has ~6,000 chunks). Field ids
// and enum values from parquet-format's parquet.thrift; the compact protocol from Thrift's
// doc/specs/thrift-compact-protocol.md. Only what the archive writes: flat OPTIONAL columns of DOUBLE,
// INT64 TIMESTAMP(MICROS, UTC) and BYTE_ARRAY UTF8, snappy, statistics.

/** A column of the files: its name and how it is stored. */
export interface FooterColumn {
  name: string;
  kind: 'double' | 'time' | 'text';
}

/** What the footer says of one column chunk. */
export interface ChunkMeta {
  start: number;
  dataOffset: number;
  /** -1: no dictionary page. */
  dictionaryOffset: number;
  uncompressed: number;
  compressed: number;
  nulls: number;
  /** Little-endian value bytes (DOUBLE, INT64, or the UTF-8 text), undefined when every cell is empty. */
  min?: Uint8Array;
  max?: Uint8Array;
}

const T_TRUE = 1;
const T_FALSE = 2;
const T_I32 = 5;
const T_I64 = 6;
const T_BINARY = 8;
const T_LIST = 9;
const T_STRUCT = 12;

const TYPE = { double: 5, time: 2, text: 6 } as const;
const CONVERTED_UTF8 = 0;
const CONVERTED_TIMESTAMP_MICROS = 10;
const OPTIONAL = 1;
const ENCODING_PLAIN = 0;
const ENCODING_RLE = 3;
const ENCODING_RLE_DICTIONARY = 8;
const CODEC_SNAPPY = 1;
/** Texts longer than this get no min/max (allowed: statistics are optional; no truncation to get wrong). */
export const TEXT_STATISTICS_BYTES = 64;

const utf8 = new TextEncoder();

/** Thrift compact protocol into a growable buffer. Integers are JS numbers (below 2^53). */
export class CompactWriter {
  bytes = new Uint8Array(4096);
  length = 0;
  private last = 0;
  private readonly stack: number[] = [];

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  byte(b: number): void {
    this.room(1);
    this.bytes[this.length++] = b;
  }

  /** An unsigned varint of a non-negative integer below 2^53 (no 32-bit operators: they would wrap). */
  varint(v: number): void {
    while (v >= 0x80) {
      this.byte((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.byte(v);
  }

  /** Zigzag (i32 and i64 alike): 2v for v ≥ 0, −2v − 1 below. */
  zigzag(v: number): void {
    this.varint(v >= 0 ? 2 * v : -2 * v - 1);
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }

  field(id: number, type: number): void {
    const delta = id - this.last;
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
    else {
      this.byte(type);
      this.zigzag(id);
    }
    this.last = id;
  }

  i32(id: number, v: number): void {
    this.field(id, T_I32);
    this.zigzag(v);
  }

  i64(id: number, v: number): void {
    this.field(id, T_I64);
    this.zigzag(v);
  }

  bool(id: number, v: boolean): void {
    this.field(id, v ? T_TRUE : T_FALSE);
  }

  binary(id: number, b: Uint8Array): void {
    this.field(id, T_BINARY);
    this.varint(b.length);
    this.raw(b);
  }

  /** A list's header; its elements follow (structs each between begin() and end()). */
  list(id: number, type: number, size: number): void {
    this.field(id, T_LIST);
    this.listHeader(type, size);
  }

  listHeader(type: number, size: number): void {
    if (size < 15) this.byte((size << 4) | type);
    else {
      this.byte(0xf0 | type);
      this.varint(size);
    }
  }

  /** Opens a struct (a field of `id`, or a list element when id is undefined). */
  begin(id?: number): void {
    if (id !== undefined) this.field(id, T_STRUCT);
    this.stack.push(this.last);
    this.last = 0;
  }

  end(): void {
    this.byte(0);
    this.last = this.stack.pop() ?? 0;
  }
}

/** One ColumnChunk (with its ColumnMetaData and Statistics) as a list element. */
function writeChunk(w: CompactWriter, column: FooterColumn, c: ChunkMeta, rows: number): void {
  w.begin();
  w.i64(2, c.start);
  w.begin(3);
  w.i32(1, TYPE[column.kind]);
  const dictionary = c.dictionaryOffset >= 0;
  w.list(2, T_I32, dictionary ? 3 : 2);
  w.zigzag(ENCODING_PLAIN);
  w.zigzag(ENCODING_RLE);
  if (dictionary) w.zigzag(ENCODING_RLE_DICTIONARY);
  w.list(3, T_BINARY, 1);
  const name = utf8.encode(column.name);
  w.varint(name.length);
  w.raw(name);
  w.i32(4, CODEC_SNAPPY);
  w.i64(5, rows);
  w.i64(6, c.uncompressed);
  w.i64(7, c.compressed);
  w.i64(9, c.dataOffset);
  if (dictionary) w.i64(11, c.dictionaryOffset);
  w.begin(12);
  w.i64(3, c.nulls);
  const stats =
    c.min && c.max && (column.kind !== 'text' || Math.max(c.min.length, c.max.length) <= TEXT_STATISTICS_BYTES);
  if (stats) {
    w.binary(5, c.max!);
    w.binary(6, c.min!);
    w.bool(7, true);
    w.bool(8, true);
  }
  w.end();
  w.end();
  w.end();
}

/** Appends one RowGroup (a list element of FileMetaData.row_groups) to `w`. */
export function writeRowGroupMeta(
  w: CompactWriter,
  columns: readonly FooterColumn[],
  chunks: readonly ChunkMeta[],
  rows: number,
): void {
  w.begin();
  w.list(1, T_STRUCT, chunks.length);
  let uncompressed = 0;
  let compressed = 0;
  chunks.forEach((c, i) => {
    writeChunk(w, columns[i], c, rows);
    uncompressed += c.uncompressed;
    compressed += c.compressed;
  });
  w.i64(2, uncompressed);
  w.i64(3, rows);
  w.i64(5, chunks[0]?.start ?? 0);
  w.i64(6, compressed);
  w.end();
}

/** One SchemaElement as a list element: the root (with its children's count), or a column. */
function writeSchemaElement(w: CompactWriter, name: string, column?: FooterColumn, children = 0): void {
  w.begin();
  if (column) {
    w.i32(1, TYPE[column.kind]);
    w.i32(3, OPTIONAL);
  }
  const bytes = utf8.encode(name);
  w.binary(4, bytes);
  if (!column) w.i32(5, children);
  if (column?.kind === 'text') w.i32(6, CONVERTED_UTF8);
  if (column?.kind === 'time') {
    w.i32(6, CONVERTED_TIMESTAMP_MICROS);
    // LogicalType union, 8: TIMESTAMP { 1: isAdjustedToUTC, 2: TimeUnit union { 2: MICROS {} } }.
    w.begin(10);
    w.begin(8);
    w.bool(1, true);
    w.begin(2);
    w.begin(2);
    w.end();
    w.end();
    w.end();
    w.end();
  }
  w.end();
}

/** The whole FileMetaData: `rowGroups` holds the row groups' serialized metadata (writeRowGroupMeta). */
export function writeFileMeta(
  w: CompactWriter,
  columns: readonly FooterColumn[],
  rowGroups: CompactWriter,
  rowGroupCount: number,
  rows: number,
  createdBy: string,
): void {
  w.begin();
  w.i32(1, 2);
  w.list(2, T_STRUCT, columns.length + 1);
  writeSchemaElement(w, 'root', undefined, columns.length);
  for (const c of columns) writeSchemaElement(w, c.name, c);
  w.i64(3, rows);
  w.list(4, T_STRUCT, rowGroupCount);
  w.raw(rowGroups.bytes.subarray(0, rowGroups.length));
  w.binary(6, utf8.encode(createdBy));
  // column_orders: TYPE_ORDER for every column (the statistics' min/max follow each type's order).
  w.list(7, T_STRUCT, columns.length);
  for (let i = 0; i < columns.length; i++) {
    w.begin();
    w.begin(1);
    w.end();
    w.end();
  }
  w.end();
}
