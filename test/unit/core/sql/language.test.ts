import assert from 'node:assert/strict';
import { parseCell } from '../../../../src/core/query/parse';
import { completeSql } from '../../../../src/core/sql/completion';
import { engineErrorDiagnostic, readEngineError } from '../../../../src/core/sql/errors';
import { notebookNameDiagnostics } from '../../../../src/core/sql/names';
import { tableReferences } from '../../../../src/core/sql/references';
import { NOW } from '../../../support/now';

const now = new Date(NOW);

describe('sql cells and result names: the language', () => {
  it('any verb line may name its result with `as <name>`', () => {
    const cases: Array<[string, string, object]> = [
      ['recent as pm\ndatasourceIds: A', 'pm', { verb: 'recent' }],
      ['follow every 5m as tail\ndatasourceIds: A', 'tail', { verb: 'follow', every: { text: '5m', ms: 300_000 } }],
      [
        'report datasource-measurements as rep\ndatasourceIds: A\noutputFrequency: hour\nstartTime: 2026-11-01\nendTime: 2026-11-02',
        'rep',
        { verb: 'report', reportKind: 'datasource-measurements' },
      ],
      ['datasources as ds', 'ds', { verb: 'datasources' }],
      ['sql as daily\nSELECT 1', 'daily', { verb: 'sql' }],
      ['# a comment first\nrecent as _pm_2\ndatasourceIds: A', '_pm_2', { verb: 'recent' }],
    ];
    for (const [text, name, expected] of cases) {
      const r = parseCell(text, { now });
      assert.ok(r.cell, `${text}: ${JSON.stringify(r.diagnostics)}`);
      assert.equal(r.cell.name, name);
      for (const [k, v] of Object.entries(expected)) assert.deepEqual((r.cell as never)[k], v, `${text}: ${k}`);
    }
    const named = parseCell('recent as pm\ndatasourceIds: A', { now }).cell;
    assert.deepEqual(named?.nameRange, { start: { line: 0, column: 10 }, end: { line: 0, column: 12 } });
    assert.equal(parseCell('recent\ndatasourceIds: A', { now }).cell?.name, undefined);
  });

  it('refuses names that are not identifiers, a missing name, and text after it', () => {
    const bad: Array<[string, RegExp, number]> = [
      ['recent as 2pm\ndatasourceIds: A', /'2pm' is not a result name/, 10],
      ['recent as pm-hourly\ndatasourceIds: A', /'pm-hourly' is not a result name/, 10],
      ['recent as\ndatasourceIds: A', /'as' needs a result name/, 7],
      ['datasources as ds extra', /Unexpected text after the result name/, 18],
      ['sql as x y\nSELECT 1', /Unexpected text after the result name/, 9],
    ];
    for (const [text, message, column] of bad) {
      const r = parseCell(text, { now });
      assert.equal(r.cell, undefined, text);
      const d = r.diagnostics.find((x) => x.code === 'bad-result-name');
      assert.ok(d, `${text}: ${JSON.stringify(r.diagnostics)}`);
      assert.match(d.message, message);
      assert.equal(d.range.start.column, column, text);
    }
  });

  it('a sql cell keeps its SQL as written (-- comments, # is not a comment, key: value is not a field)', () => {
    const text = 'sql as daily\n-- days\nSELECT "a#b", x::DOUBLE AS startTime: FROM pm # not a comment';
    const r = parseCell(text, { now });
    assert.ok(r.cell, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.cell.sql, {
      text: '-- days\nSELECT "a#b", x::DOUBLE AS startTime: FROM pm # not a comment',
      line: 1,
    });
    const empty = parseCell('sql as x\n\n  ', { now });
    assert.equal(empty.cell, undefined);
    assert.equal(empty.diagnostics[0].code, 'missing-sql');
    assert.match(parseCell('sql SELECT 1', { now }).diagnostics[0].message, /'sql' takes only 'as <name>'/);
  });

  it('finds the tables a query reads (not CTEs, table functions, strings or comments)', () => {
    const sql = [
      'WITH daily AS (SELECT * FROM pm), x AS MATERIALIZED (SELECT 1)',
      'SELECT * FROM daily JOIN ds ON true -- FROM commented',
      "JOIN read_parquet('from nowhere.parquet') AS f ON true",
      'LEFT JOIN information_schema.tables t ON true, (SELECT * FROM rep) r',
    ].join('\n');
    assert.deepEqual(tableReferences(sql), [
      { name: 'pm', line: 0, column: 29 },
      { name: 'ds', line: 1, column: 25 },
      { name: 'rep', line: 3, column: 62 },
    ]);
  });

  it('notebook diagnostics: a duplicate name, and a sql cell reading a name no cell gives', () => {
    const cells = [
      'datasources as ds',
      'recent as pm\ndatasourceIds: A',
      'recent as PM\ndatasourceIds: B',
      'sql\nSELECT * FROM pm\nJOIN dss USING (datasourceId)',
      'sql as later\nSELECT * FROM ds',
    ];
    const d = notebookNameDiagnostics(cells, now);
    assert.deepEqual(d[0], []);
    assert.deepEqual(d[1], []);
    assert.equal(d[2][0].code, 'duplicate-result-name');
    assert.match(d[2][0].message, /'PM' is already given by cell 2/);
    assert.deepEqual(d[2][0].range.start, { line: 0, column: 10 });
    assert.equal(d[3].length, 1);
    assert.equal(d[3][0].code, 'unknown-result-name');
    assert.match(d[3][0].message, /No cell is named 'dss' \(names: ds, pm, later\)/);
    assert.deepEqual(d[3][0].range, { start: { line: 2, column: 5 }, end: { line: 2, column: 8 } });
    assert.deepEqual(d[4], []);
  });

  it("maps DuckDB's error position to the cell's line and column, on one line", () => {
    const raw =
      'Binder Error: {"exception_type":"Binder","exception_message":"Referenced column \\"x\\" not found!\\nCandidate bindings: \\"y\\"","position":"17"}';
    const err = readEngineError(raw);
    assert.equal(err.message, 'Binder Error: Referenced column "x" not found! Candidate bindings: "y"');
    const d = engineErrorDiagnostic(err, { text: 'SELECT 1\nFROM t, x AS q', line: 2 });
    assert.deepEqual(d.range, { start: { line: 3, column: 8 }, end: { line: 3, column: 9 } });
    assert.equal(readEngineError('plain\nmessage').message, 'plain message');
    assert.equal(readEngineError('plain').offset, undefined);
  });

  it('completes result names, and columns after `name.` or of the results the cell reads', async () => {
    const results = [{ name: 'pm', detail: 'recent · cell 2' }, { name: 'ds' }];
    const columns = (n: string) => (n === 'pm' ? ['datasourceId', 'pm2_5ConcMass1HourMean.value'] : ['name']);
    const labels = async (text: string, line: number, column: number) =>
      (await completeSql(text, { line, column }, results, columns)).map((i) => `${i.kind}:${i.insertText ?? i.label}`);
    assert.deepEqual(await labels('sql\nSELECT * FROM ', 1, 14), ['result:pm', 'result:ds']);
    assert.deepEqual(await labels('sql\nSELECT pm. FROM pm', 1, 10), [
      'column:datasourceId',
      'column:"pm2_5ConcMass1HourMean.value"',
    ]);
    assert.deepEqual(await labels('sql\nSELECT  FROM ds', 1, 7), ['result:pm', 'result:ds', 'column:name']);
    // After `pm.` the text replaced starts after the dot (the editor's word would be `pm.`, filtering every
    // column without a dot out); a quoted column is filtered by its quoted text, so a typed `"` matches it.
    const after = await completeSql('sql\nSELECT pm.', { line: 1, column: 10 }, results, columns);
    assert.deepEqual(
      after.map((i) => [i.label, i.insertText, i.filterText, i.replaceFrom]),
      [
        ['datasourceId', 'datasourceId', 'datasourceId', 10],
        ['pm2_5ConcMass1HourMean.value', '"pm2_5ConcMass1HourMean.value"', '"pm2_5ConcMass1HourMean.value"', 10],
      ],
    );
    const typed = await completeSql('sql\nSELECT pm."pm2', { line: 1, column: 14 }, results, columns);
    assert.deepEqual(
      typed.map((i) => i.replaceFrom),
      [10, 10],
    );
    assert.equal(
      (await completeSql('sql\nSELECT ', { line: 1, column: 7 }, results, columns))[0].replaceFrom,
      undefined,
    );
    assert.deepEqual(await labels('sql\nSELECT 1', 0, 3), []);
  });
});
