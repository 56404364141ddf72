// The Summary over every row of a file, by the real DuckDB (core/sql/summary.node), against the renderer's own
// Summary (renderer/model/aq-views summaryTable) on the same rows: the same table, number for number. A file read
// as the table editor reads it (its first rows only) still gets the numbers of all its rows.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { StatisticsInputError } from '../../../../src/core/api/errors';
import { mulberry32 } from '../../../../src/core/aq/bootstrap';
import { summaryPlanOf } from '../../../../src/core/notebook/renderer-protocol';
import { readTableFile } from '../../../../src/core/sql/file-read.node';
import { fileSummary, tableSummary } from '../../../../src/core/sql/summary.node';
import { writeParquet } from '../../../../src/core/table/parquet';
import { sliceRows } from '../../../../src/core/table/row-chunks';
import { type Column, cellText, floatValues, isNumeric, type Table } from '../../../../src/core/table/table';
import { summaryFromFull, summaryPlan, summaryTable } from '../../../../src/renderer/model/aq-views';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);
const PM25 = 'pm2_5ConcMass1HourMean';
const PM10 = 'pm10ConcMass1HourMean';

/**
 * Hourly rows of three datasources over 12 days, rows out of time order: PM2.5 with a qcAssessment (some
 * invalid), PM10 with qcFlags (some of severity I); missing values and hours; D3 has no PM10 at all.
 */
function generated(): Table {
  const rnd = mulberry32(28);
  const ids: number[] = [];
  const times: number[] = [];
  const pm25: number[] = [];
  const pm10: number[] = [];
  const assessment: number[] = [];
  const flags: number[] = [];
  for (let h = 12 * 24 - 1; h >= 0; h--)
    for (let d = 0; d < 3; d++) {
      if (rnd() < 0.1) continue; // a missing hour
      ids.push(d);
      times.push(T0 + h * H + (d === 1 ? 30 * 60_000 : 0));
      pm25.push(rnd() < 0.05 ? Number.NaN : Math.round(rnd() * 80_000) / 1000 + d);
      pm10.push(d === 2 || rnd() < 0.05 ? Number.NaN : Math.round(rnd() * 150_00) / 100);
      assessment.push(rnd() < 0.08 ? 1 : 0);
      flags.push(rnd() < 0.06 ? 1 : rnd() < 0.1 ? 2 : -1);
    }
  const label = (m: string, f: string) => `${m}.${f}`;
  return {
    rowCount: ids.length,
    columns: [
      { kind: 'identifier', name: 'datasourceId', dict: ['D1', 'D2', 'D3'], codes: Int32Array.from(ids) },
      { kind: 'text', name: 'outputFrequency', dict: ['hour'], codes: new Int32Array(ids.length) },
      { kind: 'time', name: 'time', values: Float64Array.from(times) },
      { kind: 'number', name: label(PM25, 'value'), values: Float64Array.from(pm25) },
      {
        kind: 'qcAssessment',
        name: label(PM25, 'qcAssessment'),
        dict: ['valid', 'invalid'],
        codes: Int32Array.from(assessment),
      },
      { kind: 'number', name: label(PM10, 'value'), values: Float64Array.from(pm10) },
      {
        kind: 'qcFlags',
        name: label(PM10, 'qcFlags'),
        dict: [[], ['QC.I.range.1'], ['QC.W.spike.2']],
        codes: Int32Array.from(flags),
      },
    ],
  };
}

function csvOf(t: Table): string {
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [t.columns.map((c) => c.name).join(',')];
  for (let r = 0; r < t.rowCount; r++) lines.push(t.columns.map((c) => quote(cellText(c, r))).join(','));
  return `${lines.join('\n')}\n`;
}

const all = (t: Table) => Uint32Array.from({ length: t.rowCount }, (_, i) => i);

/** A Summary table as plain rows (numbers and text), for deepEqual. */
function plain(t: Table): Array<Array<string | number>> {
  return Array.from({ length: t.rowCount }, (_, r) =>
    t.columns.map((c: Column) => (isNumeric(c) ? floatValues(c)[r] : cellText(c, r))),
  );
}

describe('core sql summary: the Summary over every row of a file, by DuckDB', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-summary-'));
    const t = generated();
    await writeFile(join(dir, 'aq.parquet'), writeParquet(t));
    await writeFile(join(dir, 'aq.csv.gz'), gzipSync(csvOf(t)));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const name of ['aq.parquet', 'aq.csv.gz'])
    it(`${name}: the same Summary as the renderer's over the same rows (count, complete %, min … max, QC-invalid)`, async () => {
      const file = join(dir, name);
      const { table } = await readTableFile(file, { maxRows: 1_000_000 });
      const mine = summaryTable(table, all(table));
      const full = await fileSummary(file, summaryPlan(table));
      assert.equal(full.rows, table.rowCount);
      assert.deepEqual(plain(summaryFromFull(table, full)), plain(mine));
      // The fixture covers what it should: a "no data" row, QC-invalid values of both kinds, incomplete hours.
      const rows = plain(mine);
      assert.ok(rows.some((r) => r[0] === 'D3' && r.at(-1) === 'no data'));
      assert.ok(rows.every((r) => (r.at(-2) as number) > 0 || r.at(-1) === 'no data'));
      assert.ok(rows.some((r) => (r[5] as number) < 100 && (r[5] as number) > 80));
    });

  it('a file held in part (the table editor keeps its first rows): the numbers of all its rows', async () => {
    const file = join(dir, 'aq.parquet');
    const whole = (await readTableFile(file, { maxRows: 1_000_000 })).table;
    const read = await readTableFile(file, { maxRows: 100 });
    assert.equal(read.table.rowCount, 100);
    assert.ok(read.totalRows > 700);
    const full = await fileSummary(file, summaryPlan(read.table));
    assert.equal(full.rows, read.totalRows);
    const expected = plain(summaryTable(whole, all(whole)));
    assert.deepEqual(plain(summaryFromFull(read.table, full)), expected);
    assert.notDeepEqual(plain(summaryTable(read.table, all(read.table))), expected);
  });

  it("a result held in memory (a notebook output's whole result): the same Summary as the renderer's over it", async () => {
    const t = generated();
    const full = await tableSummary(t, summaryPlan(t));
    assert.equal(full.rows, t.rowCount);
    const expected = plain(summaryTable(t, all(t)));
    assert.deepEqual(plain(summaryFromFull(t, full)), expected);
    // The output's item holds the first rows only: its plan, the numbers of every row of the result.
    const head = sliceRows(t, 0, 100);
    const fromHead = await tableSummary(t, summaryPlan(head));
    assert.deepEqual(plain(summaryFromFull(head, fromHead)), expected);
    assert.notDeepEqual(plain(summaryTable(head, all(head))), expected);
    await assert.rejects(
      tableSummary(t, { frequency: 'hour', metrics: [{ column: 'nope' }] }),
      (e: Error) => e instanceof StatisticsInputError && /No column nope/.test(e.message),
    );
  });

  it('median and p98 are Hyndman–Fan type 7: numpy.percentile on the same values', async () => {
    // python3 -c "import numpy as np; v=[12.1,3.4,55.0,7.7,9.9,30.2,1.05,18.0,7.7,41.3,2.2,64.9,11.0];
    //   print(np.percentile(v,50), np.percentile(v,98), np.mean(v))"  (numpy 2.4.6)
    //   -> 11.0 62.524 20.342307692307696
    const values = [12.1, 3.4, 55.0, 7.7, 9.9, 30.2, 1.05, 18.0, 7.7, 41.3, 2.2, 64.9, 11.0];
    const t: Table = {
      rowCount: values.length,
      columns: [
        { kind: 'identifier', name: 'datasourceId', dict: ['D1'], codes: new Int32Array(values.length) },
        { kind: 'time', name: 'time', values: Float64Array.from(values, (_, i) => T0 + i * H) },
        { kind: 'number', name: `${PM25}.value`, values: Float64Array.from(values) },
      ],
    };
    const file = join(dir, 'numpy.parquet');
    await writeFile(file, writeParquet(t));
    const { table } = await readTableFile(file, { maxRows: 1000 });
    const [cell] = (await fileSummary(file, summaryPlan(table))).cells;
    assert.equal(cell.median, 11.0);
    assert.ok(Math.abs((cell.p98 ?? 0) - 62.524) < 1e-9);
    assert.ok(Math.abs((cell.mean ?? 0) - 20.342307692307696) < 1e-9);
    assert.deepEqual([cell.count, cell.withValue, cell.min, cell.max, cell.invalid], [13, 13, 1.05, 64.9, 0]);
    const [row] = plain(summaryFromFull(table, await fileSummary(file, summaryPlan(table))));
    assert.deepEqual(row.slice(7, 10), [20.342, 11, 62.524]);
  });

  it('a plan from a message is checked: unknown columns are refused, bad shapes are no plan', async () => {
    const file = join(dir, 'aq.parquet');
    await assert.rejects(
      fileSummary(file, { frequency: 'hour', metrics: [{ column: 'nope"; DROP TABLE x; --' }] }),
      (e: Error) => e instanceof StatisticsInputError && /No column nope/.test(e.message),
    );
    assert.equal(summaryPlanOf({ frequency: 'week', metrics: [] }), undefined);
    assert.equal(summaryPlanOf({ frequency: 'hour', metrics: [{ column: 7 }] }), undefined);
    assert.equal(
      summaryPlanOf({ frequency: 'hour', metrics: [{ column: 'a', qc: { column: 'b', kind: 'x' } }] }),
      undefined,
    );
    assert.equal(summaryPlanOf({ frequency: 'hour', metrics: Array(1001).fill({ column: 'a' }) }), undefined);
    assert.deepEqual(summaryPlanOf({ frequency: 'hour', timeColumn: 'time', metrics: [{ column: 'a' }], x: 1 }), {
      groupColumn: undefined,
      timeColumn: 'time',
      frequency: 'hour',
      metrics: [{ column: 'a' }],
    });
  });
});
