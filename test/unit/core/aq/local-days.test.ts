// core/aq with local days: daily means, the 75 % rules (18 of 24 hours, scaled to 23/25-hour DST days; 45 of
// 60 minutes), pairing, profiles and exceedance days in an IANA zone with a clock or standard day boundary.
// Day boundaries and local hours are Python zoneinfo's (tzdata), e.g.
//   datetime(2026,11,1,tzinfo=ZoneInfo('America/Denver')) → 2026-11-01T06:00Z, next day 07:00Z: 25 hours.
// The rule for DST days is ours (stats.ts header): 75 % of the day's hour periods, rounded up — EPA's 18 of 24
// (40 CFR Part 50 Appendix N) is 75 %; 23 hours need 18 (17.25 ↑), 25 hours need 19 (18.75 ↑).
import assert from 'node:assert/strict';
import {
  dailyMeans,
  exceedanceDays,
  hoursOfDay,
  minValidHours,
  pairByPeriod,
  pairDaily,
  profile,
} from '../../../../src/core/aq/stats';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../../src/core/time/duration';
import { parseIsoMs } from '../../../../src/core/time/iso';
import { UTC, zoneOf } from '../../../../src/core/time/zone';
import { withTimeZone } from '../../../support/time-zone';

const at = (iso: string) => parseIsoMs(iso) as number;
const dayOf = (date: string) => Math.floor(at(date) / DAY_MS);
const denver = zoneOf('America/Denver', 'clock');
const denverStandard = zoneOf('America/Denver', 'standard');

/** Hourly values from `from` (inclusive) to `to` (exclusive), the value a function of the hour's start. */
function hourly(from: string, to: string, value: (ms: number) => number) {
  const times: number[] = [];
  const values: number[] = [];
  for (let t = at(from); t < at(to); t += HOUR_MS) {
    times.push(t);
    values.push(value(t));
  }
  return { times, values };
}

describe('core aq: local days', () => {
  it('hour periods per day and the valid-hours rule: 24 → 18, 23 → 18, 25 → 19; standard days are 24', () => {
    assert.equal(hoursOfDay(denver, dayOf('2026-03-08')), 23);
    assert.equal(hoursOfDay(denver, dayOf('2026-11-01')), 25);
    assert.equal(hoursOfDay(zoneOf('Asia/Kathmandu'), dayOf('2026-11-25')), 24); // 18:15Z → 18:15Z
    assert.equal(hoursOfDay(zoneOf('Australia/Lord_Howe'), dayOf('2026-10-04')), 23); // 23.5 h: 13:30Z → 13:00Z
    assert.equal(minValidHours(UTC, dayOf('2026-11-01')), 18);
    assert.equal(minValidHours(denver, dayOf('2026-03-08')), 18);
    assert.equal(minValidHours(denver, dayOf('2026-11-01')), 19);
    assert.equal(minValidHours(denverStandard, dayOf('2026-11-01')), 24 * 0.75);
  });

  it('Denver days are 06:00Z/07:00Z to the next: value 1 all Oct 31 (local), 2 all Nov 1 (25 h) → means 1 and 2; UTC days mix them', () => {
    const nov1 = at('2026-11-01T06:00Z'); // local midnight (zoneinfo)
    const s = hourly('2026-10-31T06:00Z', '2026-11-02T07:00Z', (t) => (t < nov1 ? 1 : 2));
    const local = dailyMeans(s.times, s.values, { zone: denver });
    assert.deepEqual(
      [...local.means],
      [
        [dayOf('2026-10-31'), 1],
        [dayOf('2026-11-01'), 2],
      ],
    );
    // UTC: Oct 31 has 18 hours of 1 (06Z–23Z); Nov 1 has 00Z–05Z of 1 and 06Z–23Z of 2: (6·1 + 18·2) / 24 = 1.75;
    // Nov 2 has 00Z–06Z (7 hours): left out.
    const utc = dailyMeans(s.times, s.values);
    assert.deepEqual(
      [...utc.means],
      [
        [dayOf('2026-10-31'), 1],
        [dayOf('2026-11-01'), 1.75],
      ],
    );
    assert.equal(utc.incompleteDays, 1);
  });

  it('the 25-hour day needs 19 hours: 18 are not enough, 19 are', () => {
    const eighteen = hourly('2026-11-01T06:00Z', '2026-11-02T00:00Z', () => 5); // 18 hours
    assert.equal(dailyMeans(eighteen.times, eighteen.values, { zone: denver }).means.size, 0);
    assert.equal(dailyMeans(eighteen.times, eighteen.values, { zone: denver }).incompleteDays, 1);
    const nineteen = hourly('2026-11-01T06:00Z', '2026-11-02T01:00Z', () => 5);
    assert.deepEqual(
      [...dailyMeans(nineteen.times, nineteen.values, { zone: denver }).means],
      [[dayOf('2026-11-01'), 5]],
    );
  });

  it('the 23-hour day is valid with 18 of its 23 hours', () => {
    const s = hourly('2026-03-08T07:00Z', '2026-03-09T01:00Z', () => 4); // 18 hours
    assert.deepEqual([...dailyMeans(s.times, s.values, { zone: denver }).means], [[dayOf('2026-03-08'), 4]]);
  });

  it('standard days (EPA, local standard time): a July day in Denver runs 07:00Z to 07:00Z, not 06:00Z', () => {
    // 24 hours from 06:00Z: the 06:00Z hour is 23:00 MST of July 3, the other 23 are July 4 (standard).
    const s = hourly('2026-07-04T06:00Z', '2026-07-05T06:00Z', (t) => (t < at('2026-07-04T07:00Z') ? 100 : 10));
    const standard = dailyMeans(s.times, s.values, { zone: denverStandard });
    assert.deepEqual([...standard.means], [[dayOf('2026-07-04'), 10]]);
    assert.equal(standard.incompleteDays, 1, 'July 3 has 1 hour');
    const clock = dailyMeans(s.times, s.values, { zone: denver });
    assert.deepEqual([...clock.means], [[dayOf('2026-07-04'), (100 + 23 * 10) / 24]]);
  });

  it('minutes make an hour with 45 of 60 (sensortoolkit): an hour of 44 minutes is left out of the day', () => {
    const times: number[] = [];
    const values: number[] = [];
    // 18 local hours of Nov 25 in Denver (07:00Z on), each with 45 minutes of 3; a 19th hour with 44 minutes of 90.
    for (let h = 0; h < 19; h++)
      for (let m = 0; m < (h < 18 ? 45 : 44); m++) {
        times.push(at('2026-11-25T07:00Z') + h * HOUR_MS + m * MINUTE_MS);
        values.push(h < 18 ? 3 : 90);
      }
    const d = dailyMeans(times, values, { zone: denver, frequency: 'minute' });
    assert.deepEqual([...d.means], [[dayOf('2026-11-25'), 3]]);
    // Without the minute rule the 44-minute hour would count: (18·3 + 90) / 19.
    const asHours = dailyMeans(times, values, { zone: denver, frequency: 'hour' });
    assert.deepEqual([...asHours.means], [[dayOf('2026-11-25'), (18 * 3 + 90) / 19]]);
  });

  it('pairByPeriod applies the 45-of-60 rule to minute data and pairs local days', () => {
    const minutes = (from: string, n: number, v: number) => ({
      times: Array.from({ length: n }, (_, i) => at(from) + i * MINUTE_MS),
      values: Array.from({ length: n }, () => v),
    });
    const a = minutes('2026-11-25T10:00Z', 45, 8);
    const b = minutes('2026-11-25T11:00Z', 44, 9);
    const sensor = { times: [...a.times, ...b.times], values: [...a.values, ...b.values] };
    const reference = { times: [at('2026-11-25T10:00Z'), at('2026-11-25T11:00Z')], values: [7, 7] };
    const p = pairByPeriod(sensor, reference, 'hour', { sensorFrequency: 'minute', referenceFrequency: 'hour' });
    assert.deepEqual([...p.times], [at('2026-11-25T10:00Z')]);
    assert.deepEqual([...p.sensor], [8]);
    assert.equal(p.expected, 2);

    const s = hourly('2026-11-01T06:00Z', '2026-11-02T07:00Z', () => 12);
    const r = hourly('2026-11-01T06:00Z', '2026-11-02T07:00Z', () => 10);
    const days = pairDaily(s, r, denver);
    assert.deepEqual([...days.times], [at('2026-11-01T06:00Z')], 'a pair is stamped at its local day start');
    assert.deepEqual([...days.sensor], [12]);
    assert.equal(days.expected, 1);
  });

  it('profiles put an hour in its local hour of day, DST included (18:00Z is 12:00 in July, 11:00 in January)', () => {
    const times = [at('2026-07-01T18:00Z'), at('2026-01-01T18:00Z')];
    const p = profile(times, [6, 8], 'hour', denver);
    assert.equal(p[12].mean, 6);
    assert.equal(p[11].mean, 8);
    const standard = profile(times, [6, 8], 'hour', denverStandard);
    assert.equal(standard[11].n, 2, 'in standard time both are 11:00');
    const weekdays = profile([at('2026-07-04T06:30Z')], [1], 'weekday', denver); // Saturday 00:30 MDT
    assert.equal(weekdays[5].n, 1);
    assert.equal(profile([at('2026-07-04T06:30Z')], [1], 'weekday').at(5)?.n, 1, 'a Saturday in UTC too');
    assert.equal(profile([at('2026-07-04T05:30Z')], [1], 'weekday', denver)[4].n, 1, '23:30 Friday in Denver');
  });

  it('exceedance days: valid local days whose mean is above the threshold (35 µg/m³), with their starts', () => {
    const s = hourly('2026-10-31T06:00Z', '2026-11-02T07:00Z', (t) => (t < at('2026-11-01T06:00Z') ? 20 : 40));
    const e = exceedanceDays(s, 35, { zone: denver });
    assert.deepEqual(e, { days: 1, validDays: 2, starts: [at('2026-11-01T06:00Z')] });
  });

  it('gives the same days under any TZ of the process', () => {
    const s = hourly('2026-10-31T06:00Z', '2026-11-02T07:00Z', (t) => t / HOUR_MS);
    const run = () => [...dailyMeans(s.times, s.values, { zone: denver }).means];
    const expected = run();
    for (const tz of ['Asia/Kolkata', 'America/Denver', 'Pacific/Chatham'])
      assert.deepEqual(withTimeZone(tz, run), expected, tz);
  });
});
