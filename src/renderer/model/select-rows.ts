// A new Table holding the given rows in the given order (the view a user saves, or the head of a big result).
import { type Column, isNumeric, type Table } from '../../core/table/table';

export function selectRows(table: Table, rows: ArrayLike<number>): Table {
  const n = rows.length;
  const columns = table.columns.map((c): Column => {
    if (isNumeric(c)) {
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) values[i] = c.values[rows[i]];
      return { ...c, values };
    }
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = c.codes[rows[i]];
    return { ...c, codes } as Column;
  });
  return { columns, rowCount: n };
}

export function headRows(table: Table, count: number): Table {
  const n = Math.min(count, table.rowCount);
  const rows = new Uint32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return selectRows(table, rows);
}
