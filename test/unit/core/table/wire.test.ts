import assert from 'node:assert/strict';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { cellText, floatValues, isDecimal, isNumeric, type Table } from '../../../../src/core/table/table';
import { decodeTable, encodedTableBytes, encodeTable } from '../../../../src/core/table/wire';
import { syntheticTable } from '../../../support/synthetic-table';

describe('table wire format in node Buffers', () => {
  it('decodes a table held in a node Buffer at a misaligned offset (as the extension host hands out items)', () => {
    const table = syntheticTable(50, 5);
    const bytes = encodeTable(table);
    const pool = Buffer.alloc(bytes.length + 3);
    pool.set(bytes, 3);
    const decoded = decodeTable(pool.subarray(3));
    assert.equal(decoded.rowCount, 50);
    for (const [i, c] of table.columns.entries()) assert.equal(cellText(decoded.columns[i], 7), cellText(c, 7));
  });

  it('knows the encoded size without encoding (the controller checks the saved-output limit so)', () => {
    for (const [rows, cols] of [
      [0, 3],
      [1, 1],
      [7, 5],
      [333, 20],
    ]) {
      const table = syntheticTable(rows, cols);
      assert.equal(encodedTableBytes(table), encodeTable(table).byteLength, `${rows} x ${cols}`);
    }
    // Multi-byte header text (names, dictionaries) counts in bytes, not characters.
    const t = syntheticTable(3, 4);
    t.columns[0].name = 'µg/m³ – é';
    assert.equal(encodedTableBytes(t), encodeTable(t).byteLength);
  });

  it('carries decimal columns as their Int32s or Int16s (4 or 2 bytes a row) and decodes them to the same Float64 values', async () => {
    const rows = Array.from(
      { length: 1000 },
      (_, i) => `D${i % 7},${i % 13 === 0 ? '' : (i / 8).toFixed(3)},${i % 11 === 0 ? '' : `-${i}.5`}`,
    );
    const table = await parseCsvWide(`datasourceId,pm2_5ConcMass,temperature\n${rows.join('\n')}\n`);
    const [, wide, narrow] = table.columns;
    assert.ok(isDecimal(wide) && isDecimal(narrow));
    assert.equal(wide.ints.BYTES_PER_ELEMENT, 4, '124.875 is 124875 at scale 3');
    assert.equal(narrow.ints.BYTES_PER_ELEMENT, 2, '-999.5 is -9995 at scale 1');
    const asFloats: Table = {
      rowCount: table.rowCount,
      columns: table.columns.map((c) => (isNumeric(c) ? { name: c.name, kind: c.kind, values: floatValues(c) } : c)),
    };
    const bytes = encodeTable(table);
    assert.ok(
      bytes.byteLength <= encodeTable(asFloats).byteLength - 1000 * 4 - 1000 * 6 + 64,
      'half and a quarter of the bytes per number',
    );
    const decoded = decodeTable(bytes);
    for (const i of [1, 2]) {
      const c = decoded.columns[i];
      assert.ok(isNumeric(c) && !isDecimal(c), 'decoded to Float64');
      assert.deepEqual(Array.from(floatValues(c)), Array.from(floatValues(table.columns[i] as never)));
    }
  });

  it('carries dictionary codes as they are, Int16 (2 bytes a row) or Int32, and decodes the same cells', () => {
    const n = 1000;
    const narrow = Int16Array.from({ length: n }, (_, i) => (i % 9 === 0 ? -1 : i % 3));
    const wide = Int32Array.from(narrow);
    const dict = ['D1', 'D2', 'D3'];
    const table = (codes: Int16Array | Int32Array): Table => ({
      rowCount: n,
      columns: [{ name: 'datasourceId', kind: 'identifier', dict, codes }],
    });
    const small = encodeTable(table(narrow));
    assert.equal(encodeTable(table(wide)).byteLength - small.byteLength >= 2 * n - 16, true, '2 bytes a row less');
    for (const bytes of [small, encodeTable(table(wide))]) {
      const c = decodeTable(bytes).columns[0];
      assert.ok(!isNumeric(c));
      assert.deepEqual(
        Array.from({ length: n }, (_, i) => cellText(c, i)),
        Array.from(narrow, (code) => (code < 0 ? '' : dict[code])),
      );
    }
    assert.ok((decodeTable(small).columns[0] as { codes: unknown }).codes instanceof Int16Array);
  });

  it('refuses a decimal column whose scale is not 0..9', () => {
    const ints = Int32Array.from([125, -3]);
    for (const scale of [10, -1, 1.5]) {
      const bytes = encodeTable({ rowCount: 2, columns: [{ name: 'v', kind: 'number', ints, scale }] });
      assert.throws(() => decodeTable(bytes), /bad scale/, String(scale));
    }
    const ok = decodeTable(encodeTable({ rowCount: 2, columns: [{ name: 'v', kind: 'number', ints, scale: 2 }] }));
    assert.deepEqual(Array.from(floatValues(ok.columns[0] as never)), [1.25, -0.03]);
  });

  it('refuses an element width other than 16 bits, or on a number column that is not decimal', () => {
    const ints = Int16Array.from([125, -32768]);
    const good = encodeTable({ rowCount: 2, columns: [{ name: 'v', kind: 'number', ints, scale: 2 }] });
    assert.deepEqual(Array.from(floatValues(decodeTable(good).columns[0] as never)), [1.25, Number.NaN]);
    const text = new TextDecoder().decode(good);
    for (const [from, to] of [
      ['"bits":16', '"bits":8'],
      ['"scale":2,"bits":16', '"bits":16'],
    ]) {
      const bad = new TextEncoder().encode(text.replace(from, to.padEnd(from.length, ' ')));
      assert.ok(text.includes(from));
      assert.throws(() => decodeTable(bad), /bad element width/, to);
    }
  });
});
