// The rows a user sees: the table filtered, then sorted. Recomputed only when the filter or sort changes.
import type { Table } from '../../core/table/table';
import { UTC } from '../../core/time/zone';
import { type FilterState, filterRows } from './filter';
import type { TimeZoneMode } from './format';
import { type SortSpec, sortRows } from './sort';

export interface ViewState {
  filter: FilterState;
  sort?: SortSpec;
  timeZone: TimeZoneMode;
}

export function emptyViewState(): ViewState {
  return { filter: { global: '', columns: new Map() }, timeZone: UTC };
}

/** View position -> table row. */
export function computeViewRows(table: Table, state: ViewState): Uint32Array {
  const rows = filterRows(table, state.filter, state.timeZone);
  if (!state.sort) return rows;
  const column = table.columns[state.sort.column];
  return column ? sortRows(rows, column, table.rowCount, state.sort.direction) : rows;
}

/** Clicking a header cycles ascending -> descending -> unsorted. */
export function nextSort(current: SortSpec | undefined, column: number): SortSpec | undefined {
  if (!current || current.column !== column) return { column, direction: 'asc' };
  if (current.direction === 'asc') return { column, direction: 'desc' };
  return undefined;
}

/** "1,000,000 rows" or "12 of 1,000,000 rows". */
export function rowCountText(shown: number, total: number): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const noun = total === 1 ? 'row' : 'rows';
  return shown === total ? `${fmt(total)} ${noun}` : `${fmt(shown)} of ${fmt(total)} ${noun}`;
}
