// Conformance over real HTTP: what real replies show beyond the interface (issue 27): the report echo,
// english column order, negative gas raw values, changing statuses, the Parquet size guard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATHS } from '../../../src/core/api/paths';
import {
  createReport,
  csvObjects,
  downloadGzipText,
  parseCsv,
  reportRequest,
  startTestEmulator,
  type TestEmulator,
} from '../../support/emulator';

// The real english report of ../shared/fixtures, copied into the repository's test/fixtures.
const ENGLISH_FIXTURE = join(__dirname, '../../fixtures/public-node-report-hourly-english.csv');

describe('emulator conformance: fidelity to real replies', () => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await startTestEmulator();
  });
  afterEach(() => emu.close());

  async function ready(extra: Record<string, unknown> = {}) {
    const record = await createReport(emu, extra);
    await emu.advance('6s');
    const res = await emu.get(PATHS.reportRequest(record.reportId));
    return res.json();
  }

  /** Pairs of neighbours where the later item is newer than the one before it (ISO texts compare as times). */
  function outOfOrder(times: string[]): number {
    let n = 0;
    for (let i = 1; i < times.length; i++) if (times[i] > times[i - 1]) n++;
    return n;
  }

  it('a default all-datasources minute reply is time-descending across datasources (json-long and csv-wide)', async () => {
    const json = await emu.recent({ allDatasources: true });
    assert.equal(json.status, 200);
    const times: string[] = json.body.data.map((d: { time: string }) => d.time);
    assert.ok(times.length > 10_000, `${times.length} items`);
    assert.equal(outOfOrder(times), 0);
    assert.equal(times[0], [...times].sort().at(-1), 'data[0] is the newest');
    assert.ok(new Set(json.body.data.slice(0, 40).map((d: { datasourceId: string }) => d.datasourceId)).size > 1);

    const csv = await emu.recent({ allDatasources: true, format: 'csv-wide' });
    const { header, rows } = parseCsv(csv.text);
    const at = header.indexOf('time');
    const csvTimes = rows.map((r) => r[at]);
    assert.ok(csvTimes.length > 1000);
    assert.equal(outOfOrder(csvTimes), 0);
    assert.equal(csvTimes[0], [...csvTimes].sort().at(-1));
  });

  it('times as RFC 3339 and ISO 8601 allow them: a space for the T, and the basic format', async () => {
    for (const startTime of ['2026-11-20 10:00:00Z', '20261120T100000Z', '2026-11-20t10:00:00z']) {
      const r = await emu.recent({ datasourceIds: [emu.facts.datasources[0].datasourceId], startTime });
      assert.equal(r.status, 200, `${startTime}: ${r.text}`);
      assert.equal(r.body.request.startTime, '2026-11-20T10:00:00.000Z');
    }
    const report = await createReport(emu, { startTime: '20261120T0500Z', endTime: '2026-11-20 08:00:00+00:00' });
    assert.equal(report.reportStatus, 'in-progress');
    const week = await emu.recent({ datasourceIds: [emu.facts.datasources[0].datasourceId], startTime: '2026-W47-5' });
    assert.equal(week.status, 400);
    assert.match(week.body.message, /startTime must be an ISO 8601 date or timestamp/);
  });

  /** A day of minute NO2 (raw, value, status) of every demo datasource, as a minute report's csv. */
  async function minuteNo2(e: TestEmulator): Promise<string> {
    const record = await e.json(PATHS.reportRequests, {
      ...reportRequest(emu),
      org: e.org,
      datasourceIds: e.facts.datasources.map((d) => d.datasourceId).slice(0, 10),
      outputFrequency: 'minute',
      startTime: '2026-11-19T00:00:00Z',
      endTime: '2026-11-20T00:00:00Z',
      metricSelect: 'only no2ConcIndividual',
    });
    await e.advance('6s');
    const done = await (await e.get(PATHS.reportRequest(record.body.reportId))).json();
    return (await downloadGzipText(done.urls[0])).text;
  }

  it('node NO2 raw values dip below zero near zero concentrations, deterministically by seed', async () => {
    const text = await minuteNo2(emu);
    const rows = csvObjects(text).filter((r) => r['no2ConcIndividual.raw'] !== '');
    const raws = rows.map((r) => Number(r['no2ConcIndividual.raw']));
    const negative = rows.filter((r) => Number(r['no2ConcIndividual.raw']) < 0);
    assert.ok(negative.length > 100, `${negative.length} negative of ${rows.length}`);
    assert.ok(Math.min(...raws) > -40, `as low as real ones, not lower: ${Math.min(...raws)}`);
    assert.ok(
      negative.every((r) => r.sourceType === 'SERVICE_NODE'),
      'reference sites read the concentration',
    );
    const calibrated = negative.filter((r) => r['no2ConcIndividual.status'] !== 'calibration-error');
    assert.ok(
      calibrated.some((r) => Number(r['no2ConcIndividual.value']) > 0),
      'the calibration adds the offset back',
    );
    const same = await startTestEmulator();
    const other = await startTestEmulator({ seed: 2 });
    try {
      assert.equal(await minuteNo2(same), text);
      assert.notEqual(await minuteNo2(other), text);
    } finally {
      await same.close();
      await other.close();
    }
  });

  it('statuses change over time: calibrated-reprocessing and calibration-processing occur, by seed', async () => {
    const text = await minuteNo2(emu);
    const rows = csvObjects(text);
    const byDs = new Map<string, Set<string>>();
    for (const r of rows) {
      const set = byDs.get(r.datasourceId) ?? new Set();
      set.add(r['no2ConcIndividual.status']);
      byDs.set(r.datasourceId, set);
    }
    const changing = [...byDs.values()].filter((s) => s.has('calibrated-ready') && s.has('calibrated-reprocessing'));
    assert.ok(changing.length > 0, JSON.stringify([...byDs].map(([id, s]) => [id, [...s]])));
    const reprocessed = rows.filter((r) => r['no2ConcIndividual.status'] === 'calibrated-reprocessing');
    assert.ok(
      reprocessed.every((r) => r['no2ConcIndividual.value'] !== ''),
      'reprocessing keeps the value',
    );
    // The calibration-missing datasource's PM: calibration-processing in some hours, the value still empty.
    const pm = await emu.recent({
      datasourceIds: [emu.facts.calibrationMissing],
      outputFrequency: 'hour',
      startTime: '2026-11-19T00:00:00Z',
      metricSelect: 'only pm2_5ConcMass1HourMean',
    });
    const statuses = new Set(pm.body.data.map((d: { status: string }) => d.status));
    assert.deepEqual([...statuses].sort(), ['calibration-missing', 'calibration-processing']);
    assert.ok(pm.body.data.every((d: { value: unknown }) => d.value === null));
    const again = await startTestEmulator();
    try {
      assert.equal(await minuteNo2(again), text);
    } finally {
      await again.close();
    }
  });

  it('one unknown id among known ones fails the whole recent query with 400 naming it (docs/EMULATOR.md)', async () => {
    const known = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
    for (const datasourceIds of [
      [...known, 'DNOSUCH1'],
      ['DNOSUCH1', ...known],
    ]) {
      const r = await emu.recent({ datasourceIds });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { message: `datasourceIds: unknown datasource 'DNOSUCH1' for org '${emu.org}'` });
    }
    const other = emu.facts.datasources[0].datasourceId;
    const second = await emu.json(PATHS.recentQuery, { org: emu.secondOrg.org, datasourceIds: [other] });
    assert.equal(second.status, 403, 'the key of the demo org may not use the second org');
  });

  it('the report record echoes metricLabelStyle "canonical" when the request omits it', async () => {
    const record = await createReport(emu);
    assert.equal(record.query.metricLabelStyle, 'canonical');
    assert.equal(record.query.format, 'csv-wide');
    const english = await createReport(emu, { metricLabelStyle: 'english' });
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
