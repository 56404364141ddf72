// The air-quality computations against worked examples checked by hand (numbers in the test names).

import assert from 'node:assert/strict';
import {
  AQI_CATEGORIES,
  aqiCategory,
  categoryConcentrationBands,
  concentrationCategory,
  nowcast,
  usEpaAqi,
} from '../../../../src/core/aq/aqi';
import { defaultThreshold, metricScale, metricUnit } from '../../../../src/core/aq/metric-info';
import {
  completenessPercent,
  distribution,
  exceedances,
  expectedPeriods,
  inferFrequency,
  ols,
  pairByPeriod,
  periodsWithValue,
  pm25SensorTargets,
  profile,
} from '../../../../src/core/aq/stats';
import { parseMetricLabel } from '../../../../src/core/metrics/labels';
import { zoneOf } from '../../../../src/core/time/zone';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 16, 0, 0, 0); // a Monday

describe('core aq: AQI categories (US EPA, official colours)', () => {
  it('names and colours the six categories in order, Good #00E400 … Hazardous #7E0023', () => {
    assert.deepEqual(
      AQI_CATEGORIES.map((c) => [c.name, c.colour]),
      [
        ['Good', '#00e400'],
        ['Moderate', '#ffff00'],
        ['Unhealthy for Sensitive Groups', '#ff7e00'],
        ['Unhealthy', '#ff0000'],
        ['Very Unhealthy', '#8f3f97'],
        ['Hazardous', '#7e0023'],
      ],
    );
  });

  it('maps an index to its category at the edges: 50 Good, 51 Moderate, 150 USG, 151 Unhealthy, 301 and 600 Hazardous', () => {
    assert.equal(aqiCategory(50)?.name, 'Good');
    assert.equal(aqiCategory(51)?.name, 'Moderate');
    assert.equal(aqiCategory(150)?.name, 'Unhealthy for Sensitive Groups');
    assert.equal(aqiCategory(151)?.name, 'Unhealthy');
    assert.equal(aqiCategory(301)?.name, 'Hazardous');
    assert.equal(aqiCategory(600)?.name, 'Hazardous');
    assert.equal(aqiCategory(Number.NaN), undefined);
  });

  it('a concentration takes the category of its AQI: PM2.5 35.45 truncates to 35.4 -> AQI 100 Moderate; 35.5 -> 101 USG; NO2 101 ppb -> USG', () => {
    assert.equal(concentrationCategory('pm2_5', 35.45)?.name, 'Moderate');
    assert.equal(concentrationCategory('pm2_5', 35.5)?.name, 'Unhealthy for Sensitive Groups');
    assert.equal(concentrationCategory('no2', 101)?.name, 'Unhealthy for Sensitive Groups');
    assert.equal(concentrationCategory('pm10', 155)?.name, 'Unhealthy for Sensitive Groups');
  });

  it('the tour example: an hourly PM2.5 NowCast of 69 µg/m³ is AQI (200-151)/(125.4-55.5)*(69-55.5)+151 = 160.5 -> 160, Unhealthy', () => {
    assert.equal(usEpaAqi('pm2_5', 69), 160);
    assert.equal(concentrationCategory('pm2_5', 69)?.name, 'Unhealthy');
  });

  it('chart bands of PM2.5 are contiguous from 0 to 325.4', () => {
    const bands = categoryConcentrationBands('pm2_5');
    assert.deepEqual(
      bands.map((b) => [b.from, b.to]),
      [
        [0, 9.1],
        [9.1, 35.5],
        [35.5, 55.5],
        [55.5, 125.5],
        [125.5, 225.5],
        [225.5, 325.4],
      ],
    );
  });
});

describe('core aq: NowCast worked examples', () => {
  it('a single 71 µg/m³ pulse after 11 clean hours: w floored at 0.5, 71 / (1 + 0.5 + … + 0.5^11) = 35.51 -> 35.5, AQI 101 (USG)', () => {
    const hours = [71, ...new Array(11).fill(0)];
    assert.equal(nowcast(hours), 35.5);
    assert.equal(usEpaAqi('pm2_5', nowcast(hours)), 101);
  });

  it('an hour later the pulse weighs half: 35.5 / 1.9995 = 17.75 -> 17.7', () => {
    assert.equal(nowcast([0, 71, ...new Array(10).fill(0)]), 17.7);
  });
});

describe('core aq: units and scales from the metric catalogue', () => {
  const scale = (label: string) => metricScale(parseMetricLabel(label));
  it('units: µg/m³, ppb, °C, %, #/cm³, hPa, m/s, °, AQI', () => {
    const unit = (label: string) => metricUnit(parseMetricLabel(label));
    assert.equal(unit('pm2_5ConcMassNowcast.value'), 'µg/m³');
    assert.equal(unit('no2Conc1HourMean'), 'ppb');
    assert.equal(unit('temperatureAmbientIndividual'), '°C');
    assert.equal(unit('relHumidAmbient1HourMean'), '%');
    assert.equal(unit('pm10ConcNumIndividual.value'), '#/cm³');
    assert.equal(unit('atmosphericPressureIndividual'), 'hPa');
    assert.equal(unit('windSpeed1HourMean'), 'm/s');
    assert.equal(unit('windDirection1HourMean'), '°');
    assert.equal(unit('pm2_5ConcMassNowcastUsEpaAqi.value'), 'AQI');
    assert.equal(unit('PM 2.5 mass concentration, Nowcast value'), 'µg/m³');
    assert.equal(unit('pm2_5ConcMassNowcast.status'), undefined);
    assert.equal(unit('datasourceId'), undefined);
  });

  it('EPA breakpoints apply to PM NowCast / 24-hour averages and NO2 1-hour means, not to minute or 1-hour PM', () => {
    assert.equal(scale('pm2_5ConcMassNowcast.value')?.kind, 'concentration');
    assert.equal(scale('pm10ConcMass24HourMean')?.kind, 'concentration');
    assert.equal(scale('no2Conc1HourMean')?.kind, 'concentration');
    assert.equal(scale('pm2_5ConcMassIndividual')?.kind, 'plain');
    assert.equal(scale('pm2_5ConcMass1HourMean')?.kind, 'plain');
    assert.equal(scale('no2Conc1HourMeanUsEpaAqi')?.kind, 'aqi');
  });

  it('default thresholds: 35 for 24-hour PM2.5, 35.4 for its NowCast, 150 for 24-hour PM10, AQI 100, none for temperature', () => {
    const t = (label: string) => defaultThreshold(parseMetricLabel(label));
    assert.equal(t('pm2_5ConcMass24HourMean'), 35);
    assert.equal(t('pm2_5ConcMassNowcast'), 35.4);
    assert.equal(t('pm10ConcMass24HourMean'), 150);
    assert.equal(t('pm2_5ConcMassNowcastUsEpaAqi'), 100);
    assert.equal(t('temperatureAmbientIndividual'), undefined);
  });
});

describe('core aq: distribution, completeness, exceedances', () => {
  it('distribution of 1..100 (NaN ignored): min 1, mean 50.5, median 50.5, p98 = 1 + 0.98*99 = 98.02, max 100', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    const d = distribution([...v, Number.NaN]);
    assert.equal(d.count, 100);
    assert.equal(d.min, 1);
    assert.equal(d.mean, 50.5);
    assert.equal(d.median, 50.5);
    assert.ok(Math.abs(d.p98 - 98.02) < 1e-9);
    assert.equal(d.max, 100);
  });

  it('completeness: 00:00 .. 23:59 is 24 hours expected; 18 hours with values (two in one hour count once) is 75 %', () => {
    assert.equal(expectedPeriods(T0, T0 + 24 * H - 60_000, 'hour'), 24);
    assert.equal(expectedPeriods(T0, T0 + 2 * 86_400_000, 'day'), 3);
    const times = [...Array.from({ length: 18 }, (_, i) => T0 + i * H), T0 + 5 * H + 1000];
    const values = times.map(() => 1);
    const withValue = periodsWithValue(times, values, 'hour');
    assert.equal(withValue, 18);
    assert.equal(completenessPercent(withValue, 24), 75);
  });

  it('infers the frequency from the spacing of the times', () => {
    assert.equal(inferFrequency([T0, T0 + 60_123, T0 + 120_050]), 'minute');
    assert.equal(inferFrequency([T0, T0 + H, T0 + 3 * H]), 'hour');
    assert.equal(inferFrequency([T0, T0 + 86_400_000]), 'day');
  });

  it('exceedances above 35: hours 2,3,4 and 7 -> 4 periods, longest run 3 from 02:00, first 02:00, last 07:00; equal is not above', () => {
    const values = [10, 35, 40, 50, 36, 20, Number.NaN, 90, 35];
    const times = values.map((_, i) => T0 + i * H);
    const e = exceedances(times, values, 35, 'hour');
    assert.equal(e.periods, 4);
    assert.equal(e.longestRun, 3);
    assert.equal(e.longestRunStart, T0 + 2 * H);
    assert.equal(e.first, T0 + 2 * H);
    assert.equal(e.last, T0 + 7 * H);
  });

  it('a gap (no value) breaks a run', () => {
    const e = exceedances([T0, T0 + 2 * H], [50, 50], 35, 'hour');
    assert.equal(e.longestRun, 1);
    assert.equal(e.periods, 2);
  });
});

describe('core aq: profiles', () => {
  it('diurnal: values at 01:00 on three days (2, 4, 6) -> mean 4, IQR 3..5; Africa/Johannesburg (UTC+2) moves them to 03:00', () => {
    const times = [T0 + H, T0 + 25 * H, T0 + 49 * H];
    const values = [2, 4, 6];
    const p = profile(times, values, 'hour');
    assert.deepEqual(p[1], { mean: 4, q25: 3, q75: 5, n: 3 });
    assert.equal(p[0].n, 0);
    const local = profile(times, values, 'hour', zoneOf('Africa/Johannesburg')); // +02:00 all year (zoneinfo)
    assert.equal(local[3].mean, 4);
    assert.equal(local[1].n, 0);
  });

  it('weekday: Monday first (2026-11-16 is a Monday), Sunday last', () => {
    const p = profile([T0, T0 + 6 * 86_400_000], [10, 70], 'weekday');
    assert.equal(p[0].mean, 10);
    assert.equal(p[6].mean, 70);
  });
});

describe('core aq: OLS, pairing and EPA sensor targets', () => {
  it('hand-checked OLS: x 1..5, y 2,4,5,4,5 -> slope 6/10 = 0.6, intercept 4 − 1.8 = 2.2, R² 36/60 = 0.6, bias 1, RMSE √1.8', () => {
    const fit = ols([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]);
    assert.equal(fit.n, 5);
    assert.ok(Math.abs(fit.slope - 0.6) < 1e-12);
    assert.ok(Math.abs(fit.intercept - 2.2) < 1e-12);
    assert.ok(Math.abs(fit.r2 - 0.6) < 1e-12);
    assert.ok(Math.abs(fit.meanBias - 1) < 1e-12);
    assert.ok(Math.abs(fit.rmse - Math.sqrt(1.8)) < 1e-12);
  });

  it('pairs by period: minute sensor values averaged into the hour, only hours both have; completeness over the span', () => {
    const sensor = { times: [T0 + 60_000, T0 + 120_000, T0 + H + 5, T0 + 3 * H], values: [10, 20, 30, 40] };
    const reference = { times: [T0, T0 + H, T0 + 2 * H], values: [12, 28, 5] };
    const pairs = pairByPeriod(sensor, reference, 'hour');
    assert.deepEqual([...pairs.times], [T0, T0 + H]);
    assert.deepEqual([...pairs.sensor], [15, 30]);
    assert.deepEqual([...pairs.reference], [12, 28]);
    assert.equal(pairs.expected, 4);
    assert.equal(pairs.completenessPercent, 50);
  });

  it('targets: slope 1.0 ± 0.35, intercept −5..5, R² ≥ 0.70, RMSE ≤ 7 or NRMSE ≤ 30 % (both missed here)', () => {
    // y = 1.2x + 2 exactly: slope/intercept/R² met; y − x = 0.2x + 2 over x = 0..50 step 10 is 2..12.
    const x = [0, 10, 20, 30, 40, 50];
    const y = x.map((v) => 1.2 * v + 2);
    const fit = ols(x, y);
    const checks = pm25SensorTargets(fit);
    const met = Object.fromEntries(checks.map((c) => [c.name, c.met]));
    assert.deepEqual(met, { Slope: true, Intercept: true, 'R²': true, RMSE: false, NRMSE: false });
    // RMSE: √((4 + 16 + 36 + 64 + 100 + 144) / 6) = √60.67 = 7.79 > 7, NRMSE 7.79 / 25 = 31.2 % > 30: not met.
    assert.ok(Math.abs(fit.rmse - Math.sqrt(364 / 6)) < 1e-12);
    assert.ok(Math.abs(fit.nrmse - (100 * Math.sqrt(364 / 6)) / 25) < 1e-12);
  });
});
