// Row selection over view positions (ranges, so "select all" on a million rows is one range),
// and the CSV of a selection with its header row.

import { tableToCsv } from '../../core/table/csv-export';
import type { Table } from '../../core/table/table';
import { takeRows } from '../../core/table/table-rows';

export interface Selection {
  /** Sorted, non-overlapping inclusive ranges of view positions. */
  ranges: Array<[number, number]>;
  /** Where shift-click extends from. */
  anchor?: number;
}

export function emptySelection(): Selection {
  return { ranges: [] };
}

function normalize(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = ranges
    .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as [number, number])
    .sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

export function isSelected(selection: Selection, pos: number): boolean {
  for (const [a, b] of selection.ranges) if (pos >= a && pos <= b) return true;
  return false;
}

export function selectionSize(selection: Selection): number {
  return selection.ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
}

/** A click: plain replaces, toggle (ctrl/cmd) adds or removes, extend (shift) selects from the anchor. */
export function clickSelect(selection: Selection, pos: number, how: 'replace' | 'toggle' | 'extend'): Selection {
  if (how === 'extend' && selection.anchor !== undefined) {
    return { ranges: [[Math.min(selection.anchor, pos), Math.max(selection.anchor, pos)]], anchor: selection.anchor };
  }
  if (how === 'toggle') {
    if (!isSelected(selection, pos)) return { ranges: normalize([...selection.ranges, [pos, pos]]), anchor: pos };
    const ranges: Array<[number, number]> = [];
    for (const [a, b] of selection.ranges) {
      if (pos < a || pos > b) ranges.push([a, b]);
      else {
        if (a <= pos - 1) ranges.push([a, pos - 1]);
        if (pos + 1 <= b) ranges.push([pos + 1, b]);
      }
    }
    return { ranges, anchor: pos };
  }
  return { ranges: [[pos, pos]], anchor: pos };
}

export function selectAll(count: number): Selection {
  return count > 0 ? { ranges: [[0, count - 1]], anchor: 0 } : emptySelection();
}

/** The selected rows as CSV with the header row (the core's CSV export); full precision, times in ISO 8601 UTC. */
export function selectionToCsv(table: Table, viewRows: Uint32Array, selection: Selection): string {
  const rows: number[] = [];
  for (const [a, b] of selection.ranges)
    for (let pos = a; pos <= b && pos < viewRows.length; pos++) rows.push(viewRows[pos]);
  return tableToCsv(takeRows(table, rows));
}
