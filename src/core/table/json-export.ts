// Table -> JSON records ([{"column": value, ...}, ...]): numbers as numbers, times as ISO 8601 UTC,
// QC flags as arrays, empty cells as null. Written in chunks of rows, like the CSV export.
import { type Column, cellText, numberAt, type Table } from './table';

function cellValue(column: Column, row: number): string | number | string[] | null {
  switch (column.kind) {
    case 'number': {
      const v = numberAt(column, row);
      return Number.isNaN(v) ? null : v;
    }
    case 'qcFlags': {
      const c = column.codes[row];
      return c < 0 ? null : column.dict[c];
    }
    default: {
      const text = cellText(column, row);
      return text === '' ? null : text;
    }
  }
}

/** The records in chunks: "[\n", then rows joined by ",\n", then "\n]\n". */
function* tableJsonChunks(table: Table, rowsPerChunk = 5000): Generator<string> {
  const keys = table.columns.map((c) => `${JSON.stringify(c.name)}:`);
  yield '[';
  for (let start = 0; start < table.rowCount; start += rowsPerChunk) {
    const end = Math.min(table.rowCount, start + rowsPerChunk);
    let out = '';
    for (let r = start; r < end; r++) {
      out += r ? ',\n{' : '\n{';
      for (let c = 0; c < keys.length; c++) {
        if (c) out += ',';
        out += keys[c] + JSON.stringify(cellValue(table.columns[c], r));
      }
      out += '}';
    }
    yield out;
  }
  yield '\n]\n';
}

export function tableToJsonRecords(table: Table): string {
  let out = '';
  for (const chunk of tableJsonChunks(table)) out += chunk;
  return out;
}
