// Conformance over real HTTP: what real replies show beyond the interface (issue 27): the report echo,
// english column order, negative gas raw values, changing statuses, the Parquet size guard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PATHS } from '../../../src/core/api/paths';
import { downloadGzipText, parseCsv, startTestEmulator, type TestEmulator } from '../../support/emulator';

const ENGLISH_FIXTURE = '/work/shared/fixtures/public-node-report-hourly-english.csv';

describe('emulator conformance: fidelity to real replies', () => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await startTestEmulator();
  });
  afterEach(() => emu.close());

  function request(extra: Record<string, unknown> = {}) {
    return {
      org: emu.org,
      report: 'datasource-measurements',
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      startTime: '2026-11-20T05:00:00Z',
      endTime: '2026-11-20T08:00:00Z',
      ...extra,
    };
  }

  async function create(extra: Record<string, unknown> = {}) {
    const r = await emu.json(PATHS.reportRequests, request(extra));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  }

  async function ready(extra: Record<string, unknown> = {}) {
    const record = await create(extra);
    await emu.advance('6s');
    const res = await emu.get(PATHS.reportRequest(record.reportId));
    return res.json();
  }

  it('the report record echoes metricLabelStyle "canonical" when the request omits it', async () => {
    const record = await create();
    assert.equal(record.query.metricLabelStyle, 'canonical');
    assert.equal(record.query.format, 'csv-wide');
    const english = await create({ metricLabelStyle: 'english' });
    assert.equal(english.query.metricLabelStyle, 'english');
  });

  it('english report columns come in canonical-label order, as in the real english node report', async () => {
    const node = emu.facts.datasources[0];
    const done = await ready({
      report: 'node-measurements',
      datasourceIds: undefined,
      nodeIds: [node.sourceId],
      metricLabelStyle: 'english',
    });
    assert.equal(done.reportStatus, 'succeeded');
    const ours = parseCsv((await downloadGzipText(done.urls[0])).text).header;
    const real = parseCsv(readFileSync(ENGLISH_FIXTURE, 'utf8').split('\n')[0]).header;
    assert.ok(ours.includes('Atmospheric pressure, 1-hour mean value'), 'node pressure as the real file names it');
    const shared = ours.filter((c) => real.includes(c));
    assert.ok(shared.length >= 50, `only ${shared.length} columns in common`);
    assert.deepEqual(
      shared,
      real.filter((c) => shared.includes(c)),
    );
  });

  it('a one-datasource 36-day minute Parquet report succeeds (the size guard counts the file’s own rows)', async () => {
    const done = await ready({
      fileFormat: 'parquet',
      outputFrequency: 'minute',
      startTime: '2026-10-15',
      endTime: '2026-11-20',
    });
    assert.equal(done.reportStatus, 'succeeded', done.message);
    const big = await ready({
      fileFormat: 'parquet',
      outputFrequency: 'minute',
      startTime: '2026-10-15',
      endTime: '2026-11-20',
      // Ten datasources subscribed throughout (the late subscriber has no rows yet): over 500,000 minutes.
      datasourceIds: emu.facts.datasources
        .filter((d) => d.datasourceId !== emu.facts.lateSubscriber)
        .slice(0, 10)
        .map((d) => d.datasourceId),
    });
    assert.equal(big.reportStatus, 'failed');
    assert.match(big.message, /would hold over 500000 rows/);
  });
});
