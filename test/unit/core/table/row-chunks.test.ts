import assert from 'node:assert/strict';
import { headRowCount, sliceRows, TableAssembler } from '../../../../src/core/table/row-chunks';
import { cellText, floatValues, isDecimal, isNumeric, type Table } from '../../../../src/core/table/table';
import { decodeTable, encodedTableBytes, encodeTable } from '../../../../src/core/table/wire';
import { syntheticTable } from '../../../support/synthetic-table';

/** Row ranges of `rowsPerChunk` from `start` to `total`: how the renderer asks for the rest (loadRest). */
function chunkRanges(start: number, total: number, rowsPerChunk: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const step = Math.max(1, Math.floor(rowsPerChunk));
  for (let at = start; at < total; at += step) out.push([at, Math.min(total, at + step)]);
  return out;
}

/** Every cell of two tables as text, column by column (same names and kinds required). */
function assertSameCells(actual: Table, expected: Table): void {
  assert.equal(actual.rowCount, expected.rowCount);
  assert.deepEqual(
    actual.columns.map((c) => [c.name, c.kind]),
    expected.columns.map((c) => [c.name, c.kind]),
  );
  for (const [i, c] of expected.columns.entries()) {
    for (let r = 0; r < expected.rowCount; r++) {
      assert.equal(cellText(actual.columns[i], r), cellText(c, r), `${c.name} row ${r}`);
    }
  }
}

/** A table with a text column whose values differ per range, empty cells, and qcFlags lists. */
function mixedTable(rows: number): Table {
  const codes = new Int32Array(rows);
  const flagCodes = new Int32Array(rows);
  const values = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    codes[r] = r % 11 === 0 ? -1 : Math.floor(r / 3) % 40;
    flagCodes[r] = r % 5 === 0 ? -1 : r % 3;
    values[r] = r % 7 === 0 ? Number.NaN : r * 1.5;
  }
  return {
    rowCount: rows,
    columns: [
      { name: 'note', kind: 'text', dict: Array.from({ length: 40 }, (_, i) => `v${i} ✓`), codes },
      { name: 'flags', kind: 'qcFlags', dict: [['A'], ['A', 'B'], []], codes: flagCodes },
      { name: 'x', kind: 'number', values },
    ],
  };
}

describe('progressive outputs: row chunks', () => {
  it('slices rows with only the dictionary entries they use, and the cells unchanged', () => {
    const t = mixedTable(300);
    const s = sliceRows(t, 30, 45);
    assert.equal(s.rowCount, 15);
    const note = s.columns[0] as { dict: string[] };
    assert.ok(note.dict.length <= 6, `compact dictionary: ${note.dict.length}`);
    for (const [i, c] of t.columns.entries())
      for (let r = 0; r < 15; r++) assert.equal(cellText(s.columns[i], r), cellText(c, 30 + r));
    assert.equal(sliceRows(t, 290, 400).rowCount, 10, 'clipped at the end');
    assert.equal(sliceRows(t, 500, 600).rowCount, 0);
  });

  it('takes the first rows that fit a byte budget, or every row when the table fits', () => {
    const t = syntheticTable(20_000, 50);
    const bytes = encodedTableBytes(t);
    assert.equal(headRowCount(t, bytes), t.rowCount);
    const head = headRowCount(t, Math.floor(bytes / 10));
    assert.ok(head > 1_500 && head < 2_100, `about a tenth: ${head}`);
    assert.ok(encodedTableBytes(sliceRows(t, 0, head)) <= Math.floor(bytes / 10), 'the head fits, header and all');
    // A small budget, where the header and dictionaries weigh more than the average row says.
    const small = headRowCount(t, 40_000);
    assert.ok(encodedTableBytes(sliceRows(t, 0, small)) <= 40_000);
    assert.ok(encodedTableBytes(sliceRows(t, 0, small + 40)) > 40_000 * 0.98, `close to the budget: ${small}`);
    assert.equal(headRowCount(t, 1), 1, 'at least one row');
    assert.equal(headRowCount({ columns: [], rowCount: 0 }, 0), 0);
  });

  it('covers the rest in ranges', () => {
    assert.deepEqual(chunkRanges(10, 35, 10), [
      [10, 20],
      [20, 30],
      [30, 35],
    ]);
    assert.deepEqual(chunkRanges(35, 35, 10), []);
  });

  it('assembles the head and the wire-encoded chunks into the whole table, growing one Table object', () => {
    for (const t of [mixedTable(1_003), syntheticTable(2_500, 37)]) {
      const headRows = 100;
      const a = new TableAssembler(decodeTable(encodeTable(sliceRows(t, 0, headRows))), t.rowCount);
      const table = a.table;
      const firstColumn = table.columns[0];
      assert.equal(a.loaded, headRows);
      for (const [start, end] of chunkRanges(headRows, t.rowCount, 257)) {
        a.append(decodeTable(encodeTable(sliceRows(t, start, end))));
        assert.equal(table.rowCount, end);
        for (const c of table.columns) assert.equal(isNumeric(c) ? floatValues(c).length : c.codes.length, end);
      }
      assert.ok(a.complete);
      assert.equal(a.table, table, 'the same Table object');
      assert.equal(table.columns[0], firstColumn, 'the same Column objects');
      assertSameCells(table, t);
    }
  });

  it('never grows past the announced row count, and a column missing from a chunk stays empty', () => {
    const t = mixedTable(50);
    const a = new TableAssembler(sliceRows(t, 0, 10), 30);
    a.append({ rowCount: 40, columns: [sliceRows(t, 10, 50).columns[2]] });
    assert.equal(a.loaded, 30);
    assert.ok(a.complete);
    assert.equal(cellText(a.table.columns[0], 20), '', 'note not sent: empty');
    assert.equal(cellText(a.table.columns[2], 20), cellText(t.columns[2], 20));
  });

  it('slices decimal columns as Int32s and assembles them, head and chunks, into Float64 values', () => {
    const ints = Int32Array.from({ length: 500 }, (_, r) => (r % 9 === 0 ? -2147483648 : r * 25 - 3000));
    const table: Table = { rowCount: 500, columns: [{ name: 'pm', kind: 'number', ints, scale: 2 }] };
    const part = sliceRows(table, 100, 200).columns[0];
    assert.ok(isDecimal(part) && part.ints.length === 100 && part.scale === 2);
    const assembler = new TableAssembler(sliceRows(table, 0, 120), 500);
    for (const [from, to] of chunkRanges(120, 500, 97))
      assembler.append(decodeTable(encodeTable(sliceRows(table, from, to))));
    assembler.append(sliceRows(table, 0, 0));
    assert.ok(assembler.complete);
    const all = assembler.table.columns[0];
    assert.ok(isNumeric(all) && !isDecimal(all));
    assert.deepEqual(
      Array.from(floatValues(all)),
      Array.from(ints, (x) => (x === -2147483648 ? Number.NaN : x / 100)),
    );
  });
});
