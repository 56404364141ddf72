// The one columnar Table that every result becomes (csv-wide, json-long, parquet-wide, datasources).
// Times and numbers live in Float64Arrays (NaN = empty cell), numbers read from csv text as exact
// scaled Int16 or Int32 decimals where they fit (a quarter or half the memory); repeated text is dictionary-encoded, so a
// million rows cost a few typed arrays, not a million objects.
import type { MetricLabelParts } from '../metrics/labels';
import { type DecimalInts, decimalAt, decimalEmptyOf, decimalsToFloat64 } from './decimal';

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
export interface FloatColumn extends ColumnBase {
  kind: 'number' | 'time';
  values: Float64Array;
  ints?: undefined;
}

/**
 * Numbers as scaled integers (core/table/decimal): the value of row i is ints[i] / 10^scale, exactly the
 * double of the decimal text; the array type's least value marks an empty cell (decimalEmptyOf). Read
 * values with numberAt or floatValues.
 */
export interface DecimalColumn extends ColumnBase {
  kind: 'number';
  ints: DecimalInts;
  scale: number;
  values?: undefined;
}

export type NumericColumn = FloatColumn | DecimalColumn;

/**
 * Dictionary codes: Int16 while the dictionary has at most DICT16_CODES texts (half the memory; the csv
 * reader's builders), Int32 past it and wherever a table is put together from others. -1 marks an empty
 * cell in both.
 */
export type DictCodes = Int16Array | Int32Array;

/** The most texts a dictionary with Int16 codes holds (codes 0..32767). */
export const DICT16_CODES = 32768;

/** Dictionary-encoded text: codes[i] indexes dict, -1 marks an empty cell. */
export interface DictColumn extends ColumnBase {
  kind: 'identifier' | 'status' | 'qcAssessment' | 'text';
  dict: string[];
  codes: DictCodes;
}

/** qcFlags cells parsed from their JSON text; dict holds each distinct flag list once. */
export interface FlagsColumn extends ColumnBase {
  kind: 'qcFlags';
  dict: string[][];
  codes: DictCodes;
}

export type Column = NumericColumn | DictColumn | FlagsColumn;

export interface Table {
  columns: Column[];
  rowCount: number;
}

export function isNumeric(column: Column): column is NumericColumn {
  return column.kind === 'number' || column.kind === 'time';
}

export function isDecimal(column: Column): column is DecimalColumn {
  return (column as Partial<DecimalColumn>).ints !== undefined;
}

/** The value of a row of a number or time column (NaN when empty). */
export function numberAt(column: NumericColumn, row: number): number {
  return column.ints ? decimalAt(column.ints, row, column.scale) : column.values[row];
}

/** Whether a row of a number or time column is empty. */
export function isEmptyAt(column: NumericColumn, row: number): boolean {
  return column.ints ? column.ints[row] === decimalEmptyOf(column.ints) : Number.isNaN(column.values[row]);
}

/** `column` with the canonical name and metric of `meta`, where it has them. */
export function withMeta<T extends Column>(meta: Pick<ColumnBase, 'canonical' | 'metric'>, column: T): T {
  if (meta.canonical !== undefined) column.canonical = meta.canonical;
  if (meta.metric !== undefined) column.metric = meta.metric;
  return column;
}

/** A Float64 column with the name, kind and metric of `column` and the given values. */
export function withFloatValues(column: NumericColumn, values: Float64Array): FloatColumn {
  return withMeta<FloatColumn>(column, { name: column.name, kind: column.kind, values });
}

/**
 * Every value of a number or time column as Float64 (NaN when empty): the column's own array, or for a
 * decimal column a new one (8 bytes a row: for whole-column work such as sorting, not for a row's value).
 */
export function floatValues(column: NumericColumn): Float64Array {
  return column.ints ? decimalsToFloat64(column.ints, column.scale) : column.values;
}

/** The cell as text: ISO 8601 for times, the plain number, flags as a JSON array, '' when empty. */
export function cellText(column: Column, row: number): string {
  switch (column.kind) {
    case 'number': {
      const v = numberAt(column, row);
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

/**
 * The column a name means whatever the QC options were: its header, its canonical name, or for a metric's bare
 * name its `.value` column (a csv-wide reply names a metric's value `X` without QC fields, `X.value` with them;
 * sql cells see both names, core/sql/session). -1 when none.
 */
export function columnIndexOf(table: Table, name: string): number {
  const exact = table.columns.findIndex((c) => c.name === name);
  if (exact >= 0) return exact;
  const canonical = table.columns.findIndex((c) => c.canonical === name);
  return canonical >= 0 ? canonical : table.columns.findIndex((c) => c.name === `${name}.value`);
}

/** A result with no columns and no rows (a streamed csv reply, whose bytes went to a file or stdout). */
export function emptyTable(): Table {
  return { columns: [], rowCount: 0 };
}
