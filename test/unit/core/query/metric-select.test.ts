// metricSelect, the public grammar (SERVICE-FACTS): default/all/none/only, +, -, *, :category.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { OutputFrequency } from '../../../../src/core/api/types';
import { metricCatalog } from '../../../../src/core/metrics/catalog';
import { parseCell } from '../../../../src/core/query';
import {
  checkMetricSelect,
  globMatch,
  METRIC_CATEGORIES,
  selectMetrics,
} from '../../../../src/core/query/metric-select';
import {
  HOUR,
  MINUTE,
  NOW,
  parseCsv,
  pingDuring,
  startTestEmulator,
  type TestEmulator,
  worstPing,
} from '../../../support/emulator';

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
  it('default (or nothing) is every metric, the internal temperature and humidity included', () => {
    const all = metricCatalog('hour').map((d) => d.label);
    const def = labels(undefined);
    assert.deepEqual(labels('default'), def);
    assert.deepEqual(labels(''), def);
    assert.deepEqual(def, all);
    assert.ok(labels(undefined, 'minute').includes('temperatureInternalIndividual'));
    assert.ok(labels(undefined, 'minute').includes('relHumidInternalIndividual'));
    assert.deepEqual(
      labels('default - :internal', 'minute').filter((l) => l.includes('Internal')),
      [],
    );
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
    assert.deepEqual(labels('only no2*'), [
      'no2Conc1HourMean',
      'no2Conc1HourMeanUsEpaAqi',
      'no2Conc1HourMeanWaDwerAqi',
      'no2Conc24HourRollingMean',
    ]);
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
    assert.match(error('only pm3ConcMass1HourMean'), /^metricSelect: unknown metric label/);
    assert.match(error('only :nosuch'), /^metricSelect: unknown metric category ':nosuch'/);
    assert.match(error('only'), /^metricSelect:/);
    assert.match(error('default +'), /^metricSelect:/);
    assert.match(error('only pm2_5* pm10*'), /^metricSelect: expected '\+' or '-'/);
  });

  it('says when a metric exists only at another output frequency', () => {
    assert.match(error('only pm2_5ConcMassNowcast', 'minute'), /exists only for hour output, not minute/);
  });
});

// One grammar for the cell checker (core) and the emulator: same code, checked here through both doors.
describe('metricSelect: one grammar for the checker and the emulator', () => {
  let emu: TestEmulator;
  let first: string;
  before(async () => {
    emu = await startTestEmulator();
    first = emu.facts.datasources[0].datasourceId;
  });
  after(() => emu.close());

  /** The emulator's answer over HTTP: the selected labels (csv-wide header), or the 400 message. */
  async function emulatorSelection(expr: string, frequency: OutputFrequency): Promise<string[] | string> {
    const r = await emu.recent({
      datasourceIds: [first],
      outputFrequency: frequency,
      format: 'csv-wide',
      metricSelect: expr,
      startTime: new Date(NOW - (frequency === 'minute' ? 2 * MINUTE : 26 * HOUR)).toISOString(),
    });
    if (r.status === 400) return r.body.message;
    assert.equal(r.status, 200, r.text);
    const { header } = parseCsv(r.text);
    return header.slice(header.indexOf('locationLongitude') + 1).sort();
  }

  const coreSelection = (expr: string, frequency: OutputFrequency): string[] | string => {
    const result = selectMetrics(expr, frequency);
    return 'error' in result ? result.error : result.metrics.map((m) => m.label).sort();
  };

  it('accepts the form real clients send: only + :pm25 + :internal', async () => {
    assert.deepEqual(labels('only + :pm25 + :internal', 'minute'), [
      'pm2_5ConcMassIndividual',
      'pm2_5ConcNumIndividual',
      'temperatureInternalIndividual',
      'relHumidInternalIndividual',
    ]);
    assert.deepEqual(checkMetricSelect('only + :pm25 + :internal', 'minute', 'emulator'), []);
    const cell = parseCell('recent\nallDatasources: true\nmetricSelect: only + :pm25 + :internal', {
      now: new Date(NOW),
    });
    assert.deepEqual(cell.diagnostics, []);
    assert.deepEqual(
      await emulatorSelection('only + :pm25 + :internal', 'minute'),
      coreSelection('only + :pm25 + :internal', 'minute'),
    );
    assert.match(error('only - :pm25'), /^metricSelect: 'only' must be followed/);
  });

  it('matches wildcards without backtracking: 50 stars take milliseconds in the checker', () => {
    for (const pattern of [`only ${'*'.repeat(50)}zz`, `only ${'*a'.repeat(50)}zz`, `default - ${'p*'.repeat(50)}q`]) {
      // CPU time, not wall time: a shared machine may deschedule the process, which says nothing about the code.
      const cpu = process.cpuUsage();
      checkMetricSelect(pattern, undefined, 'emulator');
      parseCell(`recent\nallDatasources: true\nmetricSelect: ${pattern}`, { now: new Date(NOW) });
      selectMetrics(pattern, 'hour');
      const used = process.cpuUsage(cpu);
      const ms = (used.user + used.system) / 1000;
      assert.ok(ms < 100, `${pattern} took ${ms} ms of CPU`);
    }
    assert.ok(globMatch('*'.repeat(50), 'anything'));
    assert.ok(globMatch(`pm*${'*'.repeat(50)}aqi`, 'pm2_5ConcMassNowcastUsEpaAqi'));
    assert.ok(!globMatch(`${'*'.repeat(50)}zz`, 'pm2_5ConcMassNowcastUsEpaAqi'));
  });

  it('matches wildcards without backtracking: 50 stars take milliseconds in the emulator, which keeps answering', async () => {
    const expr = `only ${'*'.repeat(50)}zz + ${'*'.repeat(25)}aqi${'*'.repeat(25)}`;
    let r: Awaited<ReturnType<TestEmulator['recent']>> | undefined;
    const { pings, took } = await pingDuring(emu, async () => {
      r = await emu.recent({ datasourceIds: [first], outputFrequency: 'hour', format: 'csv-wide', metricSelect: expr });
    });
    assert.ok(r);
    assert.equal(r.status, 200, r.text);
    const { header } = parseCsv(r.text);
    const selected = header.slice(header.indexOf('locationLongitude') + 1);
    assert.ok(selected.length > 0 && selected.every((l) => /aqi$/i.test(l)), selected.join());
    // Wall time is loose (the machine may be shared); the old backtracking took minutes. Blocking is strict.
    assert.ok(took < 10_000, `the request took ${took} ms`);
    const { blocked, detail } = worstPing(pings);
    assert.ok(blocked < 250, detail);
  });

  it('property: the emulator answers every expression as the core resolves it (labels or the same 400)', async () => {
    const term = fc.oneof(
      fc.constantFrom(...metricCatalog('hour').map((d) => d.label), ...metricCatalog('minute').map((d) => d.label)),
      fc.constantFrom(...METRIC_CATEGORIES.map((c) => `:${c}`), ':nosuch', ':PM25'),
      fc.constantFrom('*', 'pm*', '*aqi*', 'no2*', '*NOWCAST*', '*mean', 'pm2_5*', 'zz*', '**'),
      fc.constantFrom('bogus', 'ALL', 'only'),
    );
    const token = fc.oneof({ weight: 3, arbitrary: term }, { weight: 2, arbitrary: fc.constantFrom('+', '-') });
    const expr = fc
      .tuple(
        fc.constantFrom('', 'default', 'all', 'none', 'only', 'ONLY', 'Default'),
        fc.array(token, { maxLength: 6 }),
        fc.constantFrom(' ', '  '),
      )
      .map(([head, rest, space]) => [head, ...rest].join(space).trim());
    await fc.assert(
      fc.asyncProperty(expr, fc.constantFrom<OutputFrequency>('minute', 'hour', 'day'), async (e, f) => {
        const core = coreSelection(e, f);
        assert.deepEqual(await emulatorSelection(e, f), core, e);
        // The checker warns about everything the service refuses.
        if (typeof core === 'string')
          assert.ok(
            checkMetricSelect(e, f, 'emulator').some((p) => p.rejected),
            e,
          );
        else assert.ok(!checkMetricSelect(e, f, 'emulator').some((p) => p.rejected), e);
      }),
      { numRuns: 60, seed: 14 },
    );
  });
});
