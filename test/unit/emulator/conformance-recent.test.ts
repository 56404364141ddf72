// Conformance over real HTTP: the recent query (formats, columns, time rules, cache depths, errors, gzip).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { API_KEY_HEADER, PATHS } from '../../../src/core/api/paths';
import { csvObjects, HOUR, MINUTE, NOW, parseCsv, startTestEmulator, type TestEmulator } from '../../support/emulator';

const DAY = 24 * HOUR;

describe('emulator conformance: recent query', () => {
  let emu: TestEmulator;
  let first: string;
  before(async () => {
    emu = await startTestEmulator();
    first = emu.facts.datasources[0].datasourceId;
  });
  after(() => emu.close());

  it('json-long by default: request echo, metric objects, locations; minute output of the last hour', async () => {
    const r = await emu.recent({ datasourceIds: [first] });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(Object.keys(r.body), ['request', 'data', 'locations']);
    const req = r.body.request;
    assert.equal(req.org, emu.org);
    assert.equal(req.format, 'json-long');
    assert.equal(req.outputFrequency, 'minute');
    assert.deepEqual(req.datasourceIds, [first]);
    assert.equal(req.startTime, new Date(NOW - HOUR).toISOString());
    assert.equal(req.qcAssessment, false);
    assert.equal(req.qcFlags, false);
    const m = r.body.data[0];
    assert.deepEqual(Object.keys(m), ['datasourceId', 'time', 'status', 'value', 'raw', 'metric']);
    assert.equal(m.datasourceId, first);
    assert.ok(r.body.data.every((d: { metric: string }) => d.metric.endsWith('Individual')));
    const times = r.body.data.map((d: { time: string }) => Date.parse(d.time));
    assert.ok(Math.min(...times) >= NOW - HOUR, 'default minute startTime is 1 hour before');
    assert.ok(Math.max(...times) <= NOW);
    assert.deepEqual(r.body.locations.length, 1);
    assert.deepEqual(Object.keys(r.body.locations[0]).sort(), ['datasourceId', 'lat', 'lon']);
  });

  it('json-long data is in time-descending order across datasources', async () => {
    const r = await emu.recent({
      allDatasources: true,
      outputFrequency: 'hour',
      metricSelect: 'only pm2_5ConcMass1HourMean',
    });
    const times: number[] = r.body.data.map((d: { time: string }) => Date.parse(d.time));
    for (let i = 1; i < times.length; i++) assert.ok(times[i] <= times[i - 1], `row ${i} is newer than row ${i - 1}`);
    assert.ok(new Set(r.body.data.map((d: { datasourceId: string }) => d.datasourceId)).size > 10);
  });

  it('csv-wide minute: identifying columns first, then one column per metric; time in ms precision', async () => {
    const r = await emu.recent({ datasourceIds: [first], format: 'csv-wide' });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/csv/);
    const { header, rows } = parseCsv(r.text);
    assert.deepEqual(header.slice(0, 7), [
      'datasourceId',
      'sourceId',
      'sourceType',
      'outputFrequency',
      'time',
      'locationLatitude',
      'locationLongitude',
    ]);
    assert.ok(header.includes('pm2_5ConcMassIndividual'));
    assert.ok(rows.length >= 55 && rows.length <= 61, `about an hour of minutes, got ${rows.length}`);
    const row = csvObjects(r.text)[0];
    assert.equal(row.datasourceId, first);
    assert.equal(row.sourceType, 'SERVICE_NODE');
    assert.equal(row.outputFrequency, 'minute');
    // Real sensors report at irregular millisecond times.
    assert.match(row.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.match(row.locationLatitude, /^-?\d+\.\d{6}$/, 'csv-wide rounds locations to 6 places by default');
  });

  it('csv-wide hour and day: startOfPeriod / endOfPeriod (end exclusive, one period later)', async () => {
    for (const [frequency, period] of [
      ['hour', HOUR],
      ['day', DAY],
    ] as const) {
      const r = await emu.recent({ datasourceIds: [first], format: 'csv-wide', outputFrequency: frequency });
      const { header } = parseCsv(r.text);
      assert.ok(header.includes('startOfPeriod') && header.includes('endOfPeriod') && !header.includes('time'));
      for (const row of csvObjects(r.text)) {
        assert.equal(Date.parse(row.endOfPeriod) - Date.parse(row.startOfPeriod), period);
        assert.ok(Date.parse(row.endOfPeriod) <= NOW, 'only complete periods');
        assert.equal(row.outputFrequency, frequency);
      }
    }
  });

  it('default startTimes: hour = 24 hours before, day = 48 hours before; every period holding measurements after the cut-off', async () => {
    const hour = await emu.recent({ datasourceIds: [first], outputFrequency: 'hour', format: 'csv-wide' });
    const starts = csvObjects(hour.text).map((r) => Date.parse(r.startOfPeriod));
    assert.equal(Math.min(...starts), NOW - 24 * HOUR - 30 * MINUTE, 'the hour containing now - 24 h');
    assert.equal(Math.max(...starts), NOW - 30 * MINUTE - HOUR, 'last complete hour');
    assert.equal(starts.length, 24);
    const day = await emu.recent({ datasourceIds: [first], outputFrequency: 'day', format: 'csv-wide' });
    const days = csvObjects(day.text).map((r) => r.startOfPeriod);
    // now - 48 h = 2026-11-18T10:30 -> the day containing it, 2026-11-18; last complete day 2026-11-19.
    assert.deepEqual(days, ['2026-11-19T00:00:00.000Z', '2026-11-18T00:00:00.000Z']);
    // The echo carries startTime as defaulted, not rounded to a period.
    const echoed = await emu.recent({ datasourceIds: [first], outputFrequency: 'day', metricSelect: 'none' });
    assert.equal(echoed.body.request.startTime, new Date(NOW - 48 * HOUR).toISOString());
  });

  it('echoes an explicit startTime as given and includes the period containing it', async () => {
    const start = '2026-11-20T05:30:00.000Z';
    const r = await emu.recent({ datasourceIds: [first], outputFrequency: 'hour', startTime: start });
    assert.equal(r.status, 200);
    assert.equal(r.body.request.startTime, start);
    const times = new Set(r.body.data.map((d: { time: string }) => d.time));
    assert.ok(times.has('2026-11-20T05:00:00.000Z'), 'the hour containing 05:30');
    assert.ok(!times.has('2026-11-20T04:00:00.000Z'));
  });

  it('accepts unknown fields and "true"/"false" strings; the echo keeps them, replyWithContinuationToken and metricSelect as sent', async () => {
    const r = await emu.recent({
      datasourceIds: [first],
      colour: 'red',
      replyWithContinuationToken: 'true',
      qcFlags: 'false',
      metricSelect: 'only + :pm25 + :internal',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.request.colour, 'red');
    assert.equal(r.body.request.replyWithContinuationToken, true);
    assert.equal(r.body.request.qcFlags, false);
    assert.equal(r.body.request.metricSelect, 'only + :pm25 + :internal');
    assert.ok(r.headers.get('x-service-continuation-token'), 'the string "true" asked for a token');
    const metrics = new Set(r.body.data.map((d: { metric: string }) => d.metric));
    assert.ok(metrics.has('temperatureInternalIndividual') && metrics.has('pm2_5ConcMassIndividual'));
    // Known fields with bad values are still refused.
    const bad = await emu.recent({ datasourceIds: [first], qcFlags: 'yes' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /^qcFlags must be true or false/);
  });

  it('startTime is inclusive', async () => {
    const start = new Date(NOW - 10 * MINUTE).toISOString();
    const r = await emu.recent({ datasourceIds: [first], startTime: start, format: 'csv-wide' });
    const times = csvObjects(r.text).map((x) => Date.parse(x.time));
    // Every measurement taken at or after startTime, the first one within the minute that starts there.
    assert.ok(Math.min(...times) >= Date.parse(start) && Math.min(...times) < Date.parse(start) + MINUTE);
  });

  it('cache depths: 24 h for minute, 48 h for hour, 10 days for day, whatever the startTime', async () => {
    const early = new Date(NOW - 30 * DAY).toISOString();
    const cases = [
      ['minute', DAY, 'time'],
      ['hour', 2 * DAY, 'startOfPeriod'],
      ['day', 10 * DAY, 'startOfPeriod'],
    ] as const;
    for (const [frequency, depth, column] of cases) {
      const r = await emu.recent({
        datasourceIds: [first],
        startTime: early,
        outputFrequency: frequency,
        format: 'csv-wide',
        metricSelect: 'none',
      });
      const times = csvObjects(r.text).map((x) => Date.parse(x[column]));
      // Minute measurements from the cut-off on; periods that contain measurements from the cut-off on.
      const period = { minute: 0, hour: HOUR, day: DAY }[frequency];
      assert.ok(Math.min(...times) + period >= NOW - depth, `${frequency}: nothing older than the cache`);
      assert.ok(Math.min(...times) < NOW - depth + HOUR, `${frequency}: reaches back to the cache depth`);
    }
  });

  it('locationRounding sets the decimals (default 5 for json-long)', async () => {
    const r5 = await emu.recent({ datasourceIds: [first], metricSelect: 'none + pm1ConcMassIndividual' });
    const lat5 = String(r5.body.locations[0].lat);
    assert.ok((lat5.split('.')[1] ?? '').length <= 5);
    const r2 = await emu.recent({ datasourceIds: [first], locationRounding: 2, format: 'csv-wide' });
    assert.match(csvObjects(r2.text)[0].locationLatitude, /^-?\d+\.\d{2}$/);
  });

  it('metricSelect limits the columns and metric objects', async () => {
    const r = await emu.recent({
      datasourceIds: [first],
      outputFrequency: 'hour',
      metricSelect: 'only pm2_5ConcMassNowcast',
    });
    assert.deepEqual([...new Set(r.body.data.map((d: { metric: string }) => d.metric))], ['pm2_5ConcMassNowcast']);
    const c = await emu.recent({
      datasourceIds: [first],
      outputFrequency: 'hour',
      format: 'csv-wide',
      metricSelect: 'only no2*',
    });
    assert.deepEqual(parseCsv(c.text).header.slice(8), [
      'no2Conc1HourMean',
      'no2Conc1HourMeanUsEpaAqi',
      'no2Conc1HourMeanWaDwerAqi',
      'no2Conc24HourRollingMean',
    ]);
  });

  it('qcAssessment / qcFlags add per-metric columns and fields', async () => {
    const c = await emu.recent({
      datasourceIds: [first],
      format: 'csv-wide',
      metricSelect: 'only pm2_5ConcMassIndividual',
      qcAssessment: true,
      qcFlags: true,
    });
    assert.deepEqual(parseCsv(c.text).header.slice(7), [
      'pm2_5ConcMassIndividual.qcAssessment',
      'pm2_5ConcMassIndividual.qcFlags',
      'pm2_5ConcMassIndividual.raw',
      'pm2_5ConcMassIndividual.status',
      'pm2_5ConcMassIndividual.value',
    ]);
    assert.ok(c.text.includes(',valid,[],'), 'qcFlags cells hold a JSON array as text');
    const j = await emu.recent({ datasourceIds: [first], metricSelect: 'only pm2_5ConcMassIndividual', qcFlags: true });
    assert.deepEqual(j.body.data[0].qcFlags, []);
    assert.equal(j.body.data[0].qcAssessment, undefined);
  });

  it('400 naming the field for bad requests', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ datasourceIds: [first], outputFrequency: 'week' }, /^outputFrequency must be one of minute, hour, day/],
      [{ datasourceIds: [first], format: 'xml' }, /^format must be one of json-long, csv-wide/],
      [{ datasourceIds: [first], startTime: 'yesterday' }, /^startTime must be an ISO 8601/],
      [{}, /^datasourceIds is required/],
      [{ datasourceIds: 'DABC' }, /^datasourceIds must be an array/],
      [{ datasourceIds: ['DNOSUCH1'] }, /^datasourceIds: unknown datasource 'DNOSUCH1'/],
      [{ datasourceIds: [first], metricSelect: 'only bogus' }, /^metricSelect: unknown metric label 'bogus'/],
      [{ datasourceIds: [first], qcFlags: 'yes' }, /^qcFlags must be true or false/],
      [{ datasourceIds: [first], locationRounding: 2.5 }, /^locationRounding must be an integer/],
      [{ datasourceIds: [first], dataVersion: 'v3' }, /^dataVersion must be one of legacy, v2026-11-10/],
      [{ datasourceIds: [first], org: '' }, /^org is required/],
    ];
    for (const [body, message] of cases) {
      const r = await emu.recent(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.message, message);
    }
    const notJson = await emu.post(PATHS.recentQuery, '{"org":');
    assert.equal(notJson.status, 400);
    assert.match((await notJson.json()).message, /JSON/);
  });

  it('gzip when the client accepts it; the same bytes otherwise', async () => {
    const body = JSON.stringify({ org: emu.org, datasourceIds: [first], format: 'csv-wide' });
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        const req = request(
          emu.url + PATHS.recentQuery,
          {
            method: 'POST',
            headers: { [API_KEY_HEADER]: emu.apiKey, 'content-type': 'application/json', 'accept-encoding': encoding },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const zipped = await raw('gzip');
    const plain = await raw('identity');
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gunzipSync(zipped.bytes).toString(), plain.bytes.toString());
    assert.ok(zipped.bytes.length < plain.bytes.length / 2);
  });

  it('streams the body (chunked, no content-length)', async () => {
    const res = await emu.post(PATHS.recentQuery, { org: emu.org, allDatasources: true });
    assert.equal(res.headers.get('content-length'), null);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked');
    await res.arrayBuffer();
  });
});
