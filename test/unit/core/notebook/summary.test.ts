import assert from 'node:assert/strict';
import { itemText, MIME } from '../../../../src/core/notebook';
import { summarizeOutput } from '../../../../src/core/notebook/summary';
import { sliceRows } from '../../../../src/core/table/row-chunks';
import { encodedTableBytes, encodeTable } from '../../../../src/core/table/wire';
import { syntheticTable } from '../../../support/synthetic-table';

describe('saved-output summaries of progressive outputs', () => {
  it('name the whole result (its rows and size), not the first rows the item holds', () => {
    const table = syntheticTable(30_000, 50);
    const head = sliceRows(table, 0, 500);
    const summary = summarizeOutput(
      {
        items: [{ mime: MIME.table, data: encodeTable(head) }],
        metadata: {
          rowCount: table.rowCount,
          columns: table.columns.map((c) => c.name),
          fullResultPath: '/results/abc-c1.parquet',
          resultBytes: encodedTableBytes(table),
          measnb: { rest: { key: 'r1x', totalRows: table.rowCount, headRows: 500 } },
        },
      },
      100_000,
    );
    const text = itemText(summary.items[0]);
    const mb = (encodedTableBytes(table) / 1024 / 1024).toFixed(1);
    assert.match(
      text,
      new RegExp(`^30000 rows × ${table.columns.length} columns \\(${mb} MB\\) — over the 97\\.7 KB limit`),
    );
    assert.match(text, /The full result is in \/results\/abc-c1\.parquet\./);
    assert.equal(summary.metadata?.originalBytes, encodedTableBytes(table));
    assert.equal(summary.metadata?.truncated, true);
  });
});
