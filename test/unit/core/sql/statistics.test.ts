// Regulatory-style statistics over every row of a file, by the real DuckDB: a generated Parquet and csv.gz file
// of half-hourly PM2.5 for two datasources; days in local standard time (Denver, UTC−07:00 all year).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { StatisticsInputError } from '../../../../src/core/api/errors';
import { fileStatistics } from '../../../../src/core/sql/statistics.node';
import { writeParquet } from '../../../../src/core/table/parquet';
import type { Table } from '../../../../src/core/table/table';
import { cellText } from '../../../../src/core/table/table';

const H = 3_600_000;
const DENVER = -420;
/** Local midnight of 2026-01-01 in Denver standard time, as a UTC instant. */
const START = Date.UTC(2026, 0, 1) - DENVER * 60_000;
const DAYS = 120; // into Q2: Q1 is 90 days

/** Day i's mean: 1..40 cycling, so 35 is passed on days whose i % 40 >= 35 (5 of every 40). */
const dayMean = (i: number) => (i % 40) + 1;
/** Every 7th day (i % 7 === 6) has only its first 17 local hours: not a valid day. */
const hoursOf = (i: number) => (i % 7 === 6 ? 17 : 24);

function generated(): Table {
  const ids: number[] = [];
  const times: number[] = [];
  const values: number[] = [];
  const qc: number[] = [];
  for (let i = 0; i < DAYS; i++) {
    // A QC-invalid value at minute 15 of every hour of D1: 999, which must count nowhere.
    for (let h = 0; h < hoursOf(i); h++) {
      ids.push(0);
      times.push(START + (i * 24 + h) * H + 15 * 60_000);
      values.push(999);
      qc.push(1);
    }
    for (let h = 0; h < hoursOf(i); h++)
      for (const [m, dv] of [
        [0, -1],
        [30, 1],
      ]) {
        // Two values per hour whose mean is the day's: minutes are averaged into their hour first.
        ids.push(0);
        times.push(START + (i * 24 + h) * H + m * 60_000);
        values.push(dayMean(i) + dv);
        qc.push(0);
        // A second datasource, ten times higher: never in D1's numbers.
        ids.push(1);
        times.push(START + (i * 24 + h) * H + m * 60_000);
        values.push(10 * dayMean(i));
        qc.push(-1);
      }
  }
  return {
    rowCount: ids.length,
    columns: [
      { kind: 'identifier', name: 'datasourceId', dict: ['D1', 'D2'], codes: Int32Array.from(ids) },
      { kind: 'time', name: 'time', values: Float64Array.from(times) },
      { kind: 'number', name: 'pm2_5ConcMass1HourMean.value', values: Float64Array.from(values) },
      {
        kind: 'qcAssessment',
        name: 'pm2_5ConcMass1HourMean.qcAssessment',
        dict: ['valid', 'invalid'],
        codes: Int32Array.from(qc),
      },
    ],
  };
}

function csvOf(t: Table): string {
  const lines = [t.columns.map((c) => c.name).join(',')];
  for (let r = 0; r < t.rowCount; r++) lines.push(t.columns.map((c) => cellText(c, r)).join(','));
  return `${lines.join('\n')}\n`;
}

/** What the statistics must be, from the generator's rules (not from the code under test). */
function expectedQ1() {
  const valid = Array.from({ length: 90 }, (_, i) => i).filter((i) => hoursOf(i) >= 18);
  const means = valid.map(dayMean);
  const sorted = [...means].sort((a, b) => b - a);
  return {
    validDays: valid.length,
    mean: means.reduce((a, b) => a + b, 0) / means.length,
    p98: sorted[1], // 78 valid days: rank 2 (Appendix N Table 1, 51–100)
    above: means.filter((m) => m > 35).length,
  };
}

describe('core sql statistics: over the whole file, by DuckDB', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-stats-'));
    const t = generated();
    await writeFile(join(dir, 'pm.parquet'), writeParquet(t));
    await writeFile(join(dir, 'pm.csv.gz'), gzipSync(csvOf(t)));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const file of ['pm.parquet', 'pm.csv.gz'])
    it(`${file}: Q1 capture, mean of daily means, p98 by rank, days above 35 µg/m³`, async () => {
      const out = await fileStatistics(join(dir, file), {
        metric: 'pm2_5ConcMass1HourMean',
        datasource: 'D1',
        period: { year: 2026, quarter: 1, offsetMinutes: DENVER },
      });
      const want = expectedQ1();
      assert.equal(want.validDays, 78);
      const [q1] = out.rows;
      assert.equal(q1.period, '2026 Q1');
      assert.equal(q1.days, 90);
      assert.equal(q1.validDays, want.validDays);
      assert.equal(q1.capturePercent, (100 * 78) / 90);
      assert.ok(Math.abs(q1.meanOfDailyMeans - want.mean) < 1e-9, `${q1.meanOfDailyMeans} vs ${want.mean}`);
      assert.deepEqual([q1.p98, q1.p98Rank, q1.daysAbove], [want.p98, 2, want.above]);
      assert.equal(out.valueColumn, 'pm2_5ConcMass1HourMean.value');
      assert.equal(out.unit, 'µg/m³');
      assert.match(out.notes[0], /indicative: sensor data, not a regulatory determination/);
      assert.match(out.notes.at(-1) ?? '', /pm2_5ConcMass1HourMean\.qcAssessment is invalid are left out/);
      assert.equal(out.table.rowCount, 1);
    });

  it('the year: each quarter, then the year; UTC days split the local days differently', async () => {
    const req = { metric: 'pm2_5ConcMass1HourMean', datasource: 'D1', period: { year: 2026, offsetMinutes: DENVER } };
    const local = await fileStatistics(join(dir, 'pm.parquet'), req);
    assert.deepEqual(
      local.rows.map((r) => r.period),
      ['2026 Q1', '2026 Q2', '2026 Q3', '2026 Q4', '2026'],
    );
    const q2Valid = Array.from({ length: DAYS - 90 }, (_, k) => k + 90).filter((i) => hoursOf(i) >= 18).length;
    assert.equal(local.rows[1].validDays, q2Valid);
    assert.equal(local.rows[4].validDays, 78 + q2Valid);
    assert.equal(local.rows[4].days, 365);
    // In UTC a 17-hour local day's hours fall in one UTC day with the evening before: 24 hours, valid.
    const utc = await fileStatistics(join(dir, 'pm.parquet'), { ...req, period: { year: 2026, offsetMinutes: 0 } });
    assert.notEqual(utc.rows[4].validDays, local.rows[4].validDays);
  });

  // One row a day (24-hour means of a `outputFrequency: day` report; its Parquet holds startOfPeriod as ISO text):
  // no day can have 18 hours, so the extension's panel and `measnb stats` refuse with the rule (one text, core/aq).
  it('daily data is refused with the hourly rule; ISO text times (a Parquet report) are read as instants', async () => {
    const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
    const days = (step: number): Table => {
      const n = 90 * step;
      return {
        rowCount: n,
        columns: [
          {
            kind: 'text',
            name: 'startOfPeriod',
            dict: Array.from({ length: n }, (_, k) => iso(Date.UTC(2026, 0, 1) + (k * 24 * H) / step)),
            codes: Int32Array.from({ length: n }, (_, k) => k),
          },
          { kind: 'number', name: 'pm2_5ConcMass24HourMean.value', values: new Float64Array(n).fill(5) },
        ],
      };
    };
    await writeFile(join(dir, 'daily.parquet'), writeParquet(days(1)));
    const req = { metric: 'pm2_5ConcMass24HourMean', period: { year: 2026, quarter: 1, offsetMinutes: 0 } };
    await assert.rejects(
      fileStatistics(join(dir, 'daily.parquet'), req),
      (e: Error) =>
        e instanceof StatisticsInputError &&
        e.message ===
          'Regulatory statistics need hourly or finer data: a day is valid with ≥ 18 hours that have a value (40 CFR 50 Appendix N). pm2_5ConcMass24HourMean.value has at most one value a day here (24-hour means, outputFrequency: day or coarser), so no day could be valid and capture would be 0: use hourly data (outputFrequency: hour).',
    );
    // The same ISO text an hour apart: every day valid.
    await writeFile(join(dir, 'hourly.parquet'), writeParquet(days(24)));
    const hourly = await fileStatistics(join(dir, 'hourly.parquet'), req);
    assert.deepEqual([hourly.rows[0].validDays, hourly.rows[0].meanOfDailyMeans], [90, 5]);
  });

  it('clear errors: an unknown metric, several datasources, a file that is no table', async () => {
    const period = { year: 2026, offsetMinutes: 0 };
    await assert.rejects(
      fileStatistics(join(dir, 'pm.parquet'), { metric: 'no2Conc1HourMean', period }),
      (e: Error) =>
        e instanceof StatisticsInputError && /No column no2Conc1HourMean.*pm2_5ConcMass1HourMean/.test(e.message),
    );
    await assert.rejects(
      fileStatistics(join(dir, 'pm.parquet'), { metric: 'pm2_5ConcMass1HourMean', period }),
      (e: Error) =>
        e instanceof StatisticsInputError &&
        e.needs === 'datasource' &&
        e.message === 'Statistics are of one datasource: this data has 2 (D1, D2).',
    );
    await assert.rejects(
      fileStatistics(join(dir, 'x.txt'), { metric: 'm', period }),
      /not a \.csv, \.csv\.gz or \.parquet/,
    );
  });
});
