// Row selection and concatenation over the columnar Table (no per-row objects): follow keeps new
// rows only and appends them; report cells join the tables of several files.

import { dictValueKey, Interner } from './interner';
import {
  type Column,
  type FloatColumn,
  findColumn,
  isDecimal,
  isNumeric,
  numberAt,
  type Table,
  withFloatValues,
} from './table';

/** The elements of `source` at `rows`, in that order, in an array of the same kind. */
function gather<T extends Float64Array | Int32Array | Int16Array>(source: T, rows: ArrayLike<number>): T {
  const out = new (source.constructor as new (n: number) => T)(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = source[rows[i]];
  return out;
}

/** A table of the given rows of `table`, in that order. */
export function takeRows(table: Table, rows: ArrayLike<number>): Table {
  const columns = table.columns.map((c): Column => {
    if (isDecimal(c)) return { ...c, ints: gather(c.ints, rows) };
    if (isNumeric(c)) return { ...c, values: gather(c.values, rows) };
    return { ...c, codes: gather(c.codes, rows) } as Column;
  });
  return { columns, rowCount: rows.length };
}

/** Concatenates tables; columns are matched by name (union, in first-seen order); missing cells are empty. */
export function concatTables(tables: readonly Table[]): Table {
  const nonEmpty = tables.filter((t) => t.columns.length > 0);
  if (nonEmpty.length === 0) return { columns: [], rowCount: 0 };
  if (nonEmpty.length === 1) return nonEmpty[0];
  const rowCount = nonEmpty.reduce((n, t) => n + t.rowCount, 0);
  const templates = new Map<string, Column>();
  for (const t of nonEmpty) for (const c of t.columns) if (!templates.has(c.name)) templates.set(c.name, c);
  const columns: Column[] = [];
  for (const [name, template] of templates) {
    if (isNumeric(template)) {
      const values = new Float64Array(rowCount).fill(Number.NaN);
      let at = 0;
      for (const t of nonEmpty) {
        const c = t.columns.find((x) => x.name === name);
        if (c && isNumeric(c)) for (let i = 0; i < t.rowCount; i++) values[at + i] = numberAt(c, i);
        at += t.rowCount;
      }
      columns.push(withFloatValues(template, values));
      continue;
    }
    // Dictionaries are merged; text and flag dictionaries are keyed by their JSON text.
    const dict = new Interner<unknown>(dictValueKey);
    const codes = new Int32Array(rowCount).fill(-1);
    let at = 0;
    for (const t of nonEmpty) {
      const c = t.columns.find((x) => x.name === name);
      if (c && !(c.kind === 'number' || c.kind === 'time') && c.kind === template.kind) {
        const remap = (c.dict as unknown[]).map((v) => dict.code(v));
        for (let i = 0; i < t.rowCount; i++) codes[at + i] = c.codes[i] < 0 ? -1 : remap[c.codes[i]];
      }
      at += t.rowCount;
    }
    columns.push({ ...template, dict: dict.values, codes } as Column);
  }
  return { columns, rowCount };
}

/** The time column of a measurement table: `time` (minute) or `startOfPeriod` (hour, day). */
export function timeColumn(table: Table): FloatColumn | undefined {
  for (const name of ['time', 'startOfPeriod']) {
    const c = findColumn(table, name);
    if (c && c.kind === 'time') return c;
  }
  return undefined;
}

/** Row indexes ordered by time ascending (stable), for tails that print oldest first. */
export function rowsByTimeAscending(table: Table): Int32Array {
  const rows = new Int32Array(table.rowCount);
  for (let i = 0; i < rows.length; i++) rows[i] = i;
  const t = timeColumn(table);
  if (!t) return rows;
  const v = t.values;
  return rows.sort((a, b) => v[a] - v[b] || a - b);
}

/**
 * The one default row order of time series, whatever the verb (recent replies come newest first, report files
 * and follow steps oldest first): oldest first, rows of one time in the order they came. Said in the caption.
 */
export const ROW_ORDER = 'oldest first';

/** The table in ROW_ORDER (itself when it already is, or has no time column). */
export function inTimeOrder(table: Table): Table {
  const t = timeColumn(table);
  if (!t) return table;
  const v = t.values;
  let sorted = true;
  for (let i = 1; i < table.rowCount && sorted; i++) sorted = !(v[i] < v[i - 1]);
  return sorted ? table : takeRows(table, rowsByTimeAscending(table));
}
