// Both names of a metric's value in sql cells, on the real DuckDB: `X.value` (results with QC fields) and `X`
// (without), whichever the result has; `SELECT *` still gives each column once.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { completeSql } from '../../../../src/core/sql/completion';
import { SqlEngine } from '../../../../src/core/sql/engine.node';
import { engineErrorDiagnostic } from '../../../../src/core/sql/errors';
import { VALUE_NAME_RULE, valueAliases } from '../../../../src/core/sql/value-names';
import type { Table } from '../../../../src/core/table/table';

const M = 'pm2_5ConcMass1HourMean';

function result(valueName: string): Table {
  return {
    rowCount: 2,
    columns: [
      { name: 'datasourceId', kind: 'identifier', dict: ['A'], codes: new Int32Array([0, 0]) },
      { name: valueName, kind: 'number', values: new Float64Array([1.5, Number.NaN]), metric: parseCanonicalLabel(M) },
      { name: 'note', kind: 'text', dict: ['x'], codes: new Int32Array([0, -1]) },
    ],
  };
}

describe('sql cells: a metric value by either name', () => {
  let engine: SqlEngine;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-value-names-'));
    engine = await SqlEngine.open({ readDirs: [dir] });
    await engine.putTable('qc', result(`${M}.value`));
    await engine.putTable('plain', result(M));
  });
  after(async () => {
    engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('only metric names get a twin, and only when missing', () => {
    assert.deepEqual(valueAliases([`${M}.value`, `${M}.raw`, 'note.value', 'time']), [{ alias: M, of: `${M}.value` }]);
    assert.deepEqual(valueAliases([M, 'time']), [{ alias: `${M}.value`, of: M }]);
    assert.deepEqual(valueAliases([M, `${M}.value`]), []);
    assert.match(VALUE_NAME_RULE, /"X\.value" in results with QC fields and "X" without/);
  });

  it('a cell written without QC fields runs on a result with them, and the other way round', async () => {
    for (const [name, col] of [
      ['qc', M],
      ['qc', `"${M}.value"`],
      ['plain', M],
      ['plain', `"${M}.value"`],
    ]) {
      const t = await engine.query(`SELECT ${col} AS v FROM ${name}`);
      assert.equal(t.rowCount, 2, `${col} of ${name}`);
      assert.equal(t.columns[0].kind, 'number');
    }
  });

  it('SELECT * gives the columns the result has, once each', async () => {
    assert.deepEqual(
      (await engine.query('SELECT * FROM qc')).columns.map((c) => c.name),
      ['datasourceId', `${M}.value`, 'note'],
    );
    assert.deepEqual(
      (await engine.query('SELECT * FROM plain')).columns.map((c) => c.name),
      ['datasourceId', M, 'note'],
    );
    // A column computed under the other name is kept: it is not a repeat.
    const t = await engine.query(`SELECT "${M}.value", "${M}.value" * 2 AS ${M} FROM qc`);
    assert.deepEqual(
      t.columns.map((c) => c.name),
      [`${M}.value`, M],
    );
  });

  it('report files read in place (a view) get the twin name too', async () => {
    const file = join(dir, 'part-000.csv');
    await writeFile(file, `datasourceId,time,${M}.value,${M}.qcAssessment\nA,2026-11-20T00:00:00Z,3.25,valid\n`);
    await engine.putFiles('files', [file], 'csv');
    const t = await engine.query(`SELECT ${M} FROM files`);
    assert.equal(t.rowCount, 1);
    assert.deepEqual(
      (await engine.query('SELECT * FROM files')).columns.map((c) => c.name),
      ['datasourceId', 'time', `${M}.value`, `${M}.qcAssessment`],
    );
  });

  it('completion and the error say the rule', async () => {
    const items = await completeSql('sql\nSELECT qc.', { line: 1, column: 10 }, [{ name: 'qc' }], () => [
      `${M}.value`,
      M,
      'note',
    ]);
    assert.deepEqual(
      items.map((i) => [i.label, i.detail?.includes(VALUE_NAME_RULE)]),
      [
        [`${M}.value`, true],
        [M, true],
        ['note', false],
      ],
    );
    const d = engineErrorDiagnostic(
      { message: 'Binder Error: Referenced column "pm2_5ConcMass24HourMean" not found in FROM clause!' },
      { text: 'SELECT 1', line: 1 },
    );
    assert.ok(d.message.endsWith(`(${VALUE_NAME_RULE})`), d.message);
  });
});
