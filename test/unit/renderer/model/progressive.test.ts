import assert from 'node:assert/strict';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { sliceRows, TableAssembler } from '../../../../src/core/table/row-chunks';
import { cellText } from '../../../../src/core/table/table';
import { decodeTable, encodeTable } from '../../../../src/core/table/wire';
import { loadRest, MAX_PROGRESSIVE_ROWS, restOf, rowsPerChunk } from '../../../../src/renderer/model/progressive';
import { syntheticTable } from '../../../support/synthetic-table';

describe('renderer: loading the rest of a progressive output', () => {
  const full = syntheticTable(5_000, 40);
  /** A host that answers from the whole table, through the wire format, as the extension does. */
  const host = (calls: Array<[number, number]>) => async (start: number, maxRows: number) => {
    calls.push([start, maxRows]);
    return decodeTable(encodeTable(sliceRows(full, start, start + maxRows)));
  };

  it('asks for the rows after the head in order until every row is in', async () => {
    const a = new TableAssembler(sliceRows(full, 0, 600), full.rowCount);
    const calls: Array<[number, number]> = [];
    const progress: number[] = [];
    const askedWhenAppended: number[] = [];
    const end = await loadRest({
      assembler: a,
      fetch: host(calls),
      rowsPerChunk: 1_000,
      onRows: (n) => {
        progress.push(n);
        askedWhenAppended.push(calls.length);
      },
      stopped: () => false,
    });
    assert.equal(end, 'complete');
    assert.deepEqual(calls, [
      [600, 1_000],
      [1_600, 1_000],
      [2_600, 1_000],
      [3_600, 1_000],
      [4_600, 400],
    ]);
    assert.deepEqual(progress, [1_600, 2_600, 3_600, 4_600, 5_000]);
    // Each next chunk is asked for before the one that arrived is appended (the host works meanwhile).
    assert.deepEqual(askedWhenAppended, [2, 3, 4, 5, 5]);
    for (const r of [0, 599, 600, 2_345, 4_999])
      for (const [i, c] of full.columns.entries()) assert.equal(cellText(a.table.columns[i], r), cellText(c, r));
  });

  it('stops when the output is gone, and keeps the rows it has when a fetch fails', async () => {
    const a = new TableAssembler(sliceRows(full, 0, 600), full.rowCount);
    let n = 0;
    const stopped = await loadRest({
      assembler: a,
      fetch: host([]),
      rowsPerChunk: 1_000,
      onRows: () => n++,
      stopped: () => n >= 2,
    });
    assert.equal(stopped, 'stopped');
    assert.equal(a.loaded, 2_600);
    const b = new TableAssembler(sliceRows(full, 0, 600), full.rowCount);
    await assert.rejects(
      loadRest({
        assembler: b,
        fetch: async () => {
          throw new Error('no file');
        },
        rowsPerChunk: 1_000,
        onRows: () => undefined,
        stopped: () => false,
      }),
      /no file/,
    );
    assert.equal(b.loaded, 600);
    await assert.rejects(
      loadRest({
        assembler: b,
        fetch: async () => sliceRows(full, 0, 0),
        rowsPerChunk: 1_000,
        onRows: () => undefined,
        stopped: () => false,
      }),
      /sent 0 rows at row 600, not 1000/,
    );
  });

  it('reads the rest-of-rows metadata only when it is well-formed (it may come from a saved notebook)', () => {
    assert.deepEqual(restOf({ key: 'k1', totalRows: 10, headRows: 3 }, 3), { key: 'k1', totalRows: 10, headRows: 3 });
    assert.equal(restOf({ key: 'k1', totalRows: 3 }, 3), undefined, 'nothing after the head');
    assert.equal(restOf({ key: 'k1', totalRows: 1.5 }, 1), undefined);
    assert.equal(restOf({ key: 'k1', totalRows: MAX_PROGRESSIVE_ROWS + 1 }, 1), undefined);
    assert.equal(restOf({ key: 7, totalRows: 10 }, 1), undefined);
    assert.equal(restOf(undefined, 1), undefined);
  });

  it('sizes chunks by the bytes of a row on the wire', () => {
    const head = encodeTable(sliceRows(full, 0, 600));
    const n = rowsPerChunk(head.byteLength, 600, 4 * 1024 * 1024);
    assert.ok(n > 20_000 && n < 200_000, String(n));
    assert.equal(rowsPerChunk(encodeTable(sliceRows(full, 0, 1)).byteLength, 1, 10), 1_000, 'at least 1,000 rows');
    assert.equal(rowsPerChunk(0, 0, 10), 100_000, 'no head rows: a default');
  });

  it('sizes chunks of csv decimals by their wire bytes (2 or 4 a number), not their decoded Float64s', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `D${i % 50},${(i % 900) / 10},${(i % 777) + 0.25},${i * 3}`);
    const table = await parseCsvWide(`datasourceId,pm2_5ConcMass,no2Conc,pm10ConcNum\n${lines.join('\n')}\n`);
    const headBytes = encodeTable(sliceRows(table, 0, 1_000)).byteLength;
    const target = 64 * 1024;
    const n = rowsPerChunk(headBytes, 1_000, target);
    const chunk = encodeTable(sliceRows(table, 1_000, 1_000 + n)).byteLength;
    assert.ok(chunk > 0.85 * target && chunk <= 1.1 * target, `a chunk of ${n} rows is ${chunk} B for ${target} B`);
    const decodedHead = encodeTable(decodeTable(encodeTable(sliceRows(table, 0, 1_000)))).byteLength;
    assert.ok(decodedHead > 1.5 * headBytes, 'decoded, the same rows would count twice the bytes or more');
  });
});
