import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CellError, MeasurementsError } from '../../../../src/core/api/errors';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { runCell } from '../../../../src/core/run/index.node';
import { SqlSession } from '../../../../src/core/sql/session.node';
import { writeParquet } from '../../../../src/core/table/parquet';
import { cellText, findColumn, floatValues, isNumeric, type Table } from '../../../../src/core/table/table';
import { systemClock } from '../../../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../../../src/emulator';

function texts(table: Table): string[][] {
  return Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => cellText(c, r)));
}

describe('sql cells (DuckDB) against the emulator', function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let client: MeasurementsClient;
  let dir: string;
  let session: SqlSession;
  before(async () => {
    emu = await startEmulator({ seed: 3, reportDelayMs: 500, clock: '2026-11-20T12:00:30Z' });
    client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    dir = await mkdtemp(join(tmpdir(), 'measnb-sql-'));
  });
  beforeEach(() => {
    session = new SqlSession();
  });
  afterEach(() => session.dispose());
  after(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });
  const now = () => new Date(emu.clock.now());
  const run = (text: string, extra: object = {}) =>
    runCell(text, { client, org: emu.org, now: now(), sql: session, baseDir: dir, downloadDir: dir, ...extra });

  it('a named recent result round-trips through DuckDB with its columns, kinds and values exactly (empty cells and times too)', async () => {
    // Every datasource: some are unsubscribed for a few hours, so there are empty cells.
    const pm = await run(
      'recent as pm\nallDatasources: true\noutputFrequency: hour\nstartTime: -6h\nqcFlags: true\nqcAssessment: true',
    );
    assert.ok(pm.table.rowCount > 10);
    const hasEmpty = pm.table.columns.some((c) =>
      Array.from({ length: pm.table.rowCount }, (_, r) => cellText(c, r)).includes(''),
    );
    assert.ok(hasEmpty, 'the fixture has empty cells');
    const back = await run('sql\nSELECT * FROM pm');
    assert.deepEqual(
      back.table.columns.map((c) => [c.name, c.kind, c.canonical]),
      pm.table.columns.map((c) => [c.name, c.kind, c.canonical]),
    );
    assert.deepEqual(texts(back.table), texts(pm.table));
    const types = await run(
      "sql\nSELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'pm' ORDER BY ordinal_position",
    );
    const typeOf = new Map(texts(types.table).map(([n, t]) => [n, t]));
    const time = pm.table.columns.find((c) => c.kind === 'time');
    assert.ok(time);
    assert.equal(typeOf.get(time.name), 'TIMESTAMP WITH TIME ZONE');
    assert.equal(typeOf.get(findColumn(pm.table, 'datasourceId')?.name ?? ''), 'VARCHAR');
    const metric = pm.table.columns.find((c) => c.kind === 'number' && c.metric);
    assert.ok(metric);
    assert.equal(typeOf.get(metric.name), 'DOUBLE');
    // Milliseconds survive (irregular times): the exact epoch values, not a rounded text.
    const tb = findColumn(back.table, time.name);
    assert.ok(isNumeric(time) && tb && isNumeric(tb));
    assert.deepEqual(Array.from(floatValues(tb)), Array.from(floatValues(time)));
  });

  it('joins a recent result with a datasources result', async () => {
    const id = emu.facts.datasources[1].datasourceId;
    await run('datasources as ds');
    await run(`recent as pm\ndatasourceIds: ${id}\noutputFrequency: hour\nstartTime: -3h`);
    const r = await run(
      'sql as joined\n-- one row per hour, with the datasource name\nSELECT pm.datasourceId, ds.name, count(*) AS n\nFROM pm JOIN ds ON ds.datasourceId = pm.datasourceId\nGROUP BY ALL',
    );
    assert.equal(r.table.rowCount, 1);
    const [row] = texts(r.table);
    assert.equal(row[0], id);
    const list = await client.listDatasources(emu.org);
    assert.equal(row[1], list.datasources.find((d) => d.datasourceId === id)?.orgAnnotations.name);
    assert.ok(Number(row[2]) >= 2);
    assert.equal(r.table.columns[0].kind, 'identifier');
    // The sql result is itself a named result for later cells.
    const again = await run('sql\nSELECT n FROM joined');
    assert.equal(cellText(again.table.columns[0], 0), row[2]);
  });

  it('reads files relative to the notebook folder with DuckDB functions', async () => {
    const table: Table = {
      rowCount: 2,
      columns: [
        { name: 'datasourceId', kind: 'identifier', dict: ['A', 'B'], codes: Int32Array.from([0, 1]) },
        { name: 'v', kind: 'number', values: Float64Array.from([1.5, Number.NaN]) },
      ],
    };
    await writeFile(join(dir, 'small.parquet'), writeParquet(table));
    await writeFile(join(dir, 'small.csv'), 'a,b\n1,x\n2,y\n');
    const p = await run("sql\nSELECT count(*) AS n, sum(v) AS s FROM read_parquet('small.parquet')");
    assert.deepEqual(texts(p.table), [['2', '1.5']]);
    const c = await run("sql\nSELECT sum(a) AS s FROM read_csv('small.csv')");
    assert.deepEqual(texts(c.table), [['3']]);
  });

  it('reads a named report from its downloaded files in place (a view over the files, not a copy)', async () => {
    const id = emu.facts.datasources[0].datasourceId;
    for (const fileFormat of ['parquet', 'csv']) {
      const rep = await run(
        `report datasource-measurements as rep\ndatasourceIds: ${id}\noutputFrequency: hour\nstartTime: -2d\nendTime: -1d\nfileFormat: ${fileFormat}`,
      );
      const files = rep.report?.files ?? [];
      assert.ok(files.length >= 1);
      assert.deepEqual(session.get('rep'), {
        kind: 'files',
        files,
        format: fileFormat,
      });
      const kind = await run("sql\nSELECT table_type FROM information_schema.tables WHERE table_name = 'rep'");
      assert.deepEqual(texts(kind.table), [['VIEW']]);
      const r = await run('sql\nSELECT count(*) AS n FROM rep');
      assert.equal(cellText(r.table.columns[0], 0), String(rep.table.rowCount));
    }
  });

  it('an error is DuckDB message on one line, at its line and column in the cell', async () => {
    await run('datasources as ds');
    await assert.rejects(run('sql\nSELECT name\nFROM ds\nWHERE nope > 1'), (e: unknown) => {
      assert.ok(e instanceof CellError);
      const [d] = e.diagnostics;
      assert.equal(d.code, 'sql-error');
      assert.match(d.message, /^Binder Error: Referenced column "nope" not found/);
      assert.ok(!d.message.includes('\n'));
      assert.deepEqual(d.range.start, { line: 3, column: 6 });
      assert.match(e.message, /^line 4, column 7: Binder Error/);
      return true;
    });
    await assert.rejects(run('sql\nSELECT *\n  FORM ds'), (e: unknown) => {
      assert.ok(e instanceof CellError);
      assert.match(e.diagnostics[0].message, /^Parser Error: syntax error at or near "ds"/);
      assert.deepEqual(e.diagnostics[0].range.start, { line: 2, column: 7 });
      return true;
    });
  });

  it('cancellation interrupts the running query', async () => {
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 300);
    await assert.rejects(
      run('sql\nSELECT count(*) FROM range(100000000000) a', { signal: abort.signal }),
      (e: unknown) => e instanceof MeasurementsError && e.code === 'CANCELLED',
    );
    assert.ok(Date.now() - started < 5000, 'stopped promptly');
    // The session still works afterwards.
    const r = await run('sql\nSELECT 42 AS x');
    assert.equal(cellText(r.table.columns[0], 0), '42');
  });
});
