// metricSelect, the public grammar (SERVICE-FACTS): default/all/none/only, +, -, *, :category.
import assert from 'node:assert/strict';
import { metricCatalog } from '../../../src/core/metrics/catalog';
import { selectMetrics } from '../../../src/emulator/metric-select';

function labels(expr: string | undefined, frequency: 'minute' | 'hour' | 'day' = 'hour'): string[] {
  const result = selectMetrics(expr, frequency);
  if ('error' in result) throw new Error(result.error);
  return result.metrics.map((m) => m.label);
}

function error(expr: string, frequency: 'minute' | 'hour' | 'day' = 'hour'): string {
  const result = selectMetrics(expr, frequency);
  assert.ok('error' in result, `expected an error for ${expr}`);
  return result.error;
}

describe('emulator metricSelect', () => {
  it('default (or nothing) is every metric but the internal sensors', () => {
    const all = metricCatalog('hour').map((d) => d.label);
    const def = labels(undefined);
    assert.deepEqual(labels('default'), def);
    assert.deepEqual(labels(''), def);
    assert.ok(def.length < all.length);
    assert.ok(!def.some((l) => l.includes('Internal')));
    assert.ok(def.includes('pm2_5ConcMassNowcast'));
  });

  it('all is the whole catalog; none is nothing', () => {
    assert.deepEqual(
      labels('all'),
      metricCatalog('hour').map((d) => d.label),
    );
    assert.deepEqual(labels('none'), []);
  });

  it('only <label> selects one metric, case-insensitively', () => {
    assert.deepEqual(labels('only pm2_5ConcMassNowcast'), ['pm2_5ConcMassNowcast']);
    assert.deepEqual(labels('ONLY PM2_5CONCMASSNOWCAST'), ['pm2_5ConcMassNowcast']);
  });

  it('wildcards: only no2*, only *nowcast*, default - *aqi*', () => {
    assert.deepEqual(labels('only no2*'), ['no2Conc1HourMean', 'no2Conc1HourMeanUsEpaAqi', 'no2Conc24HourRollingMean']);
    assert.deepEqual(labels('only *nowcast*'), [
      'pm2_5ConcMassNowcast',
      'pm2_5ConcMassNowcastUsEpaAqi',
      'pm10ConcMassNowcast',
      'pm10ConcMassNowcastUsEpaAqi',
    ]);
    const noAqi = labels('default - *aqi*');
    assert.ok(noAqi.length > 0 && !noAqi.some((l) => /aqi/i.test(l)));
  });

  it('terms join with + and -: only pm2_5* + pm10* - *num*', () => {
    const got = labels('only pm2_5* + pm10* - *num*');
    assert.ok(got.every((l) => /^pm(2_5|10)ConcMass/.test(l)));
    assert.ok(got.includes('pm10ConcMassNowcast') && got.includes('pm2_5ConcMass1HourMean'));
  });

  it(':category selects quantities by category', () => {
    const pollutants = labels('only :pollutant', 'minute');
    assert.deepEqual(pollutants, [
      'pm1ConcMassIndividual',
      'pm2_5ConcMassIndividual',
      'pm10ConcMassIndividual',
      'no2ConcIndividual',
      'o3ConcIndividual',
    ]);
    assert.deepEqual(labels('only :internal', 'minute'), [
      'temperatureInternalIndividual',
      'relHumidInternalIndividual',
    ]);
  });

  it('rejects unknown metrics, categories and broken expressions, naming metricSelect', () => {
    assert.match(error('only pm3ConcMass1HourMean'), /^metricSelect: unknown metric/);
    assert.match(error('only :nosuch'), /^metricSelect: unknown category ':nosuch'/);
    assert.match(error('only'), /^metricSelect:/);
    assert.match(error('default +'), /^metricSelect:/);
    assert.match(error('only pm2_5* pm10*'), /^metricSelect: expected '\+' or '-'/);
  });

  it('says when a metric exists only at another output frequency', () => {
    assert.match(error('only pm2_5ConcMassNowcast', 'minute'), /not available with outputFrequency minute/);
  });
});
