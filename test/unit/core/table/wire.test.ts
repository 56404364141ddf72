import assert from 'node:assert/strict';
import { cellText } from '../../../../src/core/table/table';
import { decodeTable, encodeTable } from '../../../../src/core/table/wire';
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
});
