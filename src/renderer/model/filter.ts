// Filters: a global text box (any cell contains the text) and per-column filters with a small syntax:
//   text        cell contains text (case-insensitive)       =text   cell equals text
//   !text       cell does not contain text                  empty / !empty
//   >5 >=5 <5 <=5   numeric (or time) comparisons            5..10  inclusive range   5..<10  10 excluded
// Matching uses the displayed text (so what a user sees is what they filter), and works per dictionary
// entry for text columns, so a million rows cost one pass over the integer codes.
import { type Column, floatValues, isNumeric, type Table } from '../../core/table/table';
import { parseIsoMs } from '../../core/time/iso';
import { displayText, formatFlags, type TimeZoneMode } from './format';

type RowPredicate = (row: number) => boolean;

type ColumnFilter =
  | { kind: 'contains'; text: string; negate: boolean }
  | { kind: 'equals'; text: string }
  | { kind: 'empty'; negate: boolean }
  | { kind: 'compare'; op: '<' | '<=' | '>' | '>='; value: number }
  /** min ≤ v ≤ max, or min ≤ v < max when `openMax` (`a..<b`: a histogram bin, model/insights). */
  | { kind: 'range'; min: number; max: number; openMax: boolean }
  /** Text that reads as a comparison or range whose operand is not a number (time): it matches no row. */
  | { kind: 'invalid'; message: string };

/** What a column's filter accepts (its input's tooltip, and the hint of an invalid filter). */
export function filterGrammar(column: Column): string {
  if (column.kind === 'time') return 'text, =exact, !not, empty, !empty, >2026-11-21T10:00, <=2026-11-21, a..b, a..<b';
  return isNumeric(column)
    ? 'text, =exact, !not, empty, !empty, >5, <=5, 5..10, 5..<10'
    : 'text (contains), =exact, !not, empty, !empty';
}

function invalidOperand(operands: string[], column: Column): ColumnFilter {
  const bad = operands.map((o) => o.trim()).find((o) => parseOperand(o, column) === undefined) ?? '';
  const want = column.kind === 'time' ? 'an ISO date/time' : 'a number';
  return {
    kind: 'invalid',
    message: `"${bad.slice(0, 40)}" is not ${want}. This filter accepts: ${filterGrammar(column)}`,
  };
}

/** Parses a comparison operand: a number, or for time columns an ISO date/time (UTC unless it says otherwise). */
export function parseOperand(text: string, column: Column): number | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (column.kind === 'time') {
    return parseIsoMs(t.replace(' ', 'T'));
  }
  const n = Number(t);
  return t !== '' && Number.isFinite(n) ? n : undefined;
}

export function parseColumnFilter(text: string, column: Column): ColumnFilter | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (/^!?empty$/i.test(t)) return { kind: 'empty', negate: t.startsWith('!') };
  if (isNumeric(column)) {
    const cmp = /^(<=|>=|<|>)\s*(.+)$/.exec(t);
    if (cmp) {
      const value = parseOperand(cmp[2], column);
      if (value !== undefined) return { kind: 'compare', op: cmp[1] as '<' | '<=' | '>' | '>=', value };
      return invalidOperand([cmp[2]], column);
    }
    const range = /^(.+?)\s*\.\.(<?)\s*(.+)$/.exec(t);
    if (range) {
      const min = parseOperand(range[1], column);
      const max = parseOperand(range[3], column);
      if (min !== undefined && max !== undefined) return { kind: 'range', min, max, openMax: range[2] === '<' };
      return invalidOperand([range[1], range[3]], column);
    }
  }
  if (t.startsWith('=')) return { kind: 'equals', text: t.slice(1).trim().toLowerCase() };
  if (t.startsWith('!')) return { kind: 'contains', text: t.slice(1).trim().toLowerCase(), negate: true };
  return { kind: 'contains', text: t.toLowerCase(), negate: false };
}

function dictText(column: Column): string[] | undefined {
  if (column.kind === 'qcFlags') return column.dict.map((f) => formatFlags(f).toLowerCase());
  if (!isNumeric(column)) return column.dict.map((d) => d.toLowerCase());
  return undefined;
}

/** A predicate for one column filter. */
export function columnPredicate(column: Column, filter: ColumnFilter, mode: TimeZoneMode): RowPredicate {
  if (filter.kind === 'invalid') return () => false;
  if (filter.kind === 'empty') {
    const emptyWanted = !filter.negate;
    if (isNumeric(column)) {
      const v = floatValues(column);
      return (r) => Number.isNaN(v[r]) === emptyWanted;
    }
    const codes = column.codes;
    return (r) => codes[r] < 0 === emptyWanted;
  }
  if (filter.kind === 'compare' || filter.kind === 'range') {
    if (!isNumeric(column)) return () => false;
    const v = floatValues(column);
    if (filter.kind === 'range') {
      const { min, max } = filter;
      return filter.openMax ? (r) => v[r] >= min && v[r] < max : (r) => v[r] >= min && v[r] <= max;
    }
    const x = filter.value;
    switch (filter.op) {
      case '<':
        return (r) => v[r] < x;
      case '<=':
        return (r) => v[r] <= x;
      case '>':
        return (r) => v[r] > x;
      default:
        return (r) => v[r] >= x;
    }
  }
  const texts = dictText(column);
  const matchText =
    filter.kind === 'equals' ? (s: string) => s === filter.text : (s: string) => s.includes(filter.text);
  const negate = filter.kind === 'contains' && filter.negate;
  if (texts && !isNumeric(column)) {
    const hit = new Uint8Array(texts.length);
    texts.forEach((s, i) => {
      hit[i] = matchText(s) !== negate ? 1 : 0;
    });
    const codes = column.codes;
    const emptyHit = matchText('') !== negate;
    return (r) => {
      const c = codes[r];
      return c < 0 ? emptyHit : hit[c] === 1;
    };
  }
  return (r) => matchText(displayText(column, r, mode).toLowerCase()) !== negate;
}

/**
 * A predicate for the global filter box: some cell contains the text. Number and time cells only take
 * part when the text has a digit (their text always has one), which keeps word searches fast on big tables.
 */
export function globalPredicate(table: Table, text: string, mode: TimeZoneMode): RowPredicate | undefined {
  const needle = text.trim().toLowerCase();
  if (!needle) return undefined;
  const withNumbers = /\d/.test(needle);
  const parts: RowPredicate[] = [];
  for (const column of table.columns) {
    if (isNumeric(column) && !withNumbers) continue;
    parts.push(columnPredicate(column, { kind: 'contains', text: needle, negate: false }, mode));
  }
  return (r) => {
    for (const p of parts) if (p(r)) return true;
    return false;
  };
}

export interface FilterState {
  global: string;
  /** Column index -> filter text. */
  columns: Map<number, string>;
}

/** The column filters of `state` that are invalid, each with its column's name and what is wrong. */
export function filterProblems(table: Table, state: FilterState): { column: number; message: string }[] {
  const out: { column: number; message: string }[] = [];
  for (const [index, text] of state.columns) {
    const column = table.columns[index];
    const f = column && parseColumnFilter(text, column);
    if (f?.kind === 'invalid') out.push({ column: index, message: `Filter of ${column.name}: ${f.message}` });
  }
  return out;
}

/** Rows (in table order) that pass every filter; all rows when no filter is set. */
export function filterRows(table: Table, state: FilterState, mode: TimeZoneMode): Uint32Array {
  const predicates: RowPredicate[] = [];
  const g = globalPredicate(table, state.global, mode);
  if (g) predicates.push(g);
  for (const [index, text] of state.columns) {
    const column = table.columns[index];
    const f = column && parseColumnFilter(text, column);
    if (f) predicates.push(columnPredicate(column, f, mode));
  }
  const n = table.rowCount;
  const out = new Uint32Array(n);
  let k = 0;
  if (!predicates.length) {
    for (let i = 0; i < n; i++) out[i] = i;
    return out;
  }
  outer: for (let r = 0; r < n; r++) {
    for (const p of predicates) if (!p(r)) continue outer;
    out[k++] = r;
  }
  return out.slice(0, k);
}
