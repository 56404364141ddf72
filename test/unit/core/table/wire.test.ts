import assert from 'node:assert/strict';
import { cellText } from '../../../../src/core/table/table';
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
});
