// NowCast, US EPA AQI and the WA DWER index against worked examples that can be checked by hand, and the WA
// DWER index against the real service's own report (fixtures/public-node-report-hourly-english.csv).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import {
  aqiFromBands,
  nowcast,
  nowcastDecimals,
  PM25_BANDS,
  truncateTo,
  usEpaAqi,
  waDwerAqi,
} from '../../../src/emulator/air-quality';

const NaN_ = Number.NaN;

describe('emulator air quality: NowCast (EPA)', () => {
  it('weights hours by w = cmin/cmax: [10, 8, 6] -> w 0.6 -> 16.96 / 1.96 = 8.65 -> truncated 8.6', () => {
    assert.equal(nowcast([10, 8, 6]), 8.6);
  });

  it('floors the weight factor at 0.5: [40, 10] -> w 0.25 -> 0.5 -> (40 + 5) / 1.5 = 30.0', () => {
    assert.equal(nowcast([40, 10]), 30);
  });

  it('keeps the position of a missing hour in the exponent: [20, -, 10] -> (20 + 0.25*10) / 1.25 = 18.0', () => {
    assert.equal(nowcast([20, NaN_, 10]), 18);
  });

  it('truncates PM10 to whole µg/m³, PM2.5 to 0.1 (EPA): [60, 50, 40] -> w 2/3 -> 111.11 / 2.111 = 52.63', () => {
    assert.equal(nowcast([60, 50, 40], nowcastDecimals('pm10')), 52);
    assert.equal(nowcast([60, 50, 40], nowcastDecimals('pm2_5')), 52.6);
  });

  it('needs 2 of the 3 newest hours', () => {
    assert.ok(Number.isNaN(nowcast([NaN_, NaN_, 5, 5, 5, 5])));
    assert.ok(Number.isNaN(nowcast([5, NaN_, NaN_, 5, 5])));
    assert.equal(nowcast([5, NaN_, 5]), 5);
  });

  it('uses at most 12 hours', () => {
    const hours = new Array(12).fill(10);
    assert.equal(nowcast([...hours, 1000]), 10);
  });

  it('a constant series is its own NowCast', () => {
    assert.equal(nowcast(new Array(12).fill(12.34)), 12.3);
  });
});

describe('emulator air quality: US EPA AQI (2024 breakpoints)', () => {
  it('PM2.5 band edges: 9.0 -> 50, 9.1 -> 51, 35.4 -> 100, 35.5 -> 101, 55.5 -> 151, 325.4 -> 500', () => {
    assert.equal(usEpaAqi('pm2_5', 9.0), 50);
    assert.equal(usEpaAqi('pm2_5', 9.1), 51);
    assert.equal(usEpaAqi('pm2_5', 35.4), 100);
    assert.equal(usEpaAqi('pm2_5', 35.5), 101);
    assert.equal(usEpaAqi('pm2_5', 55.5), 151);
    assert.equal(usEpaAqi('pm2_5', 325.4), 500);
  });

  it('PM2.5 12.0 -> (100-51)/(35.4-9.1)*(12.0-9.1)+51 = 56.40 -> 56; truncation first: 12.09 -> 12.0 -> 56', () => {
    assert.equal(usEpaAqi('pm2_5', 12.0), 56);
    assert.equal(usEpaAqi('pm2_5', 12.09), 56);
  });

  it('PM2.5 9.05 truncates to 9.0 (AQI 50), not rounds to 9.1 (51)', () => {
    assert.equal(usEpaAqi('pm2_5', 9.05), 50);
  });

  it('PM10: 54 -> 50, 55 -> 51, 100 -> 49/99*45+51 = 73.3 -> 73, 54.9 truncates to 54 -> 50', () => {
    assert.equal(usEpaAqi('pm10', 54), 50);
    assert.equal(usEpaAqi('pm10', 55), 51);
    assert.equal(usEpaAqi('pm10', 100), 73);
    assert.equal(usEpaAqi('pm10', 54.9), 50);
  });

  it('NO2 (ppb): 53 -> 50, 54 -> 51, 100 -> 100, 101 -> 101, 360 -> 150, 1000 -> (300-201)/(1249-650)*(350)+201 = 258.8 -> 259', () => {
    assert.equal(usEpaAqi('no2', 53), 50);
    assert.equal(usEpaAqi('no2', 54), 51);
    assert.equal(usEpaAqi('no2', 100), 100);
    assert.equal(usEpaAqi('no2', 101), 101);
    assert.equal(usEpaAqi('no2', 360), 150);
    assert.equal(usEpaAqi('no2', 1000), 259);
  });

  it('caps at 500 above the top band, 0 for zero or negative, empty for no value', () => {
    assert.equal(usEpaAqi('pm2_5', 900), 500);
    assert.equal(usEpaAqi('pm2_5', 0), 0);
    assert.equal(usEpaAqi('pm2_5', -3), 0);
    assert.ok(Number.isNaN(usEpaAqi('pm2_5', NaN_)));
  });

  it('interpolates linearly inside a band', () => {
    // 22.25 is the middle of 9.1..35.4 (after truncation 22.2): (49/26.3)*(13.1)+51 = 75.4 -> 75
    assert.equal(aqiFromBands(22.2, PM25_BANDS), 75);
  });

  it('truncateTo keeps exact decimals (9.1 stays 9.1) and truncates the rest', () => {
    assert.equal(truncateTo(9.1, 1), 9.1);
    assert.equal(truncateTo(8.6530612, 1), 8.6);
    assert.equal(truncateTo(54.99, 0), 54);
  });
});

describe('emulator air quality: WA DWER index (WaDwerAqi)', () => {
  it('is the concentration as a percentage of the reference: NO2 60 ppb / 120 -> 50, O3 100 ppb -> 100', () => {
    assert.equal(waDwerAqi('no2', 60), 50);
    assert.equal(waDwerAqi('no2', 120), 100);
    assert.equal(waDwerAqi('o3', 100), 100);
    assert.equal(waDwerAqi('o3', 33.4), 33);
    assert.equal(waDwerAqi('pm10', 250), 250, 'no cap: the index goes above 200 (hazardous)');
    assert.equal(waDwerAqi('pm2_5', -3), 0);
    assert.ok(Number.isNaN(waDwerAqi('pm2_5', Number.NaN)));
  });

  it("matches every PM 1-hour-mean WaDwerAqi of the service's real english report (raw and value)", () => {
    const file = join(__dirname, '../../fixtures/public-node-report-hourly-english.csv');
    const [header, ...rows] = parse(readFileSync(file, 'utf8')) as string[][];
    const col = (name: string) => header.findIndex((h) => h.replace(/\n/g, ' ') === name);
    let checked = 0;
    for (const [english, pollutant] of [
      ['PM 2.5 mass concentration', 'pm2_5'],
      ['PM 10 mass concentration', 'pm10'],
    ] as const) {
      for (const field of ['raw', 'value']) {
        const c = col(`${english}, 1-hour mean ${field}`);
        const i = col(`${english}, 1-hour mean, WaDwerAqi ${field}`);
        assert.ok(c >= 0 && i >= 0, english);
        for (const row of rows) {
          if (row[c] === '' || row[i] === '') continue;
          assert.equal(waDwerAqi(pollutant, Number(row[c])), Number(row[i]), `${english} ${field} ${row[c]}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 8000, `rows checked: ${checked}`);
  });
});
