// The sensor evaluation report (EPA/600/R-20/280's reporting template) from the emulator's collocated pair:
// a sensor at its reference site reading 1.3 × reference + 2 (src/emulator/world.ts COLLOCATED_BIAS).

import assert from 'node:assert/strict';
import { EvaluationReportError } from '../../../../src/core/api/errors';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import {
  evaluationReport,
  evaluationReportHtml,
  evaluationReportMarkdown,
  reportRows,
  reportVerdict,
} from '../../../../src/core/notebook/export/evaluation-report';
import { runCell } from '../../../../src/core/run/index.node';
import type { Table } from '../../../../src/core/table/table';
import { systemClock } from '../../../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../../../src/emulator';
import { COLLOCATED_BIAS, WORLD_ROLES } from '../../../../src/emulator/world';

/** Hourly PM2.5 1-hour means for 4 UTC days from 2026-11-16: a reference site and three sensors beside it. */
function workedTable(): Table {
  const ids = ['REF', 'S1', 'S2', 'S3'];
  const hours = 96;
  const n = hours * ids.length;
  const time = new Float64Array(n);
  const codes = new Int32Array(n);
  const value = new Float64Array(n);
  const t0 = Date.UTC(2026, 10, 16);
  for (let h = 0; h < hours; h++) {
    const ref = Math.round((10 + 5 * Math.sin(h / 5)) * 1000) / 1000;
    ids.forEach((_, d) => {
      const r = h * ids.length + d;
      time[r] = t0 + h * 3_600_000;
      codes[r] = d;
      value[r] = d === 0 ? ref : 1.3 * ref + 2 + [0, 0, 0.5, -0.5][d];
    });
  }
  return {
    rowCount: n,
    columns: [
      { name: 'datasourceId', kind: 'identifier', dict: ids, codes },
      {
        name: 'sourceType',
        kind: 'text',
        dict: ['REFERENCE_SITE', 'SERVICE_NODE'],
        codes: codes.map((d) => (d ? 1 : 0)),
      },
      { name: 'time', kind: 'time', values: time },
      { name: 'locationLatitude', kind: 'number', values: new Float64Array(n).fill(39.74) },
      { name: 'locationLongitude', kind: 'number', values: new Float64Array(n).fill(-104.99) },
      {
        name: 'pm2_5ConcMass1HourMean',
        kind: 'number',
        values: value,
        metric: parseCanonicalLabel('pm2_5ConcMass1HourMean'),
      },
    ],
  };
}

describe('sensor evaluation report', () => {
  let emu: RunningEmulator;
  let table: Table;
  let sensor: string;
  let reference: string;
  let other: string;

  before(async () => {
    emu = await startEmulator({ seed: 1, clock: '2026-11-20T12:00:30Z' });
    const ids = emu.facts.datasources.map((d) => d.datasourceId);
    sensor = ids[WORLD_ROLES.collocatedSensor];
    reference = ids[WORLD_ROLES.collocatedReference];
    other = ids.find((id) => id !== sensor && id !== reference)!;
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const cell = `recent\ndatasourceIds: ${other}, ${reference}, ${sensor}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast + pm2_5ConcMass1HourMean\nstartTime: -3d\nformat: csv-wide`;
    table = (await runCell(cell, { client, org: emu.org, now: new Date(emu.clock.now()) })).table;
  });
  after(() => emu.close());

  it('starts where the Collocation view starts: the 1-hour PM2.5 mean, the sensor and its nearest reference site', () => {
    const report = evaluationReport({ table, sensor });
    assert.equal(report.reference, reference, 'the reference site at 0 km');
    assert.ok(report.distanceKm! < 1e-6);
    assert.match(report.metric, /^pm2_5ConcMass1HourMean/, 'a 1-hour mean, not the NowCast');
    assert.equal(report.unit, 'µg/m³');
  });

  it('the performance table carries the evaluation’s numbers (emulator pair), n and dates, each target met or not', () => {
    const report = evaluationReport({ table, sensor, reference });
    const { hour } = report.result;
    assert.ok(hour.fit.n >= 40, `${hour.fit.n} hours`);
    assert.ok(Math.abs(hour.fit.slope - COLLOCATED_BIAS.slope) < 0.05, String(hour.fit.slope));
    const rows = new Map(reportRows(report).map((r) => [r.name, r]));
    assert.equal(rows.get('n (paired periods)')!.hour, String(hour.fit.n));
    assert.equal(rows.get('Slope')!.hour, hour.fit.slope.toFixed(2));
    assert.match(rows.get('Paired periods from → to')!.hour, /^2026-11-1\d \d\d:00 UTC → 2026-11-20 \d\d:00 UTC$/);
    assert.match(rows.get('SD (across sensors)')!.hour, /needs 3 sensors \(\d here\)/);
    assert.equal(rows.get('SD (across sensors)')!.met[0], '', 'no verdict without 3 sensors');
  });

  describe('a worked example: 4 days of hours, sensors at 1.3 × reference + 2 (± 0.5), numbers from numpy', () => {
    // numpy (python3): R = round(10 + 5 sin(h/5), 3), h = 0..95; S1 = 1.3 R + 2, S2 = S1 + 0.5, S3 = S1 − 0.5.
    // RMSE(S1 − R) = 5.1113, NRMSE = 51.08 % (error target met by RMSE ≤ 7 alone: EPA's "or");
    // 24-hour RMSE = 5.0117; precision over S1..S3: SD = 0.40896 (1-hour), 0.42640 (24-hour), CV = 2.72 %.
    const synthetic = workedTable();
    const report = evaluationReport({ table: synthetic, sensor: 'S1' });
    const rows = new Map(reportRows(report).map((r) => [r.name, r]));

    it('table: n, slope, intercept, R², RMSE/NRMSE (one error verdict), precision SD and CV, met / not met', () => {
      assert.equal(report.reference, 'REF');
      assert.deepEqual([rows.get('n (paired periods)')!.hour, rows.get('n (paired periods)')!.day], ['96', '4']);
      assert.deepEqual([rows.get('Slope')!.hour, rows.get('Intercept')!.hour], ['1.30', '2.00 µg/m³']);
      assert.equal(rows.get('R²')!.hour, '1.00');
      assert.equal(rows.get('RMSE (sensor − reference)')!.hour, '5.11 µg/m³');
      assert.equal(rows.get('RMSE (sensor − reference)')!.day, '5.01 µg/m³');
      assert.equal(rows.get('NRMSE (RMSE / mean reference)')!.hour, '51.1 %');
      assert.deepEqual(rows.get('NRMSE (RMSE / mean reference)')!.met, ['met', 'met'], 'RMSE ≤ 7 µg/m³ suffices');
      assert.equal(rows.get('Precision: N periods × M sensors')!.hour, '96 × 3');
      assert.deepEqual(
        [rows.get('SD (across sensors)')!.hour, rows.get('SD (across sensors)')!.day],
        ['0.41 µg/m³', '0.43 µg/m³'],
      );
      assert.equal(rows.get('CV (across sensors)')!.hour, '2.7 %');
      assert.deepEqual(rows.get('SD (across sensors)')!.met, ['met', 'met']);
      assert.equal(rows.get('Paired periods from → to')!.day, '2026-11-16 00:00 UTC → 2026-11-19 00:00 UTC');
      assert.equal(
        reportVerdict(report).split(': ').slice(1).join(': '),
        '24-hour: all targets met; 1-hour: all targets met.',
      );
    });

    it('HTML: self-contained; details, the table, a scatter and a time series for each averaging; Markdown: the same', () => {
      const html = evaluationReportHtml(report);
      assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
      assert.doesNotMatch(html, /<script|src="http/i);
      assert.equal((html.match(/<svg /g) ?? []).length, 4, '1-hour and 24-hour: scatter and time series each');
      assert.ok(html.includes('<th>Sensor</th><td>S1</td>'));
      assert.ok(html.includes('<th>Distance</th><td>0.000 km</td>'));
      assert.ok(html.includes('<td class="met">met</td>'));
      const md = evaluationReportMarkdown(report);
      assert.match(md, /\| Slope \| 1\.30 \| 1\.30 \| 1\.0 ± 0\.35 \| met \| met \|/);
      assert.equal((md.match(/!\[[^\]]*\]\(data:image\/svg\+xml;base64,/g) ?? []).length, 4);
    });
  });

  it('says what is wrong with the request (code EVALUATION_INPUT)', () => {
    const bad = (f: () => unknown, re: RegExp) =>
      assert.throws(
        f,
        (e: unknown) => e instanceof EvaluationReportError && e.code === 'EVALUATION_INPUT' && re.test(e.message),
      );
    bad(() => evaluationReport({ table, sensor: 'NOPE' }), /--sensor NOPE: no rows of that datasource/);
    bad(() => evaluationReport({ table, sensor, reference: sensor }), /--reference .*no rows|must differ/);
    bad(() => evaluationReport({ table, sensor, reference, metric: 'x' }), /No metric column x/);
  });
});
