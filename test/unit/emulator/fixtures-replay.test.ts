// Replays every fact of the real-service fixtures (../shared/fixtures/README.md; the files copied into
// test/fixtures) against the emulator over HTTP: the emulator must give clients the shapes real replies have.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PATHS } from '../../../src/core/api/paths';
import { metricCatalog } from '../../../src/core/metrics/catalog';
import { csvObjects, type Json, NOW, parseCsv, startTestEmulator, type TestEmulator } from '../../support/emulator';

const FIXTURES = path.join(__dirname, '../../fixtures');
const realMinute = parseCsv(readFileSync(path.join(FIXTURES, 'real-minute-csv-wide-qc.csv'), 'utf8'));
const realEnglishHeader = parseCsv(
  readFileSync(path.join(FIXTURES, 'public-node-report-hourly-english.csv'), 'utf8').split('\n')[0],
).header;
const MS_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const metricOf = (column: string) => column.slice(0, column.lastIndexOf('.'));

describe('emulator replays the facts of real replies (shared fixtures)', () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startTestEmulator();
  });
  after(() => emu.close());

  async function report(body: Record<string, unknown>): Promise<{ created: Json; done: Json }> {
    const r = await emu.json(PATHS.reportRequests, { org: emu.org, ...body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await emu.advance('6s');
    const done = await (await emu.get(PATHS.reportRequest(r.body.reportId))).json();
    return { created: r.body, done };
  }

  it('real minute csv-wide with QC: same identifying columns, sorted metric columns, the same quantities, irregular ms times, empty values with calibration-* statuses', async () => {
    const bc = emu.facts.datasources[1].datasourceId; // nodes at index 1 (mod 4) carry black carbon
    const noError = emu.facts.datasources[2].datasourceId; // index 2 (mod 4): NO2 in calibration-error
    const missing = emu.facts.calibrationMissing;
    const { done } = await report({
      report: 'datasource-measurements',
      datasourceIds: [bc, noError, missing],
      outputFrequency: 'minute',
      startTime: '2026-11-20T07:00:00Z',
      endTime: '2026-11-20T08:00:00Z',
      qcAssessment: true,
      qcFlags: true,
    });
    const text = await (await fetch(done.urls[0])).text(); // Content-Encoding: gzip: the text is the CSV
    const emulated = parseCsv(text);
    // Identifying columns as the real file's.
    assert.deepEqual(emulated.header.slice(0, 7), realMinute.header.slice(0, 7));
    // Metric columns: each label's qcAssessment, qcFlags, raw, status, value, the labels sorted as the real file's.
    const realMetricColumns = realMinute.header.slice(7);
    const emulatedMetricColumns = emulated.header.slice(7);
    for (const columns of [realMetricColumns, emulatedMetricColumns]) {
      const labels = [...new Set(columns.map(metricOf))];
      assert.deepEqual(labels, [...labels].sort());
      assert.deepEqual(
        columns.slice(0, 5).map((c) => c.slice(c.lastIndexOf('.') + 1)),
        ['qcAssessment', 'qcFlags', 'raw', 'status', 'value'],
      );
    }
    // Every quantity of the real extract exists in the emulator (atmPressure and black carbon included).
    const realLabels = new Set(realMetricColumns.map(metricOf));
    const emulatedLabels = new Set(emulatedMetricColumns.map(metricOf));
    for (const label of realLabels) assert.ok(emulatedLabels.has(label), `${label} is emulated`);
    const rows = csvObjects(text);
    // Irregular millisecond times, sometimes two in one minute.
    assert.ok(rows.every((r) => MS_TIME.test(r.time)));
    assert.ok(rows.some((r) => !r.time.endsWith(':00.000Z')));
    // Black carbon values, an undocumented status with an empty value, calibration-missing with an empty value.
    assert.ok(rows.some((r) => r.datasourceId === bc && r['bcAllSourcesIndividual.value'] !== ''));
    const errored = rows.filter((r) => r['no2ConcIndividual.status'] === 'calibration-error');
    assert.ok(
      errored.length > 0 &&
        errored.every((r) => r['no2ConcIndividual.value'] === '' && r['no2ConcIndividual.raw'] !== ''),
    );
    const noValue = rows.filter((r) => r.datasourceId === missing && r['pm10ConcMassIndividual.raw'] !== '');
    assert.ok(
      noValue.length > 0 &&
        noValue.every(
          (r) =>
            r['pm10ConcMassIndividual.status'] === 'calibration-missing' && r['pm10ConcMassIndividual.value'] === '',
        ),
    );
    // qcFlags cells hold a JSON array as text, as in the real file.
    assert.ok(
      rows.every(
        (r) =>
          r['pm2_5ConcMassIndividual.qcFlags'] === '' ||
          Array.isArray(JSON.parse(r['pm2_5ConcMassIndividual.qcFlags'])),
      ),
    );
  });

  it('sometimes two measurements in one minute (and none in the minute before)', async () => {
    const ds = emu.facts.datasources[0].datasourceId;
    const r = await emu.recent({
      datasourceIds: [ds],
      startTime: new Date(NOW - 20 * 3_600_000).toISOString(),
      outputFrequency: 'minute',
      format: 'csv-wide',
      metricSelect: 'only pm2_5ConcMassIndividual',
    });
    const minutes = csvObjects(r.text).map((x) => x.time.slice(0, 16));
    assert.ok(new Set(minutes).size < minutes.length, 'a minute with two measurements');
  });

  it('real english hour report: the same identifying headers and metric header form', async () => {
    const node = emu.facts.datasources[0].sourceId;
    const { done } = await report({
      report: 'node-measurements',
      nodeIds: [node],
      outputFrequency: 'hour',
      startTime: '2026-11-20T05:00:00Z',
      endTime: '2026-11-20T07:00:00Z',
      metricLabelStyle: 'english',
    });
    const header = parseCsv(await (await fetch(done.urls[0])).text()).header;
    assert.deepEqual(header.slice(0, 8), realEnglishHeader.slice(0, 8));
    for (const h of ['NO2 concentration, 1-hour mean raw', 'NO2 concentration, 1-hour mean, UsEpaAqi value']) {
      assert.ok(realEnglishHeader.includes(h) && header.includes(h), h);
    }
  });

  it('report records: 10-character ids, Processing/Ready, the echo as submitted (format, metricLabelStyle), urlsExpireAt, .csv.gz URLs', async () => {
    const { created, done } = await report({
      report: 'datasource-measurements',
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      endTime: '2026-11-01T00:00:00.000Z',
      outputFrequency: 'minute',
      startTime: '2026-10-31T23:00:00.000Z',
      format: 'csv-wide',
      metricLabelStyle: 'canonical',
      qcAssessment: true,
      qcFlags: true,
    });
    assert.match(created.reportId, /^[A-Z0-9]{10}$/);
    assert.equal(created.reportStatus, 'in-progress');
    assert.equal(created.message, 'Processing');
    assert.equal(created.report, 'datasource-measurements');
    assert.deepEqual(created.urls, []);
    for (const [k, v] of Object.entries({
      format: 'csv-wide',
      metricLabelStyle: 'canonical',
      qcAssessment: true,
      qcFlags: true,
      outputFrequency: 'minute',
      startTime: '2026-10-31T23:00:00.000Z',
      endTime: '2026-11-01T00:00:00.000Z',
    })) {
      assert.deepEqual(created.query[k], v, k);
    }
    assert.equal(done.message, 'Ready');
    assert.equal(done.urls.length, 1);
    assert.match(new URL(done.urls[0]).pathname, /\.csv\.gz$/);
    assert.ok(new URL(done.urls[0]).search.length > 1, 'a signed URL');
    assert.match(done.urlsExpireAt, MS_TIME);
  });

  it('a request with "allDatasources": "true" gets a report; format csv-wide is accepted', async () => {
    const { created, done } = await report({
      report: 'datasource-measurements',
      allDatasources: 'true',
      outputFrequency: 'day',
      startTime: '2026-11-18',
      endTime: '2026-11-20',
      format: 'csv-wide',
    });
    assert.equal(created.reportStatus, 'in-progress');
    assert.equal(done.reportStatus, 'succeeded');
  });

  it('report files read with a plain text accessor are CSV (Content-Encoding: gzip)', async () => {
    const { done } = await report({
      report: 'datasource-measurements',
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      startTime: '2026-11-20T05:00:00Z',
      endTime: '2026-11-20T07:00:00Z',
    });
    const res = await fetch(done.urls[0]);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.match(await res.text(), /^datasourceId,sourceId,sourceType,outputFrequency,startOfPeriod,endOfPeriod,/);
  });

  it('GET /v2/datasources/{id} is {"datasource": {...}}', async () => {
    const id = emu.facts.datasources[0].datasourceId;
    const body = await (await emu.get(`${PATHS.datasource(id)}?org=${emu.org}`)).json();
    assert.equal(body.datasource.datasourceId, id);
  });

  it('recent json-long minute: the metric object shape, value null with calibration-missing, irregular times; the echo keeps replyWithContinuationToken and metricSelect; internal temperature and humidity by default', async () => {
    const r = await emu.recent({
      datasourceIds: [emu.facts.calibrationMissing],
      replyWithContinuationToken: true,
      qcAssessment: true,
    });
    assert.equal(r.status, 200);
    const m = r.body.data.find((d: Json) => d.metric === 'pm10ConcMassIndividual');
    assert.deepEqual(Object.keys(m).sort(), [
      'datasourceId',
      'metric',
      'qcAssessment',
      'raw',
      'status',
      'time',
      'value',
    ]);
    assert.equal(m.value, null);
    assert.equal(m.status, 'calibration-missing');
    assert.equal(typeof m.raw, 'number');
    assert.match(m.time, MS_TIME);
    assert.equal(r.body.request.replyWithContinuationToken, true);
    const metrics = new Set(r.body.data.map((d: Json) => d.metric));
    assert.ok(metrics.has('temperatureInternalIndividual') && metrics.has('relHumidInternalIndividual'));
    const selected = await emu.recent({
      datasourceIds: [emu.facts.calibrationMissing],
      metricSelect: 'only + :pm25 + :internal',
    });
    assert.equal(selected.status, 200);
    assert.equal(selected.body.request.metricSelect, 'only + :pm25 + :internal');
    assert.deepEqual(
      [...new Set(selected.body.data.map((d: Json) => d.metric))].sort(),
      metricCatalog('minute')
        .filter((d) => d.quantity.categories.includes('pm25') || d.quantity.categories.includes('internal'))
        .map((d) => d.label)
        .sort(),
    );
  });
});
