// Conformance over real HTTP: historical reports (states, echo, files, signed URLs, label styles, quota).
import assert from 'node:assert/strict';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { API_KEY_HEADER, PATHS } from '../../../src/core/api/paths';
import {
  createReport,
  csvObjects,
  downloadGzipText,
  HOUR,
  parseCsv,
  reportRequest,
  startTestEmulator,
  type TestEmulator,
} from '../../support/emulator';

const START = '2026-11-20T05:00:00Z';
const END = '2026-11-20T08:00:00Z';

describe('emulator conformance: reports', () => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await startTestEmulator();
  });
  afterEach(() => emu.close());

  async function status(id: string) {
    const res = await emu.get(PATHS.reportRequest(id));
    return { status: res.status, body: await res.json() };
  }

  async function ready(extra: Record<string, unknown> = {}) {
    const record = await createReport(emu, extra);
    await emu.advance('6s');
    const s = await status(record.reportId);
    assert.equal(s.body.reportStatus, 'succeeded');
    return s.body;
  }

  it('POST creates an in-progress record ("Processing", no urls) echoing the query', async () => {
    const record = await createReport(emu, { metricLabelStyle: 'english', fileFormat: 'csv' });
    assert.equal(typeof record.reportId, 'string');
    assert.equal(record.reportStatus, 'in-progress');
    assert.equal(record.message, 'Processing');
    assert.equal(record.report, 'datasource-measurements');
    assert.deepEqual(record.urls, []);
    assert.deepEqual(record.query.datasourceIds, [emu.facts.datasources[0].datasourceId]);
    assert.equal(record.query.startTime, START);
    assert.equal(record.query.endTime, END);
    assert.equal(record.query.outputFrequency, 'hour');
    assert.equal(record.query.columnLabelStyle, 'english');
    assert.equal(record.query.fileFormat, 'csv');
    assert.equal(record.query.format, 'csv-wide');
  });

  it('accepts what real clients send: unknown fields (echoed), format for the file format, "true" for booleans', async () => {
    const r = await emu.json(PATHS.reportRequests, {
      org: emu.org,
      report: 'datasource-measurements',
      allDatasources: 'true',
      outputFrequency: 'minute',
      startTime: START,
      endTime: END,
      format: 'csv-wide',
      metricLabelStyle: 'canonical',
      qcAssessment: 'true',
      qcFlags: true,
      pipeline: 'nightly',
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const record = r.body;
    // As the service's records: a 10-character upper-case id, "Processing", the fields as submitted plus the contract's.
    assert.match(record.reportId, /^[A-Z0-9]{10}$/);
    assert.equal(record.message, 'Processing');
    assert.equal(record.query.pipeline, 'nightly');
    assert.equal(record.query.allDatasources, 'true');
    assert.equal(record.query.format, 'csv-wide');
    assert.equal(record.query.metricLabelStyle, 'canonical');
    assert.equal(record.query.columnLabelStyle, 'canonical');
    assert.equal(record.query.fileFormat, 'csv-wide');
    assert.equal(record.query.qcAssessment, 'true');
    await emu.advance('6s');
    const done = (await status(record.reportId)).body;
    assert.equal(done.reportStatus, 'succeeded');
    assert.ok(done.urls.length >= 2, 'every datasource of the org');
    const file = await downloadGzipText(done.urls[0]);
    assert.ok(parseCsv(file.text).header.includes('pm2_5ConcMassIndividual.qcAssessment'));
    // `format` chooses the file format when fileFormat is absent.
    const parquet = await createReport(emu, { format: 'parquet-wide' });
    assert.equal(parquet.query.fileFormat, 'parquet-wide');
    await emu.advance('6s');
    assert.match((await status(parquet.reportId)).body.urls[0], /\.parquet\?/);
  });

  it('stays in progress for the configured delay, then succeeds ("Ready") with urls and urlsExpireAt', async () => {
    const record = await createReport(emu);
    await emu.advance('4s');
    assert.equal((await status(record.reportId)).body.reportStatus, 'in-progress');
    await emu.advance('2s');
    const done = (await status(record.reportId)).body;
    assert.equal(done.reportStatus, 'succeeded');
    assert.equal(done.message, 'Ready');
    assert.equal(done.urls.length, 1);
    assert.ok(Date.parse(done.urlsExpireAt) > Date.parse('2026-11-20T10:30:06Z'));
    const singular = await emu.get(PATHS.reportRequestSingular(record.reportId));
    assert.equal((await singular.json()).reportStatus, 'succeeded', 'the singular status path works too');
  });

  it('files are csv.gz fetched WITHOUT the key; startTime inclusive, endTime exclusive; canonical columns', async () => {
    const done = await ready();
    const url: string = done.urls[0];
    assert.ok(!url.includes(emu.apiKey));
    assert.match(new URL(url).pathname, /\.csv\.gz$/);
    const file = await downloadGzipText(url);
    assert.equal(file.status, 200);
    const { header } = parseCsv(file.text);
    assert.deepEqual(header.slice(0, 8), [
      'datasourceId',
      'sourceId',
      'sourceType',
      'outputFrequency',
      'startOfPeriod',
      'endOfPeriod',
      'locationLatitude',
      'locationLongitude',
    ]);
    assert.ok(header.includes('pm2_5ConcMassNowcast.raw'));
    assert.ok(header.includes('pm2_5ConcMassNowcast.status'));
    assert.ok(header.includes('pm2_5ConcMassNowcast.value'));
    const rows = csvObjects(file.text);
    assert.deepEqual(
      rows.map((r) => r.startOfPeriod),
      ['2026-11-20T05:00:00.000Z', '2026-11-20T06:00:00.000Z', '2026-11-20T07:00:00.000Z'],
    );
    assert.equal(rows[0]['pm2_5ConcMassNowcast.status'], 'calibrated-ready');
  });

  it('allDatasources reports split into several files; node and reference-site reports name rows by their id', async () => {
    const all = await ready({
      datasourceIds: undefined,
      allDatasources: true,
      outputFrequency: 'day',
      startTime: '2026-11-18',
      endTime: '2026-11-20',
    });
    assert.equal(all.urls.length, 2);
    const ids = new Set<string>();
    for (const url of all.urls) for (const r of csvObjects((await downloadGzipText(url)).text)) ids.add(r.datasourceId);
    assert.ok(ids.size >= 18);

    const node = emu.facts.datasources[0];
    const nodeReport = await ready({ report: 'node-measurements', datasourceIds: undefined, nodeIds: [node.sourceId] });
    const nodeCsv = parseCsv((await downloadGzipText(nodeReport.urls[0])).text);
    assert.equal(nodeCsv.header[0], 'nodeId');
    assert.equal(nodeCsv.rows[0][0], node.sourceId);

    const site = emu.facts.datasources.find((d) => d.sourceType === 'REFERENCE_SITE');
    const siteReport = await ready({
      report: 'reference-site-measurements',
      datasourceIds: undefined,
      refSiteIds: [site?.sourceId],
    });
    const siteCsv = parseCsv((await downloadGzipText(siteReport.urls[0])).text);
    assert.equal(siteCsv.header[0], 'refSiteId');
    assert.equal(siteCsv.rows[0][2], 'REFERENCE_SITE');
  });

  it('label styles: english headers (quoted, with commas) and legacy labels without the aggregation', async () => {
    const english = await ready({ metricLabelStyle: 'english' });
    const text = (await downloadGzipText(english.urls[0])).text;
    assert.ok(
      text.startsWith(
        'Datasource Id,Source Id,Source Type,Output Frequency,Start of Period,End of Period,Location Latitude [deg],Location Longitude [deg],',
      ),
    );
    assert.ok(text.includes('"PM 2.5 mass concentration, Nowcast, UsEpaAqi value"'));
    const legacy = await ready({ metricLabelStyle: 'legacy', metricSelect: 'only pm2_5ConcMass*' });
    const header = parseCsv((await downloadGzipText(legacy.urls[0])).text).header.slice(8);
    assert.ok(header.includes('pm2_5ConcMass.value'));
    assert.ok(header.includes('pm2_5ConcMassUsEpaAqi.value'));
    assert.equal(new Set(header).size, header.length, 'no duplicate columns');
  });

  it('qcAssessment and qcFlags add columns to report files', async () => {
    const done = await ready({
      datasourceIds: [emu.facts.qcInvalid[0]],
      metricSelect: 'only pm2_5ConcMass1HourMean',
      qcAssessment: true,
      qcFlags: true,
    });
    const rows = csvObjects((await downloadGzipText(done.urls[0])).text);
    assert.equal(rows[0]['pm2_5ConcMass1HourMean.qcAssessment'], 'invalid');
    assert.equal(rows[0]['pm2_5ConcMass1HourMean.qcFlags'], '["QC.I.OOB.001"]');
  });

  it('parquet-wide files are Parquet with the csv-wide columns', async () => {
    const done = await ready({ fileFormat: 'parquet-wide', metricSelect: 'only pm2_5ConcMassNowcast' });
    assert.match(new URL(done.urls[0]).pathname, /\.parquet$/);
    const res = await fetch(done.urls[0]);
    const bytes = await res.arrayBuffer();
    assert.equal(Buffer.from(bytes.slice(0, 4)).toString(), 'PAR1');
    const meta = parquetMetadata(bytes);
    assert.equal(Number(meta.num_rows), 3);
    const rows = await parquetReadObjects({ file: bytes });
    assert.equal(rows[0].datasourceId, emu.facts.datasources[0].datasourceId);
    assert.equal(rows[0].startOfPeriod, '2026-11-20T05:00:00.000Z');
    assert.equal(typeof rows[0]['pm2_5ConcMassNowcast.value'], 'number');
  });

  it('a parquet-wide report too big to build in memory fails with a message saying so', async () => {
    const record = await createReport(emu, {
      fileFormat: 'parquet',
      outputFrequency: 'minute',
      datasourceIds: undefined,
      allDatasources: true,
      startTime: '2026-09-01',
      endTime: '2026-11-01',
    });
    await emu.advance('6s');
    const s = (await status(record.reportId)).body;
    assert.equal(s.reportStatus, 'failed');
    assert.match(s.message, /parquet-wide file would hold over/);
    assert.deepEqual(s.urls, []);
  });

  it('file URLs are signed and expire: tampered or expired signatures are refused (403)', async () => {
    const done = await ready();
    const url = new URL(done.urls[0]);
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + HOUR));
    assert.equal((await fetch(tampered)).status, 403);
    const otherPart = new URL(url);
    otherPart.pathname = url.pathname.replace('part-000', 'part-001');
    assert.equal((await fetch(otherPart)).status, 403);
    await emu.advance('61m');
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.match((await expired.json()).message, /expired/);
    const fresh = (await status(done.reportId)).body;
    assert.equal((await downloadGzipText(fresh.urls[0])).status, 200, 'a new status call signs new URLs');
  });

  it('404 for unknown reports and for reports of another org', async () => {
    const missing = await status('no-such-report');
    assert.equal(missing.status, 404);
    assert.match(missing.body.message, /no-such-report/);
    const record = await createReport(emu);
    const res = await fetch(emu.url + PATHS.reportRequest(record.reportId), {
      headers: { [API_KEY_HEADER]: emu.secondOrg.apiKey },
    });
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  });

  it('400 naming the field for bad report requests', async () => {
    const bool = await emu.json(PATHS.reportRequests, reportRequest(emu, { qcFlags: 'yes' }));
    assert.equal(bool.status, 400);
    assert.match(bool.body.message, /^qcFlags must be true or false/);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ report: 'everything' }, /^report must be one of/],
      [{ outputFrequency: undefined }, /^outputFrequency is required/],
      [{ startTime: 'last week' }, /^startTime must be an ISO 8601/],
      [{ endTime: undefined }, /^endTime is required/],
      [{ endTime: START }, /^endTime must be after startTime/],
      [{ metricLabelStyle: 'fancy' }, /^metricLabelStyle must be one of canonical, english, legacy/],
      [{ fileFormat: 'xlsx' }, /^fileFormat must be one of/],
      [{ datasourceIds: undefined }, /^datasourceIds is required/],
      [{ datasourceIds: ['DNOSUCH1'] }, /^datasourceIds: unknown datasource/],
      [{ report: 'node-measurements', datasourceIds: undefined, nodeIds: ['ANOSUCH1'] }, /^nodeIds: unknown node/],
      [{ report: 'node-measurements', datasourceIds: undefined }, /^nodeIds is required/],
      [{ metricSelect: 'only nonsense' }, /^metricSelect: unknown metric/],
      [{ qcFlags: 1 }, /^qcFlags must be true or false/],
    ];
    for (const [extra, message] of cases) {
      const r = await emu.json(PATHS.reportRequests, reportRequest(emu, extra));
      assert.equal(r.status, 400, JSON.stringify(extra));
      assert.match(r.body.message, message);
    }
  });

  it('30 reports per org per UTC day: the 31st gets 429 with Retry-After until midnight; bad requests cost nothing', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await emu.json(PATHS.reportRequests, reportRequest(emu, { outputFrequency: 'year' }))).status, 400);
    }
    for (let i = 0; i < 30; i++) await createReport(emu);
    const refused = await emu.post(PATHS.reportRequests, reportRequest(emu));
    assert.equal(refused.status, 429);
    // now is 10:30 UTC: 13.5 hours to midnight.
    assert.equal(refused.headers.get('retry-after'), String(13.5 * 3600));
    assert.match((await refused.json()).message, /2026-11-21T00:00:00\.000Z/);
    // The second org has its own quota.
    const other = await fetch(emu.url + PATHS.reportRequests, {
      method: 'POST',
      headers: { [API_KEY_HEADER]: emu.secondOrg.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...reportRequest(emu),
        org: emu.secondOrg.org,
        datasourceIds: undefined,
        allDatasources: true,
      }),
    });
    assert.equal(other.status, 200);
    await other.arrayBuffer();
    await emu.advance('13h29m');
    assert.equal((await emu.post(PATHS.reportRequests, reportRequest(emu))).status, 429, 'still the same UTC day');
    await emu.advance('1m');
    assert.equal(
      (await emu.json(PATHS.reportRequests, reportRequest(emu))).status,
      200,
      'the quota resets at UTC midnight',
    );
  });
});
