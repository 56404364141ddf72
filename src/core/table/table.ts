// The one columnar Table that every result becomes (csv-wide, json-long, parquet-wide, datasources).
// Numbers and times live in Float64Arrays (NaN = empty cell); repeated text is dictionary-encoded,
// so a million rows cost a few typed arrays, not a million objects.
import type { MetricLabelParts } from '../metrics/labels';

export type ColumnKind = 'identifier' | 'time' | 'number' | 'status' | 'qcAssessment' | 'qcFlags' | 'text';

interface ColumnBase {
  /** The header as the service sent it. */
  name: string;
  /** Canonical name when known: 'startOfPeriod' for 'Start of Period', `<label>.<field>` for metric columns. */
  canonical?: string;
  /** Metric label parts when the header is a (canonical or english) metric label. */
  metric?: MetricLabelParts;
}

/** number: the value; time: epoch milliseconds (UTC). NaN marks an empty cell. */
export interface NumericColumn extends ColumnBase {
  kind: 'number' | 'time';
  values: Float64Array;
}

/** Dictionary-encoded text: codes[i] indexes dict, -1 marks an empty cell. */
export interface DictColumn extends ColumnBase {
  kind: 'identifier' | 'status' | 'qcAssessment' | 'text';
  dict: string[];
  codes: Int32Array;
}

/** qcFlags cells parsed from their JSON text; dict holds each distinct flag list once. */
export interface FlagsColumn extends ColumnBase {
  kind: 'qcFlags';
  dict: string[][];
  codes: Int32Array;
}

export type Column = NumericColumn | DictColumn | FlagsColumn;

export interface Table {
  columns: Column[];
  rowCount: number;
}

export function isNumeric(column: Column): column is NumericColumn {
  return column.kind === 'number' || column.kind === 'time';
}

/** The cell as text: ISO 8601 for times, the plain number, flags as a JSON array, '' when empty. */
export function cellText(column: Column, row: number): string {
  switch (column.kind) {
    case 'number': {
      const v = column.values[row];
      return Number.isNaN(v) ? '' : String(v);
    }
    case 'time': {
      const v = column.values[row];
      return Number.isNaN(v) ? '' : new Date(v).toISOString();
    }
    case 'qcFlags': {
      const c = column.codes[row];
      return c < 0 ? '' : JSON.stringify(column.dict[c]);
    }
    default: {
      const c = column.codes[row];
      return c < 0 ? '' : column.dict[c];
    }
  }
}

export function columnByName(table: Table, name: string): Column | undefined {
  return table.columns.find((c) => c.name === name);
}

/** A column by its header or its canonical name (header wins). */
export function findColumn(table: Table, name: string): Column | undefined {
  return columnByName(table, name) ?? table.columns.find((c) => c.canonical === name);
}

/** A result with no columns and no rows (a streamed csv reply, whose bytes went to a file or stdout). */
export function emptyTable(): Table {
  return { columns: [], rowCount: 0 };
}
