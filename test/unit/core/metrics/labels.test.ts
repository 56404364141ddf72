import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { metricCatalog } from '../../../../src/core/metrics/catalog';
import {
  formatMetricLabel,
  headerLines,
  parseCanonicalLabel,
  parseEnglishLabel,
  parseMetricLabel,
} from '../../../../src/core/metrics/labels';

describe('metric labels', () => {
  it('splits canonical labels into quantity, aggregation, index and field', () => {
    assert.deepEqual(parseCanonicalLabel('pm2_5ConcMassNowcastUsEpaAqi.value'), {
      quantity: 'pm2_5ConcMass',
      aggregation: 'Nowcast',
      index: 'UsEpaAqi',
      field: 'value',
    });
    assert.deepEqual(parseCanonicalLabel('pm10ConcMass24HourRollingMean'), {
      quantity: 'pm10ConcMass',
      aggregation: '24HourRollingMean',
      index: undefined,
      field: undefined,
    });
    assert.equal(parseCanonicalLabel('pm1ConcMass1HourMean')?.quantity, 'pm1ConcMass');
  });

  it('rejects text that is not a canonical label', () => {
    assert.equal(parseCanonicalLabel('datasourceId'), undefined);
    assert.equal(parseCanonicalLabel('pm2_5ConcMass'), undefined, 'legacy label without aggregation');
    assert.equal(parseCanonicalLabel('pm2_5ConcMassNowcast.bogus'), undefined);
  });

  it('maps english headers of real reports to the same parts', () => {
    assert.deepEqual(parseEnglishLabel('PM 2.5 mass concentration, Nowcast, UsEpaAqi value'), {
      quantity: 'pm2_5ConcMass',
      aggregation: 'Nowcast',
      index: 'UsEpaAqi',
      field: 'value',
    });
    assert.equal(parseEnglishLabel('Ozone, 1-hour mean status')?.quantity, 'o3Conc');
    assert.equal(parseEnglishLabel('Location Latitude [deg]'), undefined);
  });

  it('formats parts back in each style', () => {
    const parts = parseMetricLabel('no2Conc1HourMeanUsEpaAqi.raw')!;
    assert.equal(formatMetricLabel(parts), 'no2Conc1HourMeanUsEpaAqi.raw');
    assert.equal(formatMetricLabel(parts, 'english'), 'NO2 concentration, 1-hour mean, UsEpaAqi raw');
    assert.equal(formatMetricLabel(parts, 'legacy'), 'no2ConcUsEpaAqi.raw');
    assert.deepEqual(parseMetricLabel(formatMetricLabel(parts, 'english')), parts);
  });

  it('offers per-frequency catalogs whose labels all parse back', () => {
    for (const f of ['minute', 'hour', 'day'] as const) {
      const labels = metricCatalog(f).map((m) => m.label);
      assert.ok(labels.length > 10, f);
      for (const l of labels) assert.ok(parseCanonicalLabel(l), l);
    }
    assert.ok(metricCatalog('hour').some((m) => m.label === 'pm2_5ConcMassNowcastUsEpaAqi'));
    assert.ok(!metricCatalog('minute').some((m) => m.label.includes('Nowcast')));
  });

  it("knows every metric of the service's real english hour report, its WaDwerAqi labels included", () => {
    const file = join(__dirname, '../../../fixtures/public-node-report-hourly-english.csv');
    const [header] = parse(readFileSync(file, 'utf8'), { to_line: 1 }) as string[][];
    const hour = new Set(metricCatalog('hour').map((m) => m.label));
    const labels = new Set(
      header.flatMap((h) => {
        const parts = parseEnglishLabel(h.replace(/\n/g, ' '));
        return parts ? [formatMetricLabel({ ...parts, field: undefined })] : [];
      }),
    );
    assert.ok(labels.size >= 25, `metric labels in the report: ${labels.size}`);
    for (const l of labels) assert.ok(hour.has(l), `${l} is in the hour catalogue`);
    for (const q of ['no2Conc', 'o3Conc', 'pm10ConcMass', 'pm2_5ConcMass'])
      assert.ok(labels.has(`${q}1HourMeanWaDwerAqi`), q);
  });

  it('two-line headers: quantity · index, then aggregation · field, so no two columns read alike (issue 30 item 6)', () => {
    const lines = (label: string) => headerLines(parseCanonicalLabel(label)!);
    assert.deepEqual(lines('pm2_5ConcMassNowcast.value'), { metric: 'pm2_5ConcMass', detail: 'NowCast · value' });
    assert.deepEqual(lines('pm2_5ConcMass1HourMean.raw'), { metric: 'pm2_5ConcMass', detail: '1-h mean · raw' });
    assert.deepEqual(lines('pm2_5ConcMassNowcastUsEpaAqi.qcFlags'), {
      metric: 'pm2_5ConcMass · US AQI',
      detail: 'NowCast · qcFlags',
    });
    assert.deepEqual(lines('no2Conc1HourMeanWaDwerAqi'), { metric: 'no2Conc · WA index', detail: '1-h mean' });
    // A corrected column (a correction cell's, core/aq/corrections) names its method beside the calibrated one.
    assert.deepEqual(lines('pm2_5ConcMass1HourMean_epa2021'), {
      metric: 'pm2_5ConcMass',
      detail: '1-h mean · epa2021',
    });
    assert.notDeepEqual(lines('pm2_5ConcMass1HourMean_epa2021'), lines('pm2_5ConcMass1HourMean'));
    // Every metric column of a real minute csv-wide reply (value, raw, status, qcAssessment, qcFlags of each
    // quantity): distinct names give distinct header lines.
    const header = readFileSync(join(__dirname, '../../../fixtures/real-minute-csv-wide-qc.csv'), 'utf8').split(
      '\n',
    )[0];
    const metrics = header.split(',').filter((name) => parseCanonicalLabel(name));
    assert.ok(metrics.length > 50, `${metrics.length} metric columns`);
    const shown = new Set(metrics.map((name) => JSON.stringify(lines(name))));
    assert.equal(shown.size, metrics.length);
    // And for every label of the catalogue, at each frequency, with each field.
    for (const f of ['minute', 'hour', 'day'] as const) {
      const labels = metricCatalog(f).flatMap((m) => ['value', 'raw', 'qcFlags'].map((field) => `${m.label}.${field}`));
      assert.equal(new Set(labels.map((l) => JSON.stringify(lines(l)))).size, new Set(labels).size, f);
    }
  });
});
