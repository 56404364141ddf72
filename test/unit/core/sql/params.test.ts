import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CellError } from '../../../../src/core/api/errors';
import { paramValues } from '../../../../src/core/query/params';
import { parseCell } from '../../../../src/core/query/parse';
import { type RunClient, runCell } from '../../../../src/core/run/index.node';
import { notebookNameDiagnostics } from '../../../../src/core/sql/names';
import { sqlParamReferences } from '../../../../src/core/sql/references';
import { SqlSession } from '../../../../src/core/sql/session.node';
import { cellText, type Table } from '../../../../src/core/table/table';

const NOW = new Date('2026-11-21T12:00:00Z');
const PARAMS = 'params\nsite: DABC1234\nsites: DABC1234, DXYZ5678\nstart: -7d\nthreshold: 35.4\nqc: true';

function values(given: Record<string, string> = {}) {
  const cell = parseCell(PARAMS, { now: NOW }).cell;
  assert.ok(cell?.params);
  const r = paramValues(cell.params, given);
  assert.deepEqual(r.errors, []);
  return r.values;
}

const rows = (t: Table) => Array.from({ length: t.rowCount }, (_, r) => t.columns.map((c) => cellText(c, r)));

// sql cells send nothing: a client that fails on any use proves it.
const noClient = new Proxy({} as RunClient, {
  get: () => {
    throw new Error('no request is sent by a sql cell');
  },
});

describe('parameters in sql cells: bound values on the real DuckDB', function () {
  this.timeout(60_000);
  let session: SqlSession;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-params-'));
  });
  beforeEach(() => {
    session = new SqlSession();
  });
  afterEach(() => session.dispose());
  after(() => rm(dir, { recursive: true, force: true }));
  const run = (text: string, given: Record<string, string> = {}) =>
    runCell(text, { client: noClient, now: NOW, sql: session, baseDir: dir, params: values(given) });

  it('binds $name by type: VARCHAR, VARCHAR[], TIMESTAMPTZ (a relative time at the run), DOUBLE, BOOLEAN', async () => {
    const r = await run(
      'sql\nSELECT $site AS site, $sites AS sites, $start AS start, $threshold * 2 AS t2, NOT $qc AS noqc, typeof($sites) AS ty, typeof($start) AS ts',
    );
    assert.deepEqual(
      r.table.columns.map((c) => c.name),
      ['site', 'sites', 'start', 't2', 'noqc', 'ty', 'ts'],
    );
    const [row] = rows(r.table);
    assert.equal(row[0], 'DABC1234');
    assert.equal(row[3], '70.8');
    assert.equal(row[5], 'VARCHAR[]');
    assert.equal(row[6], 'TIMESTAMP WITH TIME ZONE');
    assert.equal(
      r.parameters,
      'site=DABC1234, sites=DABC1234, DXYZ5678, start=-7d (2026-11-14T12:00:00.000Z), threshold=35.4, qc=true',
    );
    const start = await run("sql\nSELECT epoch_ms($start) = epoch_ms(TIMESTAMPTZ '2026-11-14 12:00:00+00') AS same");
    assert.equal(rows(start.table)[0][0], 'true');
  });

  it("a value x'; DROP … is only a string: the statement is bound, never pasted, and the confinement still checks each statement", async () => {
    await run('sql as t\nSELECT 1 AS x');
    const evil = "x'; DROP TABLE t; SELECT '";
    const r = await run('sql\nSELECT $site AS v, length($site) AS n', { site: evil });
    assert.deepEqual(rows(r.table)[0], [evil, String(evil.length)]);
    // The named result is still there, and a statement of the cell's own that is not a read is still refused.
    const again = await run('sql\nSELECT count(*) AS n FROM t');
    assert.equal(rows(again.table)[0][0], '1');
    await assert.rejects(run("sql\nSELECT $site;\nCOPY (SELECT 1) TO 'out.csv'"), /COPY is not run in a sql cell/);
    await assert.rejects(run('sql\nSET VARIABLE x = $site'), /not run in a sql cell/);
  });

  it('filters rows by a parameter: a list parameter with list_contains, a time with >=', async () => {
    const r = await run(
      "sql\nSELECT id FROM (VALUES ('DABC1234', TIMESTAMPTZ '2026-11-20 00:00:00+00'), ('DXYZ5678', TIMESTAMPTZ '2026-11-01 00:00:00+00'), ('DOTHER01', TIMESTAMPTZ '2026-11-20 00:00:00+00')) v(id, t)\nWHERE list_contains($sites, id) AND t >= $start ORDER BY id",
    );
    assert.deepEqual(rows(r.table), [['DABC1234']]);
  });

  it('an undeclared $name is the cell error at its place, before the engine runs (also in strings or comments: ignored)', async () => {
    const e = await run("sql\nSELECT '$nope' AS s, -- $nope\n  $nope AS v").catch((x) => x);
    assert.ok(e instanceof CellError, String(e));
    assert.equal(e.diagnostics.length, 1);
    assert.equal(e.diagnostics[0].code, 'unknown-parameter');
    assert.deepEqual(e.diagnostics[0].range, { start: { line: 2, column: 2 }, end: { line: 2, column: 7 } });
    // The engine refuses an unbound parameter itself too (a positional one the references do not name).
    await assert.rejects(run('sql\nSELECT ? AS v'), /not a parameter of this notebook/);
  });

  it('names $parameters only outside strings and comments', () => {
    assert.deepEqual(
      sqlParamReferences('SELECT $a, \'$b\', "x", $1, $$c$$ -- $d\n/* $e */ FROM t WHERE y = $f_2').map((r) => r.name),
      ['a', 'f_2'],
    );
  });

  it('notebook diagnostics: an undeclared $name in a sql cell, a second params cell, and named cells that use {{params}}', () => {
    const texts = [
      PARAMS,
      'recent as pm\ndatasourceIds: {{site}}',
      'sql\nSELECT * FROM pm WHERE datasourceId = $site AND x > $nope',
      'params\nz: 1',
    ];
    const d = notebookNameDiagnostics(texts, NOW);
    assert.deepEqual(d[1], []);
    assert.deepEqual(
      d[2].map((x) => [x.code, x.range.start.line, x.range.start.column]),
      [['unknown-parameter', 1, 52]],
    );
    assert.equal(d[3][0].code, 'duplicate-params');
  });
});
