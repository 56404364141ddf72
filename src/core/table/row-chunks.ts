// Progressive outputs: a big Table goes to the renderer as its first rows (the head), then the rest in
// row ranges. The host slices ranges out of the Table, each with only the dictionary entries its rows
// use; the renderer's TableAssembler puts them back into one Table that grows in place (one Table object,
// its columns' arrays allocated for every row once, dictionaries merged by value).

import { decimalsToFloat64 } from './decimal';
import { dictValueKey, Interner } from './interner';
import { type Column, type FloatColumn, isDecimal, isNumeric, type Table, withFloatValues } from './table';
import { encodedTableBytes } from './wire';

/** Rows [start, end) of a table; dictionary columns carry only the entries those rows use. */
export function sliceRows(table: Table, start: number, end: number): Table {
  const from = Math.max(0, Math.min(start, table.rowCount));
  const to = Math.max(from, Math.min(end, table.rowCount));
  const columns = table.columns.map((c): Column => {
    if (isDecimal(c)) return { ...c, ints: c.ints.subarray(from, to) };
    if (isNumeric(c)) return { ...c, values: c.values.subarray(from, to) };
    const source = c.codes.subarray(from, to);
    const remap = new Map<number, number>();
    const dict: unknown[] = [];
    const codes = new Int32Array(source.length);
    for (let i = 0; i < source.length; i++) {
      const code = source[i];
      if (code < 0) {
        codes[i] = -1;
        continue;
      }
      let next = remap.get(code);
      if (next === undefined) {
        next = dict.length;
        dict.push(c.dict[code]);
        remap.set(code, next);
      }
      codes[i] = next;
    }
    return { ...c, dict, codes } as Column;
  });
  return { columns, rowCount: to - from };
}

/** Wire bytes one row takes on average (the header and dictionaries counted once). */
function bytesPerRow(table: Table): number {
  return table.rowCount > 0 ? encodedTableBytes(table) / table.rowCount : 0;
}

/**
 * How many first rows fit in `maxBytes` of wire format (at least one row when there are rows), or the
 * whole table when it fits: estimated from the average row, then lowered until the head (with its own
 * header and dictionaries) fits.
 */
export function headRowCount(table: Table, maxBytes: number): number {
  if (table.rowCount === 0 || encodedTableBytes(table) <= maxBytes) return table.rowCount;
  let n = Math.max(1, Math.min(table.rowCount, Math.floor(maxBytes / bytesPerRow(table))));
  for (let i = 0; i < 8 && n > 1; i++) {
    const size = encodedTableBytes(sliceRows(table, 0, n));
    if (size <= maxBytes) break;
    n = Math.max(1, Math.floor(((n * maxBytes) / size) * 0.995));
  }
  return n;
}

interface Slot {
  numbers?: Float64Array;
  codes?: Int32Array;
  /** The merged dictionary (its values are the column's dict). */
  dict?: Interner<unknown>;
}

/**
 * One Table that grows as row ranges arrive, in order (numbers as Float64, decimal rows converted). `table` is the same object throughout: its rowCount
 * and its columns' arrays (views of arrays allocated once for `totalRows`) advance with each append, and
 * its dictionaries only grow, so holders of the Table or of its Column objects see the new rows.
 */
export class TableAssembler {
  readonly table: Table;
  private readonly slots: Slot[];

  constructor(
    head: Table,
    readonly totalRows: number,
  ) {
    const total = Math.max(totalRows, head.rowCount);
    this.totalRows = total;
    this.slots = head.columns.map((c) => {
      if (isNumeric(c)) return { numbers: new Float64Array(total).fill(Number.NaN) };
      return { codes: new Int32Array(total).fill(-1), dict: new Interner<unknown>(dictValueKey) };
    });
    const columns = head.columns.map((c, i): Column => {
      const slot = this.slots[i];
      if (isNumeric(c)) return withFloatValues(c, (slot.numbers as Float64Array).subarray(0, 0));
      return {
        ...c,
        dict: (slot.dict as Interner<unknown>).values,
        codes: (slot.codes as Int32Array).subarray(0, 0),
      } as Column;
    });
    this.table = { columns, rowCount: 0 };
    this.append(head);
  }

  get loaded(): number {
    return this.table.rowCount;
  }

  get complete(): boolean {
    return this.table.rowCount >= this.totalRows;
  }

  /** Appends the next rows (a table of the same columns, by name); returns how many rows the table has now. */
  append(chunk: Table): number {
    const at = this.table.rowCount;
    const n = Math.min(chunk.rowCount, this.totalRows - at);
    this.table.columns.forEach((column, i) => {
      const part = chunk.columns.find((c) => c.name === column.name && c.kind === column.kind);
      this.appendColumn(column, this.slots[i], part, at, n);
    });
    this.table.rowCount = at + n;
    return this.table.rowCount;
  }

  private appendColumn(column: Column, slot: Slot, part: Column | undefined, at: number, n: number): void {
    if (isNumeric(column)) {
      const all = slot.numbers as Float64Array;
      if (part && isDecimal(part)) decimalsToFloat64(part.ints.subarray(0, n), part.scale, all, at);
      else if (part && isNumeric(part)) all.set(part.values.subarray(0, n), at);
      (column as FloatColumn).values = all.subarray(0, at + n);
      return;
    }
    const all = slot.codes as Int32Array;
    if (part && !isNumeric(part)) {
      const dict = slot.dict as Interner<unknown>;
      const remap = (part.dict as unknown[]).map((v) => dict.code(v));
      for (let i = 0; i < n; i++) {
        const code = part.codes[i];
        all[at + i] = code < 0 ? -1 : (remap[code] ?? -1);
      }
    }
    column.codes = all.subarray(0, at + n);
  }
}
