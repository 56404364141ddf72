// The built measnb: `measnb stats` over a whole file (days in a zone's local standard time), and `measnb run` of
// a notebook holding a correction cell as the extension inserts it (core/aq/corrections.ts), against the emulator.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { correctionCell, correctValue } from '../../src/core/aq/corrections';
import { codeCell, serializeNotebook } from '../../src/core/notebook';
import { readParquet, writeParquet } from '../../src/core/table/parquet';
import type { Table } from '../../src/core/table/table';
import type { RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const H = 3_600_000;

/** 2026 Q3 in Denver standard time (UTC−07:00): 92 days of 24 hourly values, day i's value i + 1, but every 10th
 * day only 12 hours (not valid). */
function quarter(): Table {
  const start = Date.UTC(2026, 6, 1) + 7 * H;
  const times: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < 92; i++)
    for (let h = 0; h < (i % 10 === 9 ? 12 : 24); h++) {
      times.push(start + (i * 24 + h) * H);
      values.push(i + 1);
    }
  return {
    rowCount: times.length,
    columns: [
      { kind: 'identifier', name: 'datasourceId', dict: ['D1'], codes: new Int32Array(times.length) },
      { kind: 'time', name: 'time', values: Float64Array.from(times) },
      { kind: 'number', name: 'pm2_5ConcMass1HourMean.value', values: Float64Array.from(values) },
    ],
  };
}

describe('measnb stats and correction cells (built CLI)', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ clock: '2026-11-20T12:00:30Z' }));
    await writeFile(join(dir, 'q3.parquet'), writeParquet(quarter()));
  });
  after(() => stopCliEmulator(emu, dir));

  it('stats --json: capture, mean of daily means, p98 by the Appendix N rank, days above 35, labelled indicative', async () => {
    const args = ['stats', join(dir, 'q3.parquet'), '--metric', 'pm2_5ConcMass1HourMean', '--year', '2026'];
    const r = await runCli([...args, '--quarter', '3', '--time-zone', 'America/Denver', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout.toString());
    assert.equal(doc.label, 'indicative: sensor data, not a regulatory determination');
    assert.equal(doc.days, 'local standard time of America/Denver (UTC-07:00)');
    // Valid days: the 92 but the 9 of 12 hours (i = 9, 19, …, 89). Their values: 1..92 without 10, 20, …, 90.
    const valid = Array.from({ length: 92 }, (_, i) => i + 1).filter((v) => v % 10 !== 0);
    const [q3] = doc.rows;
    assert.deepEqual([q3.period, q3.days, q3.validDays], ['2026 Q3', 92, 83]);
    assert.equal(q3.meanOfDailyMeans, valid.reduce((a, b) => a + b, 0) / 83);
    // 83 valid days → rank 2 (Appendix N Table 1: 51–100): the 2nd highest, 91; days above 35: 36..92 valid.
    assert.deepEqual([q3.p98, q3.p98Rank, q3.daysAbove], [91, 2, valid.filter((v) => v > 35).length]);
    // In UTC the same hours make other days: the 12-hour days join the evening before.
    const utc = JSON.parse((await runCli([...args, '--quarter', '3', '--json'])).stdout.toString());
    assert.notEqual(utc.rows[0].validDays, 83);
  });

  it('stats as a table names the label and the rules; bad flags exit 2 with the reason', async () => {
    const file = join(dir, 'q3.parquet');
    const r = await runCli(['stats', file, '--metric', 'pm2_5ConcMass1HourMean', '--year', '2026']);
    assert.equal(r.code, 0, r.stderr);
    const text = r.stdout.toString();
    assert.match(text, /indicative: sensor data, not a regulatory determination/);
    assert.match(text, /Appendix N, Table 1/);
    assert.match(text, /2026 Q1[\s\S]*2026 Q4[\s\S]*2026 /);
    const bad = await runCli(['stats', file, '--metric', 'no2Conc1HourMean', '--year', '2026']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /No column no2Conc1HourMean/);
    const zone = await runCli(['stats', file, '--metric', 'x', '--year', '2026', '--time-zone', 'Mars/Base']);
    assert.equal(zone.code, 2);
    assert.match(zone.stderr, /--time-zone/);
  });

  it('stats on a file of several datasources names the flag to give one: --datasource <id>, exit 2', async () => {
    const t = quarter();
    const two: Table = {
      ...t,
      columns: [
        {
          ...t.columns[0],
          dict: ['D1', 'D2'],
          codes: Int32Array.from({ length: t.rowCount }, (_, i) => i % 2),
        } as Table['columns'][number],
        ...t.columns.slice(1),
      ],
    };
    await writeFile(join(dir, 'two.parquet'), writeParquet(two));
    const r = await runCli(['stats', join(dir, 'two.parquet'), '--metric', 'pm2_5ConcMass1HourMean', '--year', '2026']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /Statistics are of one datasource: this data has 2 \(D1, D2\)\. Give one with --datasource <id>\./,
    );
  });

  it('stats on a report of 24-hour means (frequency day) refuses with the rule and exit 2, not capture 0', async () => {
    // A real daily report from the emulator: one row a day per metric, its 24-hour means.
    const ds = emu.facts.datasources[0].datasourceId;
    const cell = `report datasource-measurements\ndatasourceIds: ${ds}\noutputFrequency: day\nstartTime: 2026-10-01\nendTime: 2026-11-20\nfileFormat: parquet-wide`;
    const out = join(dir, 'daily');
    const q = await runCli(['query', '-e', cell, '--dir', out, ...conn.args], { env: conn.env });
    assert.equal(q.code, 0, q.stderr);
    const [reportDir] = await readdir(out);
    const [file] = await readdir(join(out, reportDir));
    const names = (await readParquet(await readFile(join(out, reportDir, file)))).columns.map((c) => c.name);
    const metric = names.find((n) => n.startsWith('pm2_5ConcMass') && n.endsWith('.value'))?.replace(/\.value$/, '');
    assert.ok(metric, names.join());
    const r = await runCli([
      'stats',
      join(out, reportDir, file),
      '--metric',
      metric,
      '--year',
      '2026',
      '--quarter',
      '4',
    ]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout.toString(), '');
    assert.match(r.stderr, /Regulatory statistics need hourly or finer data: a day is valid with ≥ 18 hours/);
    assert.match(r.stderr, /40 CFR 50 Appendix N/);
    assert.match(r.stderr, new RegExp(`${metric}\\.value has at most one value a day`));
  });

  it('measnb run of a notebook with a correction cell gives the formula on every row', async () => {
    const pm = 'pm2_5ConcMass1HourMean.raw';
    const rh = 'relHumidAmbient1HourMean.value';
    const nb = {
      metadata: {},
      cells: [
        codeCell(
          'recent as pm\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMass1HourMean + relHumidAmbient1HourMean\nstartTime: -1d',
        ),
        codeCell(correctionCell({ method: 'epa2021', input: { result: 'pm' }, pmColumn: pm, rhColumn: rh })),
      ],
    };
    const file = join(dir, 'corr.measnb');
    await writeFile(file, serializeNotebook(nb));
    const out = join(dir, 'corr-results');
    const r = await runCli(['run', file, ...conn.args, '--results', out], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
    const rows = parse(await readFile(join(out, 'pm_epa2021.csv'), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    let checked = 0;
    for (const row of rows) {
      const got = row.pm2_5ConcMass1HourMean_epa2021;
      if (row[pm] === '' || row[rh] === '') {
        assert.equal(got, '');
        continue;
      }
      const want = correctValue('epa2021', Number(row[pm]), Number(row[rh]));
      assert.ok(Math.abs(Number(got) - want) < 1e-9, `${got} vs ${want}`);
      checked++;
    }
    assert.ok(checked > 24, `only ${checked} rows with PM and RH`);
  });
});
