import assert from 'node:assert/strict';
import type { Column, Table } from '../../../../src/core/table/table';
import { UTC } from '../../../../src/core/time/zone';
import {
  columnPredicate,
  filterProblems,
  filterRows,
  globalPredicate,
  parseColumnFilter,
} from '../../../../src/renderer/model/filter';
import { dictionaryRanks, identityRows, sortRows } from '../../../../src/renderer/model/sort';
import { computeViewRows, emptyViewState, nextSort, rowCountText } from '../../../../src/renderer/model/table-view';
import { HOSTILE_ID, syntheticTable } from '../../../support/synthetic-table';

const num = (name: string, values: number[]): Column => ({ name, kind: 'number', values: Float64Array.from(values) });
const ids = (name: string, dict: string[], codes: number[]): Column => ({
  name,
  kind: 'identifier',
  dict,
  codes: Int32Array.from(codes),
});

function small(): Table {
  return {
    rowCount: 6,
    columns: [
      ids('datasourceId', ['D2', 'D10', 'D1'], [0, 1, 2, 0, -1, 1]),
      num('value', [3, Number.NaN, -1, 3, 10, 2]),
      {
        name: 'time',
        kind: 'time',
        values: Float64Array.from([0, 60_000, 120_000, 180_000, 240_000, 300_000].map((d) => Date.UTC(2026, 0, 1) + d)),
      },
    ],
  };
}

describe('renderer sorting', () => {
  it('sorts numbers ascending and descending with empty cells last both ways', () => {
    const t = small();
    assert.deepEqual([...sortRows(identityRows(6), t.columns[1], 6, 'asc')], [2, 5, 0, 3, 4, 1]);
    assert.deepEqual([...sortRows(identityRows(6), t.columns[1], 6, 'desc')], [4, 0, 3, 5, 2, 1]);
  });

  it('is stable: ties keep the incoming order', () => {
    const t = small();
    const incoming = Uint32Array.from([3, 0, 1, 2, 4, 5]);
    const sorted = sortRows(incoming, t.columns[1], 6, 'asc');
    assert.deepEqual([...sorted].slice(2, 4), [3, 0]);
  });

  it('sorts dictionary text numeric-aware (D2 before D10), empty last', () => {
    const t = small();
    assert.deepEqual([...dictionaryRanks(['D2', 'D10', 'D1'])], [1, 2, 0]);
    assert.deepEqual([...sortRows(identityRows(6), t.columns[0], 6, 'asc')], [2, 0, 3, 1, 5, 4]);
  });

  it('sorts only the given (filtered) rows', () => {
    const t = small();
    assert.deepEqual([...sortRows(Uint32Array.from([5, 0, 2]), t.columns[1], 6, 'desc')], [0, 5, 2]);
  });

  it('cycles header clicks asc -> desc -> none, and a new column starts asc', () => {
    assert.deepEqual(nextSort(undefined, 2), { column: 2, direction: 'asc' });
    assert.deepEqual(nextSort({ column: 2, direction: 'asc' }, 2), { column: 2, direction: 'desc' });
    assert.equal(nextSort({ column: 2, direction: 'desc' }, 2), undefined);
    assert.deepEqual(nextSort({ column: 2, direction: 'desc' }, 1), { column: 1, direction: 'asc' });
  });

  it('sorts a million rows by a number column into non-decreasing order', () => {
    const t = syntheticTable(1_000_000);
    const col = t.columns.findIndex((c) => c.name === 'pm2_5ConcMassIndividual.value');
    const rows = computeViewRows(t, { ...emptyViewState(), sort: { column: col, direction: 'asc' } });
    assert.equal(rows.length, 1_000_000);
    const values = (t.columns[col] as { values: Float64Array }).values;
    let seenEmpty = false;
    for (let i = 1; i < rows.length; i++) {
      const a = values[rows[i - 1]];
      const b = values[rows[i]];
      if (Number.isNaN(b)) seenEmpty = true;
      else assert.ok(!seenEmpty && a <= b, `order broken at ${i}`);
    }
  });
});

describe('renderer filtering', () => {
  it('parses the per-column filter syntax', () => {
    const n = num('v', []);
    assert.deepEqual(parseColumnFilter('>= 5', n), { kind: 'compare', op: '>=', value: 5 });
    assert.deepEqual(parseColumnFilter('2..4', n), { kind: 'range', min: 2, max: 4, openMax: false });
    assert.deepEqual(parseColumnFilter('-2 ..< 4', n), { kind: 'range', min: -2, max: 4, openMax: true });
    assert.deepEqual(parseColumnFilter('!empty', n), { kind: 'empty', negate: true });
    assert.deepEqual(parseColumnFilter('=D1', ids('d', [], [])), { kind: 'equals', text: 'd1' });
    assert.deepEqual(parseColumnFilter('!d1', ids('d', [], [])), { kind: 'contains', text: 'd1', negate: true });
    assert.equal(parseColumnFilter('   ', n), undefined);
  });

  it('marks a comparison or range whose operand is not a number (time) invalid, saying what the filter accepts', () => {
    const n = num('pm', []);
    const bad = parseColumnFilter('>abc', n);
    assert.deepEqual(bad, {
      kind: 'invalid',
      message: '"abc" is not a number. This filter accepts: text, =exact, !not, empty, !empty, >5, <=5, 5..10, 5..<10',
    });
    assert.equal(parseColumnFilter('1..x', n)?.kind, 'invalid');
    assert.match(
      (parseColumnFilter('<= tomorrow', small().columns[2]) as { message: string }).message,
      /^"tomorrow" is not an ISO date\/time\. This filter accepts: .*>2026-11-21T10:00/,
    );
    // Text columns have no comparisons: '>' is text to look for there.
    assert.deepEqual(parseColumnFilter('>abc', ids('d', [], [])), { kind: 'contains', text: '>abc', negate: false });
    const t = small();
    const state = {
      global: '',
      columns: new Map([
        [0, 'D1'],
        [1, '>abc'],
      ]),
    };
    assert.equal(filterRows(t, state, UTC).length, 0, 'an invalid filter matches no row');
    assert.deepEqual(filterProblems(t, state), [{ column: 1, message: `Filter of value: ${bad.message}` }]);
    assert.deepEqual(filterProblems(t, { global: '', columns: new Map([[1, '>2']]) }), []);
  });

  it('filters by comparison, range, emptiness, equality and negation', () => {
    const t = small();
    const rows = (col: number, text: string) =>
      filterRows(t, { global: '', columns: new Map([[col, text]]) }, UTC).join(',');
    assert.equal(rows(1, '>2'), '0,3,4');
    assert.equal(rows(1, '2..3'), '0,3,5');
    // A half-open range (a histogram bin of model/insights) leaves its upper edge out.
    assert.equal(rows(1, '2..<3'), '5');
    assert.equal(rows(1, 'empty'), '1');
    assert.equal(rows(0, '=d1'), '2');
    assert.equal(rows(0, 'd1'), '1,2,5');
    assert.equal(rows(0, '!d1'), '0,3,4');
    assert.equal(rows(0, 'empty'), '4');
  });

  it('compares time columns with ISO times (UTC unless a zone is given)', () => {
    const t = small();
    const f = parseColumnFilter('>=2026-01-01 00:03', t.columns[2]);
    assert.deepEqual(f, { kind: 'compare', op: '>=', value: Date.UTC(2026, 0, 1, 0, 3) });
    const p = columnPredicate(t.columns[2], f!, UTC);
    assert.deepEqual([0, 1, 2, 3, 4, 5].filter(p), [3, 4, 5]);
  });

  it('combines the global box with column filters (AND), matching case-insensitively', () => {
    const t = small();
    assert.equal(filterRows(t, { global: 'D1', columns: new Map() }, UTC).join(','), '1,2,5');
    assert.equal(filterRows(t, { global: 'd1', columns: new Map([[1, '>0']]) }, UTC).join(','), '5');
  });

  it('matches numbers and times in the global box only when the text has a digit', () => {
    const t = small();
    assert.equal(globalPredicate(t, '  ', UTC), undefined);
    assert.equal(filterRows(t, { global: '10', columns: new Map() }, UTC).join(','), '1,4,5');
    assert.equal(filterRows(t, { global: '00:05', columns: new Map() }, UTC).join(','), '5');
  });

  it('finds a hostile id as plain text', () => {
    const t = syntheticTable(2000);
    const rows = filterRows(t, { global: 'onerror=alert', columns: new Map() }, UTC);
    assert.equal(rows.length, 2000 / 500);
    const idCol = t.columns[0] as { dict: string[]; codes: Int32Array };
    assert.equal(idCol.dict[idCol.codes[rows[0]]], HOSTILE_ID);
  });

  it('says how many rows are shown of how many', () => {
    assert.equal(rowCountText(1_000_000, 1_000_000), '1,000,000 rows');
    assert.equal(rowCountText(12, 1_000_000), '12 of 1,000,000 rows');
    assert.equal(rowCountText(1, 1), '1 row');
  });
});
