// The one builder of a result's notebook output (core/run/outputs.ts): `measnb run` writes it, the
// extension wraps the same items in VS Code's types (the host lane's notebook suite compares them).
import assert from 'node:assert/strict';
import type { DatasourceInfo } from '../../../../src/core/api/types';
import { connectionStyleSlots } from '../../../../src/core/aq/line-styles';
import { MIME, type NotebookOutput } from '../../../../src/core/notebook/model';
import { range } from '../../../../src/core/query/diagnostics';
import { connectionResultInfoWithin, resultOutput, tableOutput, warningNote } from '../../../../src/core/run/outputs';
import type { RunResult } from '../../../../src/core/run/run-result';
import { tableToCsv } from '../../../../src/core/table/csv-export';
import { decodeTable, encodeTable } from '../../../../src/core/table/wire';
import { syntheticTable } from '../../../support/synthetic-table';

const text = (o: NotebookOutput, mime: string) => new TextDecoder().decode(o.items.find((i) => i.mime === mime)?.data);

function result(rows: number): RunResult {
  return {
    verb: 'recent',
    table: syntheticTable(rows, 3),
    summary: `${rows} rows`,
    request: { org: 'o' },
    warnings: [{ severity: 'warning', message: 'x is deprecated', range: range(1, 0, 1), code: 'bad-value' }],
    notice: 'the token expired; the tail resumed',
  };
}

describe('a result as a notebook output (core/run/outputs.ts)', () => {
  it('the table item, then a text/csv fallback; rowCount, columns and the renderer info in the metadata', () => {
    const r = result(5);
    const out = tableOutput(r.table, { info: { title: 't', notes: ['n'] }, metadata: { fullResultId: 'k' } });
    assert.deepEqual(
      out.items.map((i) => i.mime),
      [MIME.table, MIME.csv],
    );
    assert.deepEqual(out.items[0].data, encodeTable(r.table));
    assert.equal(text(out, MIME.csv), tableToCsv(r.table));
    assert.deepEqual(out.metadata, {
      rowCount: 5,
      columns: r.table.columns.map((c) => c.name),
      measnb: { title: 't', notes: ['n'] },
      fullResultId: 'k',
    });
  });

  it('above csvMaxRows a text line replaces the CSV; a progressive output holds its first rows', () => {
    const r = result(30);
    const head = { rows: syntheticTable(4, 3), resultBytes: 12345 };
    const out = tableOutput(r.table, { csvMaxRows: 10, head });
    const columns = r.table.columns.length;
    assert.equal(
      text(out, MIME.text),
      `30 rows × ${columns} columns: shown by the Measurements table renderer; too many rows for a text/csv copy (more than 10: measurements.notebook.csvFallbackMaxRows).`,
    );
    assert.equal(decodeTable(out.items[0].data).rowCount, 4);
    assert.equal(out.metadata?.resultBytes, 12345);
    assert.equal(out.metadata?.rowCount, 30);
  });

  it("measnb run's output is the same builder's: same items, with the title and notes the extension shows", () => {
    const r = result(5);
    const cli = resultOutput(r, { fullResultPath: 'x.results/cell-1.parquet' });
    const same = tableOutput(r.table, {
      info: { title: 'recent · 5 rows', notes: [r.notice!, warningNote(r.warnings[0])] },
      metadata: { fullResultPath: 'x.results/cell-1.parquet' },
    });
    assert.deepEqual(cli, same);
    assert.equal(warningNote(r.warnings[0]), 'warning: line 2, column 1: x is deprecated');
  });
});

describe("a result's info from the connection's datasource list, waited for a while (connectionResultInfoWithin)", () => {
  const table = syntheticTable(6, 3); // datasource ids D000000, D000001, D000002
  const ids = ['D000000', 'D000001', 'D000002'];
  const list = ids.concat('DAAAAAAA').map((datasourceId) => ({ datasourceId }) as DatasourceInfo);

  it('the list had in time: the result datasources’ names and slots over the whole list', async () => {
    const info = await connectionResultInfoWithin(table, () => Promise.resolve(list), 1000);
    assert.deepEqual(
      info?.datasourceStyles,
      connectionStyleSlots(
        list.map((d) => d.datasourceId),
        ids,
      ),
    );
  });

  it('a list that fails, or comes late, or a result without datasource ids: undefined (the table shows without)', async () => {
    assert.equal(await connectionResultInfoWithin(table, () => Promise.reject(new Error('offline')), 1000), undefined);
    const t0 = performance.now();
    const never = () => new Promise<DatasourceInfo[]>(() => undefined);
    assert.equal(await connectionResultInfoWithin(table, never, 50), undefined);
    assert.ok(performance.now() - t0 < 1000, 'no longer than the wait');
    const noIds = { rowCount: 1, columns: [{ name: 'v', kind: 'number' as const, values: Float64Array.of(1) }] };
    let asked = false;
    const ask = () => {
      asked = true;
      return Promise.resolve(list);
    };
    assert.equal(await connectionResultInfoWithin(noIds, ask, 1000), undefined);
    assert.equal(asked, false, 'not asked for a result without ids');
  });
});
