// openair's timeVariation panels on plain numbers: the hour-of-week and month-of-year profiles, and the seeded
// percentile bootstrap 95 % interval of each mean (mulberry32; the same numbers as bootstrap.check.py, which runs the
// same generator in Python with numpy.percentile).
import assert from 'node:assert/strict';
import { BOOTSTRAP_RESAMPLES, bootstrapMeans, mulberry32 } from '../../../../src/core/aq/bootstrap';
import { BOOTSTRAP_MAX_VALUES, meanInterval, profile, quantileSorted } from '../../../../src/core/aq/stats';
import { daysFromCivil } from '../../../../src/core/time/iso';
import { zoneOf } from '../../../../src/core/time/zone';

const H = 3_600_000;
const D = 24 * H;
// bootstrap.check.py: values[i] = (37 i mod 23) + 0.5 (i mod 3), i = 0..29.
const VALUES = Array.from({ length: 30 }, (_, i) => ((i * 37) % 23) + 0.5 * (i % 3));

describe('core aq: seeded bootstrap of the mean', () => {
  it('mulberry32(42) draws the stream Python draws with the same arithmetic', () => {
    const r = mulberry32(42);
    assert.deepEqual([r(), r(), r()], [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('the 95 % percentile interval of 200 resample means: numpy.percentile on the same resamples', () => {
    const means = bootstrapMeans(VALUES, mulberry32(42), 200);
    assert.equal(BOOTSTRAP_RESAMPLES, 200);
    // bootstrap.check.py: 8.833333333333334 and 13.584583333333335 (mean 11.0667).
    assert.ok(Math.abs(quantileSorted(means, 0.025) - 8.833333333333334) < 1e-12);
    assert.ok(Math.abs(quantileSorted(means, 0.975) - 13.584583333333335) < 1e-12);
    // scipy.stats.bootstrap(method='percentile', 9999 resamples, another generator): [8.617, 13.4]: close, as
    // two bootstraps of 30 values are.
    assert.ok(Math.abs(quantileSorted(means, 0.025) - 8.617) < 0.5);
    assert.ok(Math.abs(quantileSorted(means, 0.975) - 13.4) < 0.5);
  });

  it('above BOOTSTRAP_MAX_VALUES (100) values the interval is the normal one, mean ± 1.96·s/√n (numpy/scipy on the same values)', () => {
    const v = Array.from({ length: 2000 }, (_, i) => (i * 37) % 23);
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    assert.equal(BOOTSTRAP_MAX_VALUES, 100);
    const [lo, hi] = meanInterval(v, mean, () => mulberry32(1));
    // python3: m ∓ scipy.stats.norm.ppf(0.975) · v.std(ddof=1) / √2000 = 10.710151580502298, 11.2918484194977.
    assert.ok(Math.abs(lo - 10.710151580502298) < 1e-12 && Math.abs(hi - 11.2918484194977) < 1e-12, `${lo} ${hi}`);
  });
});

describe('core aq: time-variation profiles', () => {
  const monday = daysFromCivil(2026, 11, 16) * D; // 2026-11-16, a Monday

  it('hour of the week: weekday · 24 + hour (Monday 00:00 = 0, Sunday 23:00 = 167), in the zone given', () => {
    const times = [monday, monday + 6 * D + 23 * H, monday + 2 * D + 5 * H];
    const p = profile(times, [1, 2, 3], 'hourWeekday');
    assert.equal(p.length, 168);
    assert.deepEqual([p[0].mean, p[167].mean, p[2 * 24 + 5].mean], [1, 2, 3]);
    // America/Phoenix (UTC−7 all year, zoneinfo): Monday 00:00 UTC is Sunday 17:00 local (6 · 24 + 17 = 161).
    assert.equal(profile(times, [1, 2, 3], 'hourWeekday', zoneOf('America/Phoenix'))[161].mean, 1);
  });

  it('month of year: the local civil month (Africa/Johannesburg, UTC+2, moves 2026-01-31 23:00 UTC into February)', () => {
    const jan31 = daysFromCivil(2026, 1, 31) * D;
    const times = [jan31 + 12 * H, jan31 + 23 * H, daysFromCivil(2026, 7, 4) * D, daysFromCivil(2025, 7, 1) * D];
    const values = [10, 20, 30, 50];
    const p = profile(times, values, 'month');
    assert.deepEqual(
      p.map((x) => x.n),
      [2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0],
    );
    assert.deepEqual([p[0].mean, p[6].mean], [15, 40]);
    const local = profile(times, values, 'month', zoneOf('Africa/Johannesburg'));
    assert.deepEqual([local[0].mean, local[1].mean], [10, 20]);
  });

  it('with a seed, each bucket gets its bootstrap interval around the mean; the same seed draws the same band', () => {
    // 30 days of hourly values: hour h carries VALUES shifted by h.
    const times: number[] = [];
    const values: number[] = [];
    for (let d = 0; d < 30; d++)
      for (let h = 0; h < 24; h++) {
        times.push(monday + d * D + h * H);
        values.push(VALUES[d] + h);
      }
    const a = profile(times, values, 'hour', undefined, { seed: 7 });
    const b = profile(times, values, 'hour', undefined, { seed: 7 });
    const c = profile(times, values, 'hour', undefined, { seed: 8 });
    assert.deepEqual(a, b);
    assert.notDeepEqual(
      a.map((p) => p.ciLow),
      c.map((p) => p.ciLow),
    );
    for (const p of a) assert.ok(p.ciLow! < p.mean && p.mean < p.ciHigh!, JSON.stringify(p));
    // Hour h's values are VALUES + h, so its interval is about VALUES's (8.8 .. 13.6) shifted by h.
    assert.ok(Math.abs(a[5].ciLow! - (8.8 + 5)) < 0.8 && Math.abs(a[5].ciHigh! - (13.6 + 5)) < 0.8);
    // Without a seed there is no interval (the interquartile band only); with one, no quartiles (one band is drawn).
    assert.equal(profile(times, values, 'hour')[0].ciLow, undefined);
    assert.ok(Number.isNaN(a[0].q25) && Number.isNaN(a[0].q75));
  });
});
