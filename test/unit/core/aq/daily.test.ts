// EPA evaluates PM2.5 sensors on 24-hour means, each valid only with ≥ 75 % of its hours (18 of 24): the daily
// means, the pairing of a sensor with a reference on valid days, and which metrics the targets apply to.
import assert from 'node:assert/strict';
import { truncateTo } from '../../../../src/core/aq/aqi';
import { isPm25Concentration } from '../../../../src/core/aq/metric-info';
import { dailyMeans, MIN_HOURS_PER_DAY, ols, pairDaily } from '../../../../src/core/aq/stats';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2026, 10, 16, 0, 0, 0);
const DAY0 = T0 / D;

/** Hourly values at hours [from, to) of day `day` (relative to T0). */
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

describe('core aq: 24-hour means with the 18-of-24 rule', () => {
  it('18 hours make a valid day, 17 do not', () => {
    assert.equal(MIN_HOURS_PER_DAY, 18);
    const s = join(
      hours(0, 0, 18, () => 10),
      hours(1, 0, 17, () => 10),
    );
    const { means, incompleteDays } = dailyMeans(s.times, s.values);
    assert.deepEqual([...means], [[DAY0, 10]]);
    assert.equal(incompleteDays, 1);
  });

  it('a mean carries no floating-point noise into EPA truncation (24 hours of 9.1 -> 9.1, not 9.0)', () => {
    // Summing 9.1 twenty-four times in doubles and dividing by 24 gives 9.099999999999996; AirNow truncates the
    // 24-hour PM2.5 mean to one decimal (EPA 2024 AQI rule, 40 CFR 58 App. G), so the noise would read 9.0 (Good).
    const s = hours(0, 0, 24, () => 9.1);
    assert.equal(s.values.reduce((a, b) => a + b, 0) / 24, 9.099999999999996);
    const [mean] = dailyMeans(s.times, s.values).means.values();
    assert.equal(mean, 9.1);
    assert.equal(truncateTo(mean, 1), 9.1);
    const daily = { times: [T0], values: [9.1] };
    assert.equal([...dailyMeans(daily.times, daily.values, { frequency: 'day' }).means.values()][0], 9.1);
    // Digits a mean really has are kept: 18 hours of 7 and one of 18 -> 144 / 19, not cut to 12 digits.
    const real = join(
      hours(1, 0, 18, () => 7),
      hours(1, 18, 19, () => 18),
    );
    assert.deepEqual([...dailyMeans(real.times, real.values).means.values()], [144 / 19]);
  });

  it('minutes are averaged into their hour first; the day is the mean of its hourly means', () => {
    // Day 0: hour 0 has minutes 10, 20, 30 (hour mean 20), hours 1-17 are 2 each -> (20 + 17·2) / 18 = 3.
    const times = [T0 + 60_000, T0 + 120_000, T0 + 180_000, ...hours(0, 1, 18, () => 2).times];
    const values = [10, 20, 30, ...hours(0, 1, 18, () => 2).values];
    assert.deepEqual([...dailyMeans(times, values).means], [[DAY0, 3]]);
  });

  it('pairs only the days both have a valid mean; completeness over the days either has values', () => {
    // Sensor: day 0 18 h of 10 (10), day 1 17 h (dropped), day 2 hours 0-11 at 20 and 12-23 at 30 (25).
    // Reference: day 0 24 h of 8 (8), day 1 24 h of 9 (9), day 2 18 h of 22 (22).
    const sensor = join(
      hours(0, 0, 18, () => 10),
      hours(1, 0, 17, () => 50),
      hours(2, 0, 24, (h) => (h < 12 ? 20 : 30)),
    );
    const reference = join(
      hours(0, 0, 24, () => 8),
      hours(1, 0, 24, () => 9),
      hours(2, 6, 24, () => 22),
    );
    const p = pairDaily(sensor, reference);
    assert.deepEqual([...p.times], [T0, T0 + 2 * D]);
    assert.deepEqual([...p.sensor], [10, 25]);
    assert.deepEqual([...p.reference], [8, 22]);
    assert.equal(p.expected, 3);
    assert.ok(Math.abs(p.completenessPercent - 200 / 3) < 1e-12); // 2 of 3 days: 66.7 % < 75 %
    assert.deepEqual(p.incompleteDays, { sensor: 1, reference: 0 });
    const fit = ols(p.reference, p.sensor);
    assert.ok(Math.abs(fit.slope - 15 / 14) < 1e-12); // (25 − 10) / (22 − 8)
    assert.ok(Math.abs(fit.intercept - (10 - (15 / 14) * 8)) < 1e-12); // 1.4286
  });

  it("EPA's PM2.5 targets apply to PM2.5 concentrations only (any averaging), not to PM10, NO2 or an index", () => {
    const is = (label: string) => isPm25Concentration(parseCanonicalLabel(label));
    assert.equal(is('pm2_5ConcMass1HourMean'), true);
    assert.equal(is('pm2_5ConcMassNowcast'), true);
    assert.equal(is('pm10ConcMass1HourMean'), false);
    assert.equal(is('no2Conc1HourMean'), false);
    assert.equal(is('pm2_5ConcMassNowcastUsEpaAqi'), false);
  });
});
