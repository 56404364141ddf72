// Rows of csv-wide into column builders, by the header (any column order; unknown columns kept; empty
// cells stay empty): as records of text (csv-parse's), or as lines of bytes (the fast path: numbers and
// times parsed from the bytes, repeated ids found by their bytes, no string per cell). Both give the same
// Table for the same text.

import { IncompleteReplyError } from '../api/errors';
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
  ) {}

  private headers: string[] | undefined;
  private infos: ColumnInfo[] = [];
  private builders: ColumnBuilder[] = [];
  private groups: Group[] = [];
  private rows = 0;
  private skipped = 0;
  private head: Table | undefined;
  /** Per column, how addLine reads its cells (FAST_*), from its builder's class. */
  private fast = new Uint8Array(0);
  /**
   * Per dictionary column, codes of its texts by a hash of their bytes: a repeated id is neither decoded
   * nor looked up by its text again (the code's text is compared with the bytes, for hash collisions).
   */
  private seen: Array<ByteCodes | undefined> = [];
  private readonly utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

  /** maxRows rows are kept: the rest is only counted (skip()). */
  get full(): boolean {
    return this.headers !== undefined && this.rows >= this.maxRows;
  }

  /** Every data row seen, kept or not. */
  get totalRows(): number {
    return this.rows + this.skipped;
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
      this.headers = record;
      this.infos = record.map(classifyColumn);
      // Unknown columns start as numbers and demote to text at the first cell that is not one.
      this.builders = this.infos.map((i) => (i.inferred ? new InferredNumberBuilder() : builderFor(i.kind)));
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
    if (this.full) {
      this.skip();
      return;
    }
    if (!this.headers) {
      this.add(this.utf8.decode(b.subarray(start, end)).split(','));
      return;
    }
    const n = this.builders.length;
    const fast = this.fast;
    let pos = start;
    let c = 0;
    for (;;) {
      const kind = fast[c];
      const p =
        pos === end || b[pos] === COMMA
          ? this.emptyCell(c, kind, pos)
          : kind === FAST_NUMBER || kind === FAST_INFERRED
            ? this.numberCell(c, b, pos, end, kind === FAST_INFERRED)
            : kind === FAST_TIME
              ? this.timeCell(c, b, pos, end)
              : kind === FAST_DICT
                ? this.dictCell(c, b, pos, end)
                : this.textCell(c, b, pos, pos === end ? pos : cellEnd(b, pos, end));
      c++;
      if (p >= end) break;
      if (c === n) {
        if (this.strict) throw wrongFieldCount(`${countFields(b, start, end)} fields, the header has ${n}`);
        break; // extra cells are not read
      }
      pos = p + 1;
    }
    if (c < n) {
      if (this.strict) throw wrongFieldCount(`${c} fields, the header has ${n}`);
      for (; c < n; c++) this.builders[c].pushEmpty(1);
    }
    this.rows++;
  }

  /** An empty cell (a third of a recent query's cells: metrics a datasource does not report). */
  private emptyCell(c: number, kind: number, pos: number): number {
    const builder = this.builders[c];
    if (kind === FAST_NUMBER || kind === FAST_INFERRED) (builder as NumberBuilder).pushNumber(Number.NaN);
    else if (kind === FAST_TIME) (builder as TimeBuilder).pushTime(Number.NaN);
    else if (kind === FAST_DICT) (builder as DictBuilder).pushCode(-1);
    else if (!builder.push('')) this.demote(c, '');
    return pos;
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
    const e = cellEnd(b, pos, end);
    const t = e === pos ? Number.NaN : isoBytesToMs(b, pos, e);
    if (e === pos || !Number.isNaN(t)) (this.builders[c] as TimeBuilder).pushTime(t);
    else this.textCell(c, b, pos, e);
    return e;
  }

  private dictCell(c: number, b: Uint8Array, pos: number, end: number): number {
    const seen = this.seen[c]!;
    let same = seen.matchLast(b, pos, end, COMMA);
    if (same <= pos) same = seen.matchNext(b, pos, end, COMMA);
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
