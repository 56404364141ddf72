// Resampling for the chart: means and counts per local hour / local day of a zone.
// Expected daily values: python3 (zoneinfo + numpy.mean) grouping the same hourly series by its America/Denver
// local date — what pandas' `s.tz_convert('America/Denver').resample('D').agg(['mean', 'count'])` gives
// (bins from local midnight, labelled by their left edge); pandas itself is not installed here, the grouping is.
import assert from 'node:assert/strict';
import { periodStarter, resampleMeans, resamplePeriodOf } from '../../../../src/core/aq/resample';
import { zoneOf } from '../../../../src/core/time/zone';

const H = 3_600_000;
const hourly = (start: number, n: number) => ({
  times: Float64Array.from({ length: n }, (_, i) => start + i * H),
  values: Float64Array.from({ length: n }, (_, i) => i),
});

describe('core aq resample', () => {
  const denver = zoneOf('America/Denver', 'clock');

  it('daily means across the fall-back night: a 25-hour local day (numpy on zoneinfo local dates)', () => {
    // 72 hourly values 0..71 from local 2026-10-31 00:00 MDT (06:00Z).
    const { times, values } = hourly(Date.UTC(2026, 9, 31, 6), 72);
    const r = resampleMeans(times, values, 'day', denver);
    assert.deepEqual(Array.from(r.starts), [
      Date.UTC(2026, 9, 31, 6),
      Date.UTC(2026, 10, 1, 6),
      Date.UTC(2026, 10, 2, 7),
    ]);
    assert.deepEqual(Array.from(r.counts), [24, 25, 23]);
    assert.deepEqual(Array.from(r.means), [11.5, 36, 60]);
  });

  it('daily means across the spring-forward night: a 23-hour local day', () => {
    const { times, values } = hourly(Date.UTC(2026, 2, 7, 7), 72);
    const r = resampleMeans(times, values, 'day', denver);
    assert.deepEqual(Array.from(r.counts), [24, 23, 24, 1]);
    assert.deepEqual(Array.from(r.means), [11.5, 35, 58.5, 71]);
    assert.equal(r.starts[2], Date.UTC(2026, 2, 9, 6));
  });

  it('standard-time days are 24 h from standard midnight all year', () => {
    const { times, values } = hourly(Date.UTC(2026, 9, 31, 6), 72);
    const r = resampleMeans(times, values, 'day', zoneOf('America/Denver', 'standard'));
    assert.deepEqual(Array.from(r.counts), [1, 24, 24, 23]);
    assert.equal(r.starts[1], Date.UTC(2026, 9, 31, 7));
    assert.deepEqual(Array.from(r.means), [0, 12.5, 36.5, 60]);
  });

  it('hourly means keep the two 01:00 hours of the fall-back night apart; missing values count for nothing', () => {
    const t0 = Date.UTC(2026, 10, 1, 7); // 01:00 MDT; 08:00Z is 01:00 MST
    const times = Float64Array.from({ length: 12 }, (_, i) => t0 + i * 10 * 60_000);
    const values = Float64Array.from({ length: 12 }, (_, i) => (i === 11 ? Number.NaN : i));
    const r = resampleMeans(times, values, 'hour', denver);
    assert.deepEqual(Array.from(r.starts), [t0, t0 + H]);
    assert.deepEqual(Array.from(r.counts), [6, 5]);
    assert.deepEqual(Array.from(r.means), [2.5, 8]);
  });

  it('hours start at the local hh:00 in a half-hour zone (Asia/Kolkata, +05:30), times in any order', () => {
    const kolkata = zoneOf('Asia/Kolkata', 'clock');
    const start = periodStarter('hour', kolkata);
    assert.equal(start(Date.UTC(2026, 0, 1, 0, 10)), Date.UTC(2025, 11, 31, 23, 30));
    const r = resampleMeans([Date.UTC(2026, 0, 1, 0, 40), Date.UTC(2026, 0, 1, 0, 10)], [4, 2], 'hour', kolkata);
    assert.deepEqual(Array.from(r.starts), [Date.UTC(2025, 11, 31, 23, 30), Date.UTC(2026, 0, 1, 0, 30)]);
    assert.deepEqual(Array.from(r.means), [2, 4]);
  });

  it('raw keeps each instant; a choice from a file is raw unless known', () => {
    assert.equal(periodStarter('raw', denver)(123), 123);
    assert.equal(resamplePeriodOf('day'), 'day');
    assert.equal(resamplePeriodOf('weekly'), 'raw');
    assert.equal(resamplePeriodOf(undefined), 'raw');
  });
});
