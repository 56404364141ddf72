// The Calendar's numbers: local days' means of hourly means with EPA's 18-of-24 rule, the AQI category of a
// valid day (PM2.5 24-hour breakpoints, EPA 2024), and the month grids of a year (weeks from Monday).
import assert from 'node:assert/strict';
import { AQI_CATEGORIES } from '../../../../src/core/aq/aqi';
import { calendarYear, calendarYears, localDailyMeans, utcDayOf } from '../../../../src/core/aq/calendar';
import { dailyMeanPollutant } from '../../../../src/core/aq/metric-info';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { daysFromCivil } from '../../../../src/core/time/iso';

const H = 3_600_000;
const D = 24 * H;
const DAY0 = daysFromCivil(2026, 3, 1); // 2026-03-01, a Sunday
const T0 = DAY0 * D;

/** Hourly values at hours [from, to) of day `day` (relative to 2026-03-01 UTC). */
function hours(day: number, from: number, to: number, value: (h: number) => number) {
  const times: number[] = [];
  const values: number[] = [];
  for (let h = from; h < to; h++) {
    times.push(T0 + day * D + h * H);
    values.push(value(h));
  }
  return { times, values };
}
function join(...parts: Array<{ times: number[]; values: number[] }>) {
  return { times: parts.flatMap((p) => p.times), values: parts.flatMap((p) => p.values) };
}

/** A fixed-offset zone's local day (UTC−7, as America/Denver in winter). */
const minus7: (ms: number) => number = (ms) => Math.floor((ms - 7 * H) / D);

describe('core aq: calendar days', () => {
  it('a day is the mean of its hourly means; valid with 18 of 24 hours, marked otherwise', () => {
    // Day 0: 24 hours, hours 0-11 at 8 and 12-23 at 12 -> 10. Day 1: 17 hours of 40 (not valid).
    // Day 2: hour 0 has minutes 10, 20, 30 (mean 20), hours 1-17 are 2 -> (20 + 17·2) / 18 = 3, valid.
    const s = join(
      hours(0, 0, 24, (h) => (h < 12 ? 8 : 12)),
      hours(1, 0, 17, () => 40),
      { times: [T0 + 2 * D + 60_000, T0 + 2 * D + 120_000, T0 + 2 * D + 180_000], values: [10, 20, 30] },
      hours(2, 1, 18, () => 2),
    );
    assert.deepEqual(localDailyMeans(s.times, s.values), [
      { day: DAY0, mean: 10, hours: 24, valid: true },
      { day: DAY0 + 1, mean: 40, hours: 17, valid: false },
      { day: DAY0 + 2, mean: 3, hours: 18, valid: true },
    ]);
  });

  it('days are local days of the zone given: UTC−7 moves the first 7 UTC hours into the day before', () => {
    // 48 UTC hours of day 0 and 1, value = UTC hour of the day. In UTC−7: 2026-02-28 local holds UTC hours
    // 0-6 of day 0 (7 hours, mean 3, not valid); 03-01 holds hours 7-23 of day 0 and 0-6 of day 1 (24 hours,
    // mean (sum 7..23 + sum 0..6) / 24 = (255 + 21) / 24 = 11.5); 03-02 holds hours 7-23 of day 1 (17 hours, mean 15).
    const s = join(
      hours(0, 0, 24, (h) => h),
      hours(1, 0, 24, (h) => h),
    );
    const days = localDailyMeans(s.times, s.values, minus7);
    assert.deepEqual(
      days.map((d) => [d.day - DAY0, d.mean, d.hours, d.valid]),
      [
        [-1, 3, 7, false],
        [0, 11.5, 24, true],
        [1, 15, 17, false],
      ],
    );
    assert.deepEqual(
      localDailyMeans(s.times, s.values, utcDayOf).map((d) => d.mean),
      [11.5, 11.5],
    );
  });

  it('a valid PM2.5 day gets its AQI category (EPA 2024: 9.0 Good, 9.1 Moderate, 35.5 USG); an invalid one none', () => {
    // EPA's PM2.5 breakpoints (2024 revision, 40 CFR 58 App. G Table 2): Good 0.0-9.0, Moderate 9.1-35.4, USG 35.5-55.4.
    const s = join(
      hours(0, 0, 24, () => 9.0),
      hours(1, 0, 24, () => 9.1),
      hours(2, 0, 24, () => 35.5),
      hours(3, 0, 10, () => 100),
    );
    const days = localDailyMeans(s.times, s.values);
    const march = calendarYear(days, 2026, 'pm2_5')[2];
    assert.deepEqual(
      march.days.slice(0, 5).map((c) => c && [c.mean, c.valid, c.category?.name]),
      [
        [9, true, 'Good'],
        [9.1, true, 'Moderate'],
        [35.5, true, AQI_CATEGORIES[2].name],
        [100, false, undefined],
        undefined,
      ],
    );
    // No pollutant (a metric without 24-hour breakpoints): values without categories.
    assert.equal(calendarYear(days, 2026)[2].days[0]?.category, undefined);
  });

  it("month grids: each month's days, and the weekday (Monday = 0) its 1st falls on", () => {
    const grid = calendarYear([], 2026);
    assert.deepEqual(
      grid.map((m) => [m.month, m.days.length, m.lead]),
      // 2026 (python3: [date(2026, m, 1).weekday() for m in 1..12] and calendar.monthrange): Jan 1 is a Thursday.
      [
        [1, 31, 3],
        [2, 28, 6],
        [3, 31, 6],
        [4, 30, 2],
        [5, 31, 4],
        [6, 30, 0],
        [7, 31, 2],
        [8, 31, 5],
        [9, 30, 1],
        [10, 31, 3],
        [11, 30, 6],
        [12, 31, 1],
      ],
    );
    assert.equal(calendarYear([], 2024)[1].days.length, 29);
    assert.deepEqual(
      calendarYears([
        { day: daysFromCivil(2025, 12, 31), mean: 1, hours: 24, valid: true },
        { day: DAY0, mean: 1, hours: 24, valid: true },
      ]),
      [2025, 2026],
    );
  });

  it('daily-mean categories exist for PM2.5 and PM10 of any averaging, not for NO2 or an AQI', () => {
    const of = (label: string) => dailyMeanPollutant(parseCanonicalLabel(label));
    assert.equal(of('pm2_5ConcMass1HourMean.value'), 'pm2_5');
    assert.equal(of('pm10ConcMass24HourMean.value'), 'pm10');
    assert.equal(of('no2Conc1HourMean.value'), undefined);
    assert.equal(of('pm2_5ConcMassNowcastUsEpaAqi.value'), undefined);
  });
});
