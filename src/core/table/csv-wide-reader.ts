// Rows of csv-wide into column builders, by the header (any column order; unknown columns kept; empty
// cells stay empty): as records of text (csv-parse's), or as lines of bytes (the fast path: numbers and
// times parsed from the bytes, repeated ids found by their bytes, no string per cell). Both give the same
// Table for the same text.

import { IncompleteReplyError } from '../api/errors';
import { MAX_COLUMNS, MAX_KEPT_BYTES, MAX_KEPT_CELLS, tooManyColumns } from '../io/limits';
import { isoBytesToMs } from '../time/iso';
import {
  builderFor,
  type ColumnBuilder,
  DictBuilder,
  demoteToText,
  InferredNumberBuilder,
  NumberBuilder,
  TimeBuilder,
} from './builders';
import { ByteCodes } from './byte-codes';
import { type ColumnInfo, classifyColumn } from './column-kinds';
import { DECIMAL_POW10 } from './decimal';
import { STAGE } from './growable';
import type { Table } from './table';

/** Column indices and builders of one builder class, so each inner loop has a single call target. */
interface Group {
  cols: number[];
  builders: ColumnBuilder[];
}

const COMMA = 44;
const FAST_TEXT = 0;
const FAST_NUMBER = 1;
const FAST_TIME = 2;
const FAST_DICT = 3;
const FAST_INFERRED = 4;

/**
 * Lines read together, column by column (addLines): a recent query's lines are ~170 bytes, so a block's
 * bytes (~22 KB) stay in the first-level cache while each column's loop goes down the lines.
 */
export const LINES_PER_BLOCK = 128;

/** The bytes of an ISO time with milliseconds and Z, as the service writes them. */
const ISO_MS_BYTES = 24;

function fastKind(b: ColumnBuilder): number {
  if (b.constructor === NumberBuilder) return FAST_NUMBER;
  if (b.constructor === InferredNumberBuilder) return FAST_INFERRED;
  if (b.constructor === TimeBuilder) return FAST_TIME;
  if (b.constructor === DictBuilder) return FAST_DICT;
  return FAST_TEXT;
}

/** The end of the cell starting at pos: the next comma, or the line's end. */
function cellEnd(b: Uint8Array, pos: number, end: number): number {
  let p = pos;
  while (p < end && b[p] !== COMMA) p++;
  return p;
}

function countFields(b: Uint8Array, start: number, end: number): number {
  let n = 1;
  for (let p = start; p < end; p++) if (b[p] === COMMA) n++;
  return n;
}

export function wrongFieldCount(detail: string): IncompleteReplyError {
  return new IncompleteReplyError(`a row has another number of fields than the header (${detail.slice(0, 120)})`);
}

/** Accepts records (header first) and builds the columns. */
export class CsvWideReader {
  /**
   * strict: a row with another field count than the header's is an incomplete reply, not a padded row.
   * maxRows: rows past it are counted (totalRows), not kept; onFirstRows gets the kept rows at the first one.
   */
  constructor(
    private readonly strict = false,
    private readonly maxRows = Number.POSITIVE_INFINITY,
    private readonly onFirstRows?: (table: Table) => void,
    /**
     * Only times and numbers are parsed: every other column (unknown ones, qcFlags) is kept as the text
     * written, as a typed copy of the file needs it (the archive's Parquet: numbers DOUBLE, the rest text).
     */
    private readonly typedOnly = false,
  ) {}

  private headers: string[] | undefined;
  /** The rows kept: maxRows, or fewer once MAX_KEPT_CELLS or MAX_KEPT_BYTES is reached (set by the header). */
  private keep = Number.POSITIVE_INFINITY;
  /** Bytes of the lines kept so far (counted only under a row limit). */
  private keptBytes = 0;
  private infos: ColumnInfo[] = [];
  private builders: ColumnBuilder[] = [];
  private groups: Group[] = [];
  private rows = 0;
  private skipped = 0;
  private head: Table | undefined;
  /** Per column, how addLines reads its cells (FAST_*), from its builder's class. */
  private fast = new Uint8Array(0);
  /**
   * Per dictionary column, codes of its texts by a hash of their bytes: a repeated id is neither decoded
   * nor looked up by its text again (the code's text is compared with the bytes, for hash collisions).
   */
  private seen: Array<ByteCodes | undefined> = [];
  private readonly utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

  /** maxRows rows are kept: the rest is only counted (skip()). */
  get full(): boolean {
    return this.headers !== undefined && this.rows >= this.keep;
  }

  /** Fewer rows than maxRows were kept, for MAX_KEPT_CELLS or MAX_KEPT_BYTES (the rest was counted). */
  get sizeLimited(): boolean {
    return this.full && this.rows < this.maxRows && this.skipped > 0;
  }

  /** Counts the bytes of rows kept; past MAX_KEPT_BYTES, no more rows are kept (only with a row limit). */
  private kept(bytes: number): void {
    if (this.maxRows === Number.POSITIVE_INFINITY) return;
    this.keptBytes += bytes;
    if (this.keptBytes > MAX_KEPT_BYTES) this.keep = this.rows;
  }

  /** Every data row seen, kept or not. */
  get totalRows(): number {
    return this.rows + this.skipped;
  }

  /** The rows read and not yet taken (takeRows). */
  get rowsHeld(): number {
    return this.rows;
  }

  /** Counts a data row past maxRows without reading its cells. */
  private skip(): void {
    if (this.skipped++ === 0 && this.onFirstRows) this.onFirstRows(this.finish());
  }

  add(record: string[]): void {
    if (this.full) {
      this.skip();
      return;
    }
    if (!this.headers) {
      if (record.length > MAX_COLUMNS) throw tooManyColumns(record.length);
      this.headers = record;
      if (this.maxRows !== Number.POSITIVE_INFINITY) {
        this.keep = Math.min(this.maxRows, Math.max(1, Math.floor(MAX_KEPT_CELLS / Math.max(1, record.length))));
      }
      this.infos = record.map(classifyColumn);
      this.builders = this.freshBuilders();
      this.regroup();
      return;
    }
    const n = this.builders.length;
    if (this.strict && record.length !== n) {
      throw wrongFieldCount(`${record.length} fields, the header has ${n}`);
    }
    if (record.length >= n) {
      const groups = this.groups;
      for (let g = 0; g < groups.length; g++) {
        const { cols, builders } = groups[g];
        for (let k = 0; k < cols.length; k++) {
          if (!builders[k].push(record[cols[k]])) this.demote(cols[k], record[cols[k]]);
        }
      }
    } else {
      // Short row: missing cells are empty.
      for (let c = 0; c < n; c++) {
        const b = this.builders[c];
        if (c >= record.length) b.pushEmpty(1);
        else if (!b.push(record[c])) this.demote(c, record[c]);
      }
    }
    this.rows++;
    if (this.maxRows !== Number.POSITIVE_INFINITY) this.kept(record.reduce((sum, cell) => sum + cell.length + 1, 0));
  }

  private freshBuilders(): ColumnBuilder[] {
    if (this.typedOnly) {
      return this.infos.map((i) =>
        i.kind === 'time' || i.kind === 'number' ? builderFor(i.kind) : new DictBuilder('text'),
      );
    }
    // Unknown columns start as numbers and demote to text at the first cell that is not one.
    return this.infos.map((i) => (i.inferred ? new InferredNumberBuilder() : builderFor(i.kind)));
  }

  /**
   * The rows read since the last call as a Table, the reader then starting afresh on the same header (its
   * columns' kinds as the header gives them): a file of any length read in pieces of bounded memory.
   */
  takeRows(): Table {
    const table = this.finish();
    if (!this.headers) return table;
    this.rows = 0;
    this.builders = this.freshBuilders();
    this.seen = [];
    this.regroup();
    return table;
  }

  /** A cell that does not fit its column's kind turns the column into text; its cells so far are kept. */
  private demote(c: number, cell: string): void {
    const text = demoteToText(this.builders[c]);
    text.push(cell);
    this.builders[c] = text;
    this.regroup();
  }

  private regroup(): void {
    const byClass = new Map<unknown, Group>();
    this.builders.forEach((b, c) => {
      let g = byClass.get(b.constructor);
      if (!g) {
        g = { cols: [], builders: [] };
        byClass.set(b.constructor, g);
      }
      g.cols.push(c);
      g.builders.push(b);
    });
    this.groups = [...byClass.values()];
    this.fast = Uint8Array.from(this.builders, fastKind);
    this.seen = this.builders.map((b, c) => (b instanceof DictBuilder ? (this.seen[c] ?? new ByteCodes()) : undefined));
  }

  /**
   * One line of plain csv-wide as bytes [start, end): no quote, no carriage return, no line end. Same
   * cells as add(line.split(',')) on the decoded line.
   */
  addLine(b: Uint8Array, start: number, end: number): void {
    this.one[0] = start;
    this.one[1] = end;
    this.addLines(b, this.one, 0, 1);
  }

  /** [start, end) of a line read alone (addLine). */
  private readonly one = new Int32Array(2);
  /** Per row of the block being read, where its next cell starts (past its end: no cell left). */
  private pos = new Int32Array(LINES_PER_BLOCK);
  /** Per row of the block being read, where its line ends. */
  private ends = new Int32Array(LINES_PER_BLOCK);
  /** The first row of the block (in the caller's line list) whose field count differs from the header's; -1: none. */
  private badRow = -1;

  /**
   * Lines of plain csv-wide (as addLine reads one), `count` of them: line k is b[lines[2k], lines[2k + 1]).
   * Read column by column: each column's cells of every line, then the next column's, so that each loop
   * reads one kind of cell into one builder (the line's next cell start is kept per line). The same Table
   * as reading the lines one at a time; in strict mode the first line (in order) whose field count differs
   * from the header's is reported, as a line-by-line read would.
   */
  addLines(b: Uint8Array, lines: Int32Array, from: number, count: number): void {
    let first = from;
    if (!this.headers && count > 0) {
      const start = lines[2 * first];
      const end = lines[2 * first + 1];
      // Counted before it is split: a header of millions of commas never becomes millions of strings.
      const fields = countFields(b, start, end);
      if (fields > MAX_COLUMNS) throw tooManyColumns(fields);
      this.add(this.utf8.decode(b.subarray(start, end)).split(','));
      first++;
    }
    const given = from + count - first;
    const rows = Math.max(0, Math.min(given, this.keep - this.rows));
    if (rows > 0) {
      this.readBlock(b, lines, first, rows);
      this.kept(lines[2 * (first + rows - 1) + 1] - lines[2 * first]);
    }
    for (let k = rows; k < given; k++) this.skip();
  }

  private readBlock(b: Uint8Array, lines: Int32Array, first: number, rows: number): void {
    if (this.pos.length < rows) {
      this.pos = new Int32Array(rows);
      this.ends = new Int32Array(rows);
    }
    const pos = this.pos;
    const ends = this.ends;
    for (let r = 0; r < rows; r++) {
      pos[r] = lines[2 * (first + r)];
      ends[r] = lines[2 * (first + r) + 1];
    }
    this.badRow = -1;
    const n = this.builders.length;
    for (let c = 0; c < n; c++) {
      let r = 0;
      // A column demoted to text part way returns the row it stopped at, to go on with its new kind.
      while (r < rows) r = this.readColumn(c, b, r, rows);
    }
    // A line whose last column did not end it has more fields than the header.
    for (let r = 0; r < rows; r++) if (pos[r] <= ends[r]) this.wrongShape(r);
    this.rows += rows;
    if (this.strict && this.badRow >= 0) {
      const start = lines[2 * (first + this.badRow)];
      const end = lines[2 * (first + this.badRow) + 1];
      throw wrongFieldCount(`${countFields(b, start, end)} fields, the header has ${n}`);
    }
  }

  /** Row r's field count differs from the header's (in strict mode, an incomplete reply). */
  private wrongShape(r: number): void {
    if (this.badRow < 0 || r < this.badRow) this.badRow = r;
  }

  /** Column c's cells of rows [r, rows) by its kind; returns where it stopped (rows, or a row after a demotion). */
  private readColumn(c: number, b: Uint8Array, r: number, rows: number): number {
    const kind = this.fast[c];
    if (kind === FAST_NUMBER) return this.decimalColumn(c, b, r, rows);
    return this.columnCells(c, kind, b, r, rows);
  }

  /**
   * Whether row r's cell of column c is empty (an empty cell, or none left in the line); then it is
   * consumed: the row's next cell start moves past it.
   */
  private emptyAt(c: number, b: Uint8Array, r: number, s: number, lineEnd: number): boolean {
    if (s < lineEnd && b[s] !== COMMA) return false;
    if (s > lineEnd) {
      this.wrongShape(r); // no cell left: fewer fields than the header
      return true;
    }
    this.cellRead(c, r, s, lineEnd);
    return true;
  }

  /** Row r's cell of column c ended at e (a comma or the line end): its next cell starts after it. */
  private cellRead(c: number, r: number, e: number, lineEnd: number): void {
    this.pos[r] = e + 1;
    if (e === lineEnd && c < this.builders.length - 1) this.wrongShape(r); // the line ended early
  }

  /**
   * A number column's cells (not an inferred one). While the column holds decimals, plain numbers that
   * fit its scale and width (the common case) are read here with the builder's state in locals and stored
   * straight into its staging array; the first cell that needs more (a rescale, a widening, Float64, text) goes through
   * numberCell and the builder, and the column's reading starts again after it. emptyAt and cellRead are written out
   * here, and the digits before and after the point are read by two loops of one test each (parsing the body from
   * memory, 10 alternating runs: 380 -> 365 ms).
   */
  private decimalColumn(c: number, b: Uint8Array, r0: number, rows: number): number {
    const builder = this.builders[c] as NumberBuilder;
    const ints = builder.ints;
    if (ints === undefined) return this.columnCells(c, FAST_NUMBER, b, r0, rows);
    const stage = ints.stage;
    let staged = ints.staged;
    const scale = builder.scale;
    const limit = builder.limit;
    const empty = builder.empty;
    let maxAbs = builder.maxAbs;
    const pos = this.pos;
    const ends = this.ends;
    const last = c === this.builders.length - 1;
    let r = r0;
    for (; r < rows; r++) {
      const s = pos[r];
      const lineEnd = ends[r];
      let v = empty;
      if (s < lineEnd && b[s] !== COMMA) {
        let p = s;
        const neg = b[p] === 45; /* - */
        if (neg) p++;
        // At most 9 digits here (int32 arithmetic, no overflow); longer numbers go the general way.
        let m = 0;
        const from = p;
        for (; p < lineEnd; p++) {
          const d = b[p] - 48;
          if (d < 0 || d > 9) break;
          m = (m * 10 + d) | 0;
        }
        let digits = p - from;
        let frac = 0;
        if (p < lineEnd && b[p] === 46 /* . */) {
          const dot = ++p;
          for (; p < lineEnd; p++) {
            const d = b[p] - 48;
            if (d < 0 || d > 9) break;
            m = (m * 10 + d) | 0;
          }
          frac = p - dot;
          digits += frac;
        }
        if (!(p === lineEnd || b[p] === COMMA) || digits === 0 || digits > 9 || frac > scale) break;
        const x = frac === scale ? m : m * DECIMAL_POW10[scale - frac];
        if (x > limit || (x === 0 && neg)) break;
        if (x > maxAbs) maxAbs = x;
        v = neg ? -x : x;
        pos[r] = p + 1;
        if (p === lineEnd && !last) this.wrongShape(r); // the line ended early
      } else if (s > lineEnd) {
        this.wrongShape(r); // no cell left: fewer fields than the header
      } else {
        pos[r] = s + 1;
        if (s === lineEnd && !last) this.wrongShape(r);
      }
      if (staged === STAGE) {
        ints.staged = staged;
        ints.flush();
        staged = 0;
      }
      stage[staged++] = v;
    }
    ints.staged = staged;
    builder.maxAbs = maxAbs;
    if (r === rows) return rows;
    // Row r needs more than this loop does (a rescale, a widening, Float64, text): read alone.
    const lineEnd = ends[r];
    this.cellRead(c, r, this.numberCell(c, b, pos[r], lineEnd, false), lineEnd);
    return r + 1;
  }

  /**
   * A column's cells one at a time through its builder, by its kind (each call site below sees one
   * builder class); returns where it stopped: rows, or the row after a demotion to text.
   */
  private columnCells(c: number, kind: number, b: Uint8Array, r0: number, rows: number): number {
    const builder = this.builders[c];
    const pos = this.pos;
    const ends = this.ends;
    for (let r = r0; r < rows; r++) {
      const s = pos[r];
      const lineEnd = ends[r];
      if (this.emptyAt(c, b, r, s, lineEnd)) this.emptyCell(c, kind);
      else this.cellRead(c, r, this.cell(c, kind, b, s, lineEnd), lineEnd);
      if (this.builders[c] !== builder) return r + 1;
    }
    return rows;
  }

  /** Row's empty cell of column c, by the column's kind. */
  private emptyCell(c: number, kind: number): void {
    const builder = this.builders[c];
    if (kind === FAST_NUMBER || kind === FAST_INFERRED) (builder as NumberBuilder).pushNumber(Number.NaN);
    else if (kind === FAST_TIME) (builder as TimeBuilder).pushTime(Number.NaN);
    else if (kind === FAST_DICT) (builder as DictBuilder).pushCode(-1);
    else if (!builder.push('')) this.demote(c, '');
  }

  /** The cell of column c at s (not empty), by the column's kind; returns where it ends. */
  private cell(c: number, kind: number, b: Uint8Array, s: number, lineEnd: number): number {
    if (kind === FAST_NUMBER || kind === FAST_INFERRED)
      return this.numberCell(c, b, s, lineEnd, kind === FAST_INFERRED);
    if (kind === FAST_TIME) return this.timeCell(c, b, s, lineEnd);
    if (kind === FAST_DICT) return this.dictCell(c, b, s, lineEnd);
    return this.textCell(c, b, s, cellEnd(b, s, lineEnd));
  }

  /**
   * A number cell: plain decimals of at most 15 digits read here (as scanDecimal does), others as text.
   * In an inferred column, a leading zero ("007", an id) goes the text way too, as InferredNumberBuilder says.
   */
  private numberCell(c: number, b: Uint8Array, pos: number, end: number, inferred: boolean): number {
    let p = pos;
    const neg = p < end && b[p] === 45; /* - */
    if (neg) p++;
    if (inferred && b[p] === 48 /* 0 */ && p + 1 < end && b[p + 1] !== 46 /* . */ && b[p + 1] !== COMMA) {
      const e = cellEnd(b, p, end);
      this.textCell(c, b, pos, e);
      return e;
    }
    let m = 0;
    let digits = 0;
    let frac = -1;
    for (; p < end; p++) {
      const x = b[p];
      if (x >= 48 && x <= 57) {
        m = m * 10 + (x - 48);
        digits++;
        if (frac >= 0) frac++;
      } else if (x === 46 /* . */ && frac < 0) frac = 0;
      else break;
    }
    if (p === end || b[p] === COMMA) {
      const builder = this.builders[c] as NumberBuilder;
      if (p === pos) {
        builder.pushNumber(Number.NaN);
        return p;
      }
      if (digits > 0 && digits <= 15) {
        builder.pushDecimal(m, Math.max(frac, 0), neg);
        return p;
      }
    }
    const e = cellEnd(b, p, end);
    this.textCell(c, b, pos, e);
    return e;
  }

  private timeCell(c: number, b: Uint8Array, pos: number, end: number): number {
    // The service's times are 24 bytes (2026-11-25T22:50:00.819Z): where such a cell would end is tried
    // first, before scanning for its comma. isoBytesToMs accepts no comma inside, so a valid time there is
    // the whole cell.
    const e24 = pos + ISO_MS_BYTES;
    if (e24 === end || (e24 < end && b[e24] === COMMA)) {
      const t = isoBytesToMs(b, pos, e24);
      if (!Number.isNaN(t)) {
        (this.builders[c] as TimeBuilder).pushTime(t);
        return e24;
      }
    }
    const e = cellEnd(b, pos, end);
    const t = e === pos ? Number.NaN : isoBytesToMs(b, pos, e);
    if (e === pos || !Number.isNaN(t)) (this.builders[c] as TimeBuilder).pushTime(t);
    else this.textCell(c, b, pos, e);
    return e;
  }

  private dictCell(c: number, b: Uint8Array, pos: number, end: number): number {
    const seen = this.seen[c]!;
    // The text that came after the last one (ids cycling in the same order), then the last one again (a run).
    let same = seen.matchNext(b, pos, end, COMMA);
    if (same <= pos) same = seen.matchLast(b, pos, end, COMMA);
    if (same > pos) {
      (this.builders[c] as DictBuilder).pushCode(seen.lastCode);
      return same;
    }
    let h = 0;
    let bits = 0;
    let p = pos;
    for (; p < end; p++) {
      const x = b[p];
      if (x === COMMA) break;
      h = (Math.imul(h, 31) + x) | 0;
      bits |= x;
    }
    if (bits >= 0x80) {
      this.textCell(c, b, pos, p); // not ASCII: decoded every time
      return p;
    }
    const builder = this.builders[c] as DictBuilder;
    if (p === pos) {
      builder.pushCode(-1);
      return p;
    }
    const code = seen.get(h, b, pos, p);
    if (code >= 0) {
      builder.pushCode(code);
      return p;
    }
    builder.push(this.utf8.decode(b.subarray(pos, p)));
    seen.add(h, b, pos, p, builder.lastCode);
    return p;
  }

  /** Any other cell: decoded and pushed as text (a cell that does not fit demotes its column). */
  private textCell(c: number, b: Uint8Array, pos: number, e: number): number {
    const cell = e === pos ? '' : this.utf8.decode(b.subarray(pos, e));
    if (!this.builders[c].push(cell)) this.demote(c, cell);
    return e;
  }

  finish(): Table {
    if (this.head) return this.head;
    const headers = this.headers ?? [];
    const columns = this.builders.map((b, i) => {
      const info = this.infos[i];
      return b.finish({ name: headers[i], canonical: info.canonical, metric: info.metric });
    });
    const table = { columns, rowCount: this.rows };
    // Once full, the builders take no more cells: the columns are final (and finished only once).
    if (this.full) this.head = table;
    return table;
  }
}
