// Day means and 24-hour rolling means against the minute data, through minute and hour/day reports
// (the recent query's minute cache is too shallow for whole days).
import assert from 'node:assert/strict';
import { PATHS } from '../../../src/core/api/paths';
import { csvObjects, downloadGzipText, HOUR, startTestEmulator, type TestEmulator } from '../../support/emulator';

describe('emulator aggregates over whole days (via reports)', () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startTestEmulator({ reportDelayMs: 0 });
  });
  after(() => emu.close());

  async function reportRows(body: Record<string, unknown>): Promise<Record<string, string>[]> {
    const created = await emu.json(PATHS.reportRequests, {
      org: emu.org,
      report: 'datasource-measurements',
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      ...body,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const record = await (await emu.get(PATHS.reportRequest(created.body.reportId))).json();
    assert.equal(record.reportStatus, 'succeeded');
    return csvObjects((await downloadGzipText(record.urls[0])).text);
  }

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  /**
   * A 24-hour mean as EPA computes it, from minute rows: each hour's mean when it has 45 of its 60 minutes
   * (75 %), then the mean of those valid 1-hour means when there are 18 of 24 (75 %; AQI Technical
   * Assistance Document, 40 CFR 50 App. N). A minute belongs to the hour its time falls in.
   */
  function epa24HourMean(minutes: Record<string, string>[], column: string): number {
    const byHour = new Map<number, number[]>();
    for (const r of minutes) {
      const hour = Math.floor(Date.parse(r.time) / HOUR);
      byHour.set(hour, [...(byHour.get(hour) ?? []), Number(r[column])]);
    }
    const valid = [...byHour.values()].filter((xs) => xs.length >= 45).map(mean);
    return valid.length >= 18 ? mean(valid) : Number.NaN;
  }

  it("a day's 24HourMean is the mean of that UTC day's valid 1-hour means (EPA), not of its minutes", async () => {
    const minutes = await reportRows({
      outputFrequency: 'minute',
      startTime: '2026-11-19',
      endTime: '2026-11-20',
      metricSelect: 'only pm10ConcMassIndividual',
    });
    assert.ok(minutes.length > 1400 && minutes.length <= 1440);
    const expected = epa24HourMean(minutes, 'pm10ConcMassIndividual.raw');
    const [day] = await reportRows({
      outputFrequency: 'day',
      startTime: '2026-11-19',
      endTime: '2026-11-20',
      metricSelect: 'only pm10ConcMass24HourMean*',
    });
    assert.equal(day.startOfPeriod, '2026-11-19T00:00:00.000Z');
    assert.equal(day.endOfPeriod, '2026-11-20T00:00:00.000Z');
    assert.ok(Math.abs(Number(day['pm10ConcMass24HourMean.raw']) - expected) <= 0.0051);
    // The AQI column is the index of the (truncated) mean: PM10 truncated to 1 µg/m³, 0..54 -> 0..50.
    const c = Math.floor(Number(day['pm10ConcMass24HourMean.raw']));
    assert.ok(c <= 54, 'a clean-air day in the generated data');
    assert.equal(Number(day['pm10ConcMass24HourMeanUsEpaAqi.raw']), Math.round((50 / 54) * c));
  });

  it("an hour's 24HourRollingMean is the mean of the valid 1-hour means of the 24 hours ending with it", async () => {
    const minutes = await reportRows({
      outputFrequency: 'minute',
      startTime: '2026-11-19T06:00:00Z',
      endTime: '2026-11-20T06:00:00Z',
      metricSelect: 'only no2ConcIndividual',
    });
    const expected = epa24HourMean(minutes, 'no2ConcIndividual.raw');
    const hours = await reportRows({
      outputFrequency: 'hour',
      startTime: '2026-11-20T05:00:00Z',
      endTime: '2026-11-20T06:00:00Z',
      metricSelect: 'only no2Conc24HourRollingMean',
    });
    assert.equal(hours.length, 1);
    assert.equal(Date.parse(hours[0].endOfPeriod) - Date.parse('2026-11-19T06:00:00Z'), 24 * HOUR);
    assert.ok(Math.abs(Number(hours[0]['no2Conc24HourRollingMean.raw']) - expected) <= 0.0051);
  });

  it('reports and the recent query agree on the same hours', async () => {
    const report = await reportRows({
      outputFrequency: 'hour',
      startTime: '2026-11-20T06:00:00Z',
      endTime: '2026-11-20T09:00:00Z',
      metricSelect: 'only pm2_5ConcMassNowcast',
    });
    const recent = await emu.recent({
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      format: 'csv-wide',
      metricSelect: 'only pm2_5ConcMassNowcast',
      qcAssessment: true,
    });
    const byStart = new Map(csvObjects(recent.text).map((r) => [r.startOfPeriod, r]));
    for (const row of report) {
      const other = byStart.get(row.startOfPeriod);
      assert.ok(other, row.startOfPeriod);
      assert.equal(row['pm2_5ConcMassNowcast.value'], other['pm2_5ConcMassNowcast.value']);
      assert.equal(row['pm2_5ConcMassNowcast.raw'], other['pm2_5ConcMassNowcast.raw']);
    }
  });
});
