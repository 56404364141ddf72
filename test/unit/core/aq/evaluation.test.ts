// EPA's PM2.5 sensor performance evaluation (EPA/600/R-20/280, 2021; the formulas as EPA's sensortoolkit codes
// them: calculate/_rmse.py for RMSE and NRMSE, calculate/_cv.py for SD and CV, param/_targets.py for the
// target ranges, datetime_utils/_time_averaging.py for the 75 % completeness of 1-hour and 24-hour averages).
import assert from 'node:assert/strict';
import {
  distanceKm,
  evaluatePair,
  hourlyMeans,
  precision,
  precisionTargets,
  validAverages,
} from '../../../../src/core/aq/evaluation';
import { MIN_MINUTES_PER_HOUR, ols, pm25SensorTargets, type Regression } from '../../../../src/core/aq/stats';

const MIN = 60_000;
const DAY0 = Date.UTC(2026, 10, 16);

// The generated minute data of the cross-check: 4 days, a reference (j = 0) and four sensors. Sensor 1 keeps
// 45 of 60 minutes in every fifth hour (valid: 75 %); every series keeps 30 of 60 minutes in every seventh hour
// (invalid); sensor 2 lacks 8 hours of day 2 (16 of 24 hours: invalid day).
const GAINS = [1.0, 1.3, 0.9, 1.1, 1.2];
const OFFS = [0.0, 2.0, -1.0, 0.5, 3.0];
function value(j: number, m: number): number {
  const base = 12 + 8 * Math.sin((2 * Math.PI * m) / 1440);
  const noise = ((m * 7919 + j * 104729) % 1000) / 100 - 5;
  return GAINS[j] * base + OFFS[j] + noise * (j === 0 ? 0.2 : 1);
}
function present(j: number, m: number): boolean {
  const h = Math.floor(m / 60);
  const d = Math.floor(m / 1440);
  if ((h + j) % 7 === 0 && m % 60 >= 30) return false;
  if (j === 2 && d === 2 && h % 24 < 8) return false;
  if (j === 1 && h % 5 === 0 && m % 60 < 15) return false;
  return true;
}
function series(j: number) {
  const times: number[] = [];
  const values: number[] = [];
  for (let m = 0; m < 4 * 1440; m++)
    if (present(j, m)) {
      times.push(DAY0 + m * MIN);
      values.push(value(j, m));
    }
  return { times: Float64Array.from(times), values: Float64Array.from(values) };
}

/** Relative closeness (the values are printed by Python to 17 digits). */
function near(actual: number, expected: number, what: string, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

describe('core aq evaluation: valid averages (75 % completeness)', () => {
  it('an hour of minutes is valid with 45 of 60 (75 %), not 44; hourly data needs no count', () => {
    assert.equal(MIN_MINUTES_PER_HOUR, 45);
    const times = Array.from({ length: 45 }, (_, i) => DAY0 + i * MIN).concat(
      Array.from({ length: 44 }, (_, i) => DAY0 + 3_600_000 + i * MIN),
    );
    const values = times.map((_, i) => (i < 45 ? 2 : 4));
    const { means, incomplete } = hourlyMeans(times, values, true);
    assert.deepEqual([...means], [[DAY0 / 3_600_000, 2]]);
    assert.equal(incomplete, 1);
    assert.deepEqual([...hourlyMeans([DAY0], [7], false).means], [[DAY0 / 3_600_000, 7]]);
  });

  it('24-hour averages from minutes: the mean of the valid hours, valid with 18 of 24; daily data as it is', () => {
    const s = series(2);
    const days = validAverages(s, '24h', 'minute');
    assert.deepEqual(
      [...days.means.keys()].map((d) => d - DAY0 / 86_400_000),
      [0, 1, 3],
    );
    assert.equal(days.incomplete, 1, 'day 2 has 16 valid hours');
    assert.deepEqual([...validAverages({ times: [DAY0], values: [5] }, '24h', 'day').means.values()], [5]);
    assert.equal(validAverages({ times: [DAY0], values: [5] }, '1h', 'day').means.size, 0);
  });
});

describe('core aq evaluation: sensor against reference, 1-hour and 24-hour', () => {
  // Expected: pandas 3.0.6 resample('h') means with count >= 45, resample('D') of those with count >= 18,
  // scipy.stats.linregress (slope, intercept, rvalue²), numpy RMSE, NRMSE = RMSE / mean(reference) × 100
  // (sensortoolkit calculate/_rmse.py), on the same generated data: evaluation.check.py beside this file
  // (numpy 2.4.6, scipy 1.17.1, pandas 3.0.6).
  const sensor = series(1);
  const reference = series(0);

  it('1-hour: n 69, slope 1.30353, intercept 1.96278, R² 0.99941, RMSE 5.87087, NRMSE 48.785 %', () => {
    const e = evaluatePair(sensor, reference, '1h', 'minute');
    assert.equal(e.fit.n, 69);
    near(e.fit.slope, 1.3035295054242677, 'slope');
    near(e.fit.intercept, 1.9627844939599246, 'intercept');
    near(e.fit.r2, 0.9994099658604749, 'r2');
    near(e.fit.rmse, 5.870869016413976, 'rmse');
    near(e.fit.nrmse, 48.78480982328869, 'nrmse');
    assert.deepEqual(e.incomplete, { sensor: 13, reference: 14 });
    assert.equal(e.times[0], DAY0 + 3_600_000, 'hour 0 is incomplete for both');
  });

  it('24-hour: n 4, slope 1.40510, intercept 0.72539, R² 0.35888, RMSE 5.59348, NRMSE 46.549 %', () => {
    const e = evaluatePair(sensor, reference, '24h', 'minute');
    assert.equal(e.fit.n, 4);
    near(e.fit.slope, 1.4050976956172228, 'slope');
    near(e.fit.intercept, 0.7253924214468519, 'intercept');
    near(e.fit.r2, 0.35888147651285546, 'r2');
    near(e.fit.rmse, 5.593484445380646, 'rmse');
    near(e.fit.nrmse, 46.54930712318972, 'nrmse');
  });
});

describe("core aq evaluation: EPA's targets", () => {
  const fitWith = (f: Partial<Regression>): Regression => ({
    n: 30,
    slope: 1,
    intercept: 0,
    r2: 0.9,
    rmse: 1,
    meanBias: 0,
    nrmse: 10,
    ...f,
  });
  const met = (f: Regression) => Object.fromEntries(pm25SensorTargets(f).map((t) => [t.name, t.met]));

  it('error: RMSE ≤ 7 µg/m³ OR NRMSE ≤ 30 % (RMSE 8.39 with NRMSE 18.4 % is met; 8.39 with 31 % is not)', () => {
    assert.deepEqual(met(fitWith({ rmse: 8.39, nrmse: 18.4 })), {
      Slope: true,
      Intercept: true,
      'R²': true,
      RMSE: true,
      NRMSE: true,
    });
    assert.equal(met(fitWith({ rmse: 8.39, nrmse: 31 })).RMSE, false);
    assert.equal(met(fitWith({ rmse: 6.9, nrmse: 45 })).NRMSE, true);
    assert.equal(met(fitWith({ rmse: 7, nrmse: Number.NaN })).RMSE, true, 'the bounds are inclusive');
  });

  it('no "pairing completeness" target: slope, intercept, R², RMSE, NRMSE only, at inclusive bounds', () => {
    assert.deepEqual(
      pm25SensorTargets(fitWith({})).map((t) => t.name),
      ['Slope', 'Intercept', 'R²', 'RMSE', 'NRMSE'],
    );
    assert.deepEqual(met(fitWith({ slope: 0.65, intercept: -5, r2: 0.7 })), {
      Slope: true,
      Intercept: true,
      'R²': true,
      RMSE: true,
      NRMSE: true,
    });
    const off = met(fitWith({ slope: 1.36, intercept: 5.01, r2: 0.69 }));
    assert.deepEqual([off.Slope, off.Intercept, off['R²']], [false, false, false]);
  });

  it('NRMSE = RMSE / mean(reference) × 100: x 10, 20, 30, y 12, 18, 33 → RMSE √(17/3) = 2.3805, NRMSE 11.90 %', () => {
    const f = ols([10, 20, 30], [12, 18, 33]);
    near(f.rmse, Math.sqrt(17 / 3), 'rmse');
    near(f.nrmse, (100 * Math.sqrt(17 / 3)) / 20, 'nrmse');
    assert.ok(Number.isNaN(ols([0, 0], [1, 2]).nrmse), 'undefined for a reference mean of 0');
  });
});

describe('core aq evaluation: precision across collocated sensors', () => {
  it('worked example, 3 sensors × 2 days: [10, 12, 14], [20, 20, 23] → SD √(14/5) = 1.6733, mean 16.5, CV 10.14 %', () => {
    const days = [
      new Map([
        [0, 10],
        [1, 20],
      ]),
      new Map([
        [0, 12],
        [1, 20],
      ]),
      new Map([
        [0, 14],
        [1, 23],
      ]),
    ];
    const p = precision(days);
    assert.equal(p.n, 2);
    near(p.sd, Math.sqrt(14 / 5), 'sd');
    near(p.mean, 16.5, 'mean');
    near(p.cv, (100 * Math.sqrt(14 / 5)) / 16.5, 'cv');
    assert.deepEqual(
      precisionTargets(p).map((t) => t.met),
      [true, true],
    );
  });

  it('only periods where every sensor has a value count (N), and fewer than 3 sensors give no statistics', () => {
    const p = precision([
      new Map([
        [0, 10],
        [1, 20],
      ]),
      new Map([[0, 12]]),
      new Map([
        [0, 14],
        [1, 23],
      ]),
    ]);
    assert.equal(p.n, 1);
    near(p.sd, 2, 'sd over one day: √(8/2)');
    const two = precision([new Map([[0, 10]]), new Map([[0, 12]])]);
    assert.equal(two.sensors, 2);
    assert.ok(Number.isNaN(two.sd) && Number.isNaN(two.cv));
    assert.deepEqual(
      precisionTargets(two).map((t) => t.met),
      [false, false],
    );
  });

  // Expected: sensortoolkit's _calculate_cv in pandas (rows where all four sensors report, squared deviations
  // from the row mean, SD = √(Σ / (count − 1)), CV = SD / mean of the sensors' means × 100) on the generated data
  // (evaluation.check.py).
  it('4 sensors on the generated minute data: 1-hour N 39, SD 3.23944, CV 22.908 %; 24-hour N 3, SD 3.35110, CV 22.958 %', () => {
    const sensors = [1, 2, 3, 4].map(series);
    const hourly = precision(sensors.map((s) => validAverages(s, '1h', 'minute').means));
    assert.equal(hourly.n, 39);
    near(hourly.sd, 3.23943672071412, 'sd');
    near(hourly.cv, 22.90758229932465, 'cv');
    near(hourly.mean, 14.141329619100063, 'mean');
    const daily = precision(sensors.map((s) => validAverages(s, '24h', 'minute').means));
    assert.equal(daily.n, 3);
    near(daily.sd, 3.351100954586062, 'sd');
    near(daily.cv, 22.95774835803449, 'cv');
  });
});

describe('core aq evaluation: distance for pairing a sensor with its nearest reference site', () => {
  // Expected: the haversine formula in Python (math module, R = 6371.0088 km), printed to 17 digits.
  it('Paris (48.8566, 2.3522) to London (51.5074, −0.1278): 343.5565 km; 0.0045° of latitude: 0.50038 km', () => {
    near(distanceKm({ lat: 48.8566, lon: 2.3522 }, { lat: 51.5074, lon: -0.1278 }), 343.55653488088313, 'km');
    near(distanceKm({ lat: 47.6, lon: -122.3 }, { lat: 47.6045, lon: -122.3 }), 0.5003778610510085, 'km');
    assert.equal(distanceKm({ lat: 1, lon: 2 }, { lat: 1, lon: 2 }), 0);
  });
});
