// Derived values as EPA computes them, over HTTP: each expected value is recomputed here, independently of the
// emulator's code, from the emulator's own minute values (a separate minute report of the same datasource).
// Rules (cited per test):
// - EPA, "Technical Assistance Document for the Reporting of Daily Air Quality – the Air Quality Index (AQI)"
//   (EPA-454/B-24-002, 2024) and its NowCast annex: NowCast over the last 12 hourly means, weight factor
//   w = cmin/cmax floored at 0.5, valid with 2 of the 3 newest hours; truncate PM2.5 to 0.1 and PM10 to 1 µg/m³.
// - EPA completeness: a 24-hour mean is the mean of the valid 1-hour means, valid with 18 of 24 (75 %); an
//   hourly average of sensor minutes is valid with 75 % of its minutes (45 of 60; EPA sensortoolkit).
import assert from 'node:assert/strict';
import { PATHS } from '../../../src/core/api/paths';
import {
  csvObjects,
  downloadGzipText,
  HOUR,
  MINUTE,
  NOW,
  startTestEmulator,
  type TestEmulator,
} from '../../support/emulator';

const ANCHOR = NOW - 30 * MINUTE; // 10:00, where the emulator places its timed events
const iso = (ms: number) => new Date(ms).toISOString();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Hourly means (EPA: valid with 45 of 60 minutes, else NaN) of minute rows, by hour start (ms). */
function hourlyMeans(minutes: Record<string, string>[], column: string): Map<number, number> {
  const byHour = new Map<number, number[]>();
  for (const r of minutes) {
    if (r[column] === '') continue;
    const hour = Math.floor(Date.parse(r.time) / HOUR) * HOUR;
    byHour.set(hour, [...(byHour.get(hour) ?? []), Number(r[column])]);
  }
  return new Map([...byHour].map(([h, xs]) => [h, xs.length >= 45 ? mean(xs) : Number.NaN]));
}

/** The mean of the valid 1-hour means of the 24 hours before `end` (EPA: NaN with fewer than 18). */
function epa24Hour(means: Map<number, number>, end: number): number {
  const valid: number[] = [];
  for (let h = end - 24 * HOUR; h < end; h += HOUR) {
    const m = means.get(h);
    if (m !== undefined && !Number.isNaN(m)) valid.push(m);
  }
  return valid.length >= 18 ? mean(valid) : Number.NaN;
}

/** EPA NowCast (PM) of the 12 hours ending with `newest`, before truncation; NaN without 2 of the 3 newest. */
function epaNowcast(means: Map<number, number>, newest: number): number {
  const c = Array.from({ length: 12 }, (_, i) => means.get(newest - i * HOUR) ?? Number.NaN);
  if (c.slice(0, 3).filter((x) => !Number.isNaN(x)).length < 2) return Number.NaN;
  const present = c.filter((x) => !Number.isNaN(x));
  const w = Math.max(0.5, Math.min(...present) / Math.max(...present));
  let num = 0;
  let den = 0;
  c.forEach((x, i) => {
    if (Number.isNaN(x)) return;
    num += w ** i * x;
    den += w ** i;
  });
  return num / den;
}

/** A report's rows (csv-wide), created and fetched over HTTP. */
async function reportRows(emu: TestEmulator, ds: string, body: Record<string, unknown>) {
  const created = await emu.json(PATHS.reportRequests, {
    org: emu.org,
    report: 'datasource-measurements',
    datasourceIds: [ds],
    ...body,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const record = await (await emu.get(PATHS.reportRequest(created.body.reportId))).json();
  assert.equal(record.reportStatus, 'succeeded');
  return csvObjects((await downloadGzipText(record.urls[0])).text);
}

/** Hour rows keyed by their start (ms). */
const byStart = (rows: Record<string, string>[]) => new Map(rows.map((r) => [Date.parse(r.startOfPeriod), r]));

describe('emulator conformance: derived values as EPA computes them', () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startTestEmulator({ reportDelayMs: 0 });
  });
  after(() => emu.close());

  const minutesOf = (ds: string, from: number, to: number, select: string) =>
    reportRows(emu, ds, { outputFrequency: 'minute', startTime: iso(from), endTime: iso(to), metricSelect: select });
  const hoursOf = (ds: string, from: number, to: number, select: string) =>
    reportRows(emu, ds, { outputFrequency: 'hour', startTime: iso(from), endTime: iso(to), metricSelect: select });

  it('24-hour rolling and day means average the valid 1-hour means, not the minutes (a 15-minute hour is out)', async () => {
    // The daily-outage datasource has no minutes 03:00-03:45 UTC: its 03:00 hour holds 15 of 60 minutes.
    const ds = emu.facts.dailyOutage;
    const day = Date.parse('2026-11-19T00:00:00Z');
    const minutes = await minutesOf(ds, day - 24 * HOUR, day + 30 * HOUR, 'only no2ConcIndividual');
    const means = hourlyMeans(minutes, 'no2ConcIndividual.raw');
    assert.ok(Number.isNaN(means.get(day + 3 * HOUR)), 'the 03:00 hour is not a valid hourly mean');

    const hours = byStart(await hoursOf(ds, day + 3 * HOUR, day + 6 * HOUR, 'only no2Conc1HourMean + no2Conc24Hour*'));
    assert.equal(hours.get(day + 3 * HOUR)?.['no2Conc1HourMean.raw'], '', 'no 1-hour mean from 15 minutes');
    const rolling = Number(hours.get(day + 5 * HOUR)?.['no2Conc24HourRollingMean.raw']);
    const expected = epa24Hour(means, day + 6 * HOUR);
    assert.ok(Math.abs(rolling - expected) <= 0.0051, `${rolling} vs ${expected}`);
    // The minutes' mean (what a minute-weighted mean gives) is measurably different here.
    const window = minutes.filter((r) => Date.parse(r.time) >= day - 18 * HOUR && Date.parse(r.time) < day + 6 * HOUR);
    const minuteMean = mean(window.map((r) => Number(r['no2ConcIndividual.raw'])));
    assert.ok(Math.abs(minuteMean - expected) > 0.01, `minute mean ${minuteMean} vs hourly ${expected}`);

    const [dayRow] = await reportRows(emu, ds, {
      outputFrequency: 'day',
      startTime: iso(day),
      endTime: iso(day + 24 * HOUR),
      metricSelect: 'only no2Conc24HourMean',
    });
    const dayExpected = epa24Hour(means, day + 24 * HOUR);
    assert.ok(
      Math.abs(Number(dayRow['no2Conc24HourMean.raw']) - dayExpected) <= 0.0051,
      `${dayRow['no2Conc24HourMean.raw']}`,
    );
  });

  it('the PM10 NowCast is truncated to whole µg/m³, the PM2.5 NowCast to 0.1 (EPA)', async () => {
    const ds = emu.facts.datasources[0].datasourceId;
    const from = ANCHOR - 20 * HOUR;
    const minutes = await minutesOf(
      ds,
      from - 12 * HOUR,
      ANCHOR,
      'only pm10ConcMassIndividual + pm2_5ConcMassIndividual',
    );
    const pm10 = hourlyMeans(minutes, 'pm10ConcMassIndividual.raw');
    const pm25 = hourlyMeans(minutes, 'pm2_5ConcMassIndividual.raw');
    const rows = await hoursOf(ds, from, ANCHOR, 'only pm10ConcMassNowcast + pm2_5ConcMassNowcast');
    assert.equal(rows.length, 20);
    let fractional25 = 0;
    for (const r of rows) {
      const t = Date.parse(r.startOfPeriod);
      const n10 = Number(r['pm10ConcMassNowcast.raw']);
      assert.ok(Number.isInteger(n10), `PM10 NowCast ${r['pm10ConcMassNowcast.raw']} at ${r.startOfPeriod}`);
      // Minute values are shown with 2 decimals: away from a whole number, the truncation is exact.
      const e10 = epaNowcast(pm10, t);
      if (e10 - Math.floor(e10) > 0.02 && e10 - Math.floor(e10) < 0.98) assert.equal(n10, Math.floor(e10));
      const e25 = epaNowcast(pm25, t);
      assert.ok(Math.abs(Number(r['pm2_5ConcMassNowcast.raw']) - Math.floor(e25 * 10) / 10) <= 0.1 + 1e-9);
      if (!Number.isInteger(Number(r['pm2_5ConcMassNowcast.raw']))) fractional25++;
    }
    assert.ok(fractional25 > 10, 'PM2.5 keeps its tenths');
  });

  it('aggregates use only what the org can see: no NowCast without 2 of the 3 newest visible hours', async () => {
    // Not subscribed during [anchor-20h, anchor-14h): those hours are in no aggregate.
    const ds = emu.facts.unsubscribed;
    const [[gapFrom, gapTo]] = emu.facts.unsubscribedPeriods.map(([a, b]) => [Date.parse(a), Date.parse(b)]);
    assert.deepEqual([gapFrom, gapTo], [ANCHOR - 20 * HOUR, ANCHOR - 14 * HOUR]);
    const minutes = await minutesOf(ds, gapFrom - 30 * HOUR, gapTo + 4 * HOUR, 'only pm2_5ConcMassIndividual');
    assert.ok(!minutes.some((r) => Date.parse(r.time) >= gapFrom && Date.parse(r.time) < gapTo));
    const means = hourlyMeans(minutes, 'pm2_5ConcMassIndividual.raw');
    const rows = byStart(
      await hoursOf(ds, gapTo, gapTo + 4 * HOUR, 'only pm2_5ConcMassNowcast + pm2_5ConcMass24HourRollingMean'),
    );
    // The first visible hour: its two predecessors are invisible, so 1 of the 3 newest: empty (EPA 2-of-3).
    assert.equal(rows.get(gapTo)?.['pm2_5ConcMassNowcast.raw'], '');
    // The next hours: computed from the visible hours only (the invisible ones are missing hours).
    for (const t of [gapTo + HOUR, gapTo + 2 * HOUR, gapTo + 3 * HOUR]) {
      const expected = Math.floor(epaNowcast(means, t) * 10) / 10;
      assert.ok(Math.abs(Number(rows.get(t)?.['pm2_5ConcMassNowcast.raw']) - expected) <= 0.1 + 1e-9, iso(t));
      // 24-hour window with the 6 invisible hours: 18 visible, the mean of those.
      const rolling = Number(rows.get(t)?.['pm2_5ConcMass24HourRollingMean.raw']);
      assert.ok(Math.abs(rolling - epa24Hour(means, t + HOUR)) <= 0.0051, `${iso(t)}: ${rolling}`);
    }
  });

  it('WaDwerAqi on 1-hour means: the concentration as a percentage of its reference, rounded (WA DWER)', async () => {
    const ds = emu.facts.datasources[0].datasourceId;
    const from = ANCHOR - 6 * HOUR;
    const minutes = await minutesOf(ds, from, ANCHOR, 'only pm2_5ConcMassIndividual + no2ConcIndividual + o3Conc*');
    const rows = await hoursOf(ds, from, ANCHOR, 'only *wadwer*');
    const labels = new Set(Object.keys(rows[0]).filter((k) => k.endsWith('.raw')));
    assert.deepEqual([...labels].sort(), [
      'no2Conc1HourMeanWaDwerAqi.raw',
      'o3Conc1HourMeanWaDwerAqi.raw',
      'pm10ConcMass1HourMeanWaDwerAqi.raw',
      'pm2_5ConcMass1HourMeanWaDwerAqi.raw',
    ]);
    // References: PM 100 µg/m³ (the real service's report), NO2 0.12 ppm, O3 0.10 ppm (DWER's 1-hour standards).
    for (const [quantity, reference] of [
      ['pm2_5ConcMass', 100],
      ['no2Conc', 120],
      ['o3Conc', 100],
    ] as const) {
      const means = hourlyMeans(minutes, `${quantity}Individual.raw`);
      for (const r of rows) {
        const x = (means.get(Date.parse(r.startOfPeriod)) as number) * (100 / reference);
        const got = Number(r[`${quantity}1HourMeanWaDwerAqi.raw`]);
        if (Math.abs(x - Math.floor(x) - 0.5) > 0.02) assert.equal(got, Math.round(x), `${quantity} ${x}`);
        else assert.ok(Math.abs(got - x) <= 0.52);
      }
    }
  });

  it('accepts the real labels in metricSelect (the service reports them)', async () => {
    const r = await emu.recent({
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      metricSelect: 'only no2Conc1HourMeanWaDwerAqi',
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([...new Set(r.body.data.map((d: { metric: string }) => d.metric))], ['no2Conc1HourMeanWaDwerAqi']);
  });
});

describe('emulator conformance: 24-hour means need 18 valid hours of 24 (EPA)', () => {
  let emu: TestEmulator;
  // The late subscriber is seen from anchor+1h (11:00 on 2026-11-19 here): hour H's rolling mean has
  // H - 10 visible hours in its window.
  const anchor = Date.parse('2026-11-19T10:00:00Z');
  before(async () => {
    emu = await startTestEmulator({ reportDelayMs: 0, anchor });
  });
  after(() => emu.close());

  it('a rolling mean with 17 visible hours is empty, with 18 it is the mean of those 18', async () => {
    const ds = emu.facts.lateSubscriber;
    const seen = Date.parse(emu.facts.lateSubscriberFrom);
    assert.equal(seen, anchor + HOUR);
    const minutes = await reportRows(emu, ds, {
      outputFrequency: 'minute',
      startTime: iso(seen),
      endTime: iso(seen + 20 * HOUR),
      metricSelect: 'only pm10ConcMassIndividual',
    });
    const means = hourlyMeans(minutes, 'pm10ConcMassIndividual.raw');
    const rows = byStart(
      await reportRows(emu, ds, {
        outputFrequency: 'hour',
        startTime: iso(seen + 16 * HOUR),
        endTime: iso(seen + 19 * HOUR),
        metricSelect: 'only pm10ConcMass24HourRollingMean',
      }),
    );
    assert.equal(rows.get(seen + 16 * HOUR)?.['pm10ConcMass24HourRollingMean.raw'], '', '17 hours');
    const at18 = Number(rows.get(seen + 17 * HOUR)?.['pm10ConcMass24HourRollingMean.raw']);
    assert.ok(Math.abs(at18 - epa24Hour(means, seen + 18 * HOUR)) <= 0.0051, `${at18}`);
    assert.ok(!Number.isNaN(epa24Hour(means, seen + 18 * HOUR)));
  });
});
