import assert from 'node:assert/strict';
import { lstat, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { MeasurementsError, nextUtcMidnight } from '../../../../src/core/api/errors';
import type { ReportRequest } from '../../../../src/core/api/types';
import { MeasurementsClient, type RequestLogEntry } from '../../../../src/core/client/client.node';
import { cellText, findColumn } from '../../../../src/core/table/table';
import { sleep, systemClock } from '../../../../src/core/time/clock';
import { rejection } from '../../../support/core/rejection';
import { reportRecord } from '../../../support/core/report-record';
import { refusedOrigin, sendJson, startTestServer, type TestServer } from '../../../support/core/test-server';

const KEY = 'sk-test-SECRET-1234567890';
const FAST_RETRY = { baseMs: 1, maxMs: 5, maxRetries: 3 };

const REPORT: ReportRequest = {
  org: 'acme',
  report: 'datasource-measurements',
  outputFrequency: 'hour',
  startTime: '2026-11-01',
  endTime: '2026-11-02',
  datasourceIds: ['DABC1234'],
};

function assertNoKey(what: unknown): void {
  const text = `${JSON.stringify(what)} ${inspect(what, { depth: 10, showHidden: true })} ${String(what)}`;
  assert.ok(!text.includes(KEY), `the API key leaked into: ${text.slice(0, 300)}`);
}

describe('MeasurementsClient (local HTTP server)', () => {
  let api: TestServer;
  let other: TestServer;
  let logs: RequestLogEntry[];
  let client: MeasurementsClient;

  beforeEach(async () => {
    api = await startTestServer();
    other = await startTestServer();
    logs = [];
    client = new MeasurementsClient({
      clock: systemClock,
      baseUrl: api.url,
      apiKey: KEY,
      retry: FAST_RETRY,
      log: (e) => logs.push(e),
    });
  });
  afterEach(async () => {
    await api.close();
    await other.close();
  });

  describe('the API key', () => {
    it('is sent to the base URL origin', async () => {
      api.handle((_q, res) => sendJson(res, 200, reportRecord()));
      await client.getReport('r-1');
      assert.equal(api.requests[0].headers['x-api-key'], KEY);
      assert.equal(api.requests[0].url, '/v2/report-requests/r-1');
    });

    it('is dropped when a redirect leads to another origin, and kept on a same-origin redirect', async () => {
      api.handle((q, res) => {
        if (q.url === '/v2/report-requests/r-1') {
          res.writeHead(307, { location: '/v2/report-requests/r-1-moved' });
          return res.end();
        }
        res.writeHead(302, { location: `${other.url}/elsewhere` });
        res.end();
      });
      other.handle((_q, res) => sendJson(res, 200, reportRecord('succeeded')));
      const rec = await client.getReport('r-1');
      assert.equal(rec.reportStatus, 'succeeded');
      assert.equal(api.requests[1].headers['x-api-key'], KEY, 'same-origin hop keeps the key');
      assert.equal(other.requests.length, 1);
      assert.equal(other.requests[0].headers['x-api-key'], undefined, 'another origin never gets the key');
    });

    it('is not sent back after a redirect chain left the origin and returned', async () => {
      api.handle((q, res) => {
        if (q.url?.startsWith('/v2/')) {
          res.writeHead(302, { location: `${other.url}/hop` });
          return res.end();
        }
        sendJson(res, 200, reportRecord());
      });
      other.handle((_q, res) => {
        res.writeHead(302, { location: `${api.url}/back` });
        res.end();
      });
      await client.getReport('r-1');
      assert.equal(api.requests[1].url, '/back');
      assert.equal(api.requests[1].headers['x-api-key'], undefined);
    });

    it('is never sent to a report file URL, even one on the base origin', async () => {
      api.handle((_q, res) => res.end('a,b\n1,2\n'));
      other.handle((_q, res) => res.end('a,b\n1,2\n'));
      const sink = new PassThrough();
      sink.resume();
      await client.downloadReportFile(`${other.url}/files/r-1/extract_0.csv?X-Signature=abc`, sink);
      const sink2 = new PassThrough();
      sink2.resume();
      await client.downloadReportFile(`${api.url}/files/r-1/extract_0.csv`, sink2);
      assert.equal(other.requests[0].headers['x-api-key'], undefined);
      assert.equal(api.requests[0].headers['x-api-key'], undefined);
    });

    it('never appears in errors or log entries, even when the server echoes it', async () => {
      api.handle((q, res) => sendJson(res, 403, { message: `Key ${q.headers['x-api-key']} is not allowed` }));
      const err = await rejection(client.listDatasources('acme'));
      assert.equal(err.code, 'FORBIDDEN');
      assert.equal(err.status, 403);
      assert.match(err.message, /Key \*\*\* is not allowed/);
      assertNoKey(err);
      assertNoKey(err.stack);
      assertNoKey(logs);
      assert.equal(logs.length, 1);
      assert.deepEqual(
        { ...logs[0], durationMs: 0 },
        {
          method: 'GET',
          path: '/v2/datasources',
          status: 403,
          durationMs: 0,
          retries: 0,
          error: 'FORBIDDEN',
        },
      );
    });

    it('is not in network errors', async () => {
      const c = new MeasurementsClient({
        clock: systemClock,
        baseUrl: await refusedOrigin(),
        apiKey: KEY,
        retry: FAST_RETRY,
      });
      const err = await rejection(c.getReport('r-1'));
      assert.equal(err.code, 'NETWORK');
      assertNoKey(err);
    });
  });

  describe('retries', () => {
    it('retries a GET on 5xx and succeeds, counting retries in the log', async () => {
      let n = 0;
      api.handle((_q, res) => (++n < 3 ? sendJson(res, 503, { message: 'busy' }) : sendJson(res, 200, reportRecord())));
      const rec = await client.getReport('r-1');
      assert.equal(rec.reportId, 'r-1');
      assert.equal(api.requests.length, 3);
      assert.equal(logs[0].retries, 2);
      assert.equal(logs[0].status, 200);
    });

    it('gives up after the bound with a server-error', async () => {
      api.handle((_q, res) => sendJson(res, 500, { message: 'boom' }));
      const err = await rejection(client.getReport('r-1'));
      assert.equal(err.code, 'SERVER_ERROR');
      assert.equal(api.requests.length, 1 + FAST_RETRY.maxRetries);
      assert.match(err.message, /500/);
    });

    it('retries the recent query on a dropped connection', async () => {
      let n = 0;
      api.handle((q, res) => {
        if (++n === 1) return q.socket.destroy();
        sendJson(res, 200, { request: {}, data: [], locations: [] });
      });
      const out = await client.recentQuery({ org: 'acme', allDatasources: true });
      assert.equal(out.table.rowCount, 0);
      assert.equal(api.requests.length, 2);
    });

    it('retries a 429 that carries Retry-After, but not one without it', async () => {
      let n = 0;
      api.handle((_q, res) =>
        ++n === 1
          ? sendJson(res, 429, { message: 'slow down' }, { 'retry-after': '0' })
          : sendJson(res, 200, reportRecord()),
      );
      await client.getReport('r-1');
      assert.equal(api.requests.length, 2);

      api.handle((_q, res) => sendJson(res, 429, { message: 'Too Many Requests' }));
      const err = await rejection(client.getReport('r-1'));
      assert.equal(err.code, 'QUOTA_EXCEEDED');
      assert.match(
        err.message,
        /^Too many requests \(429\) for GET \/\S+\. Daily report limit reached for this org \(30 per UTC day\); resets at 00:00 UTC, in /,
      );
      assert.equal(api.requests.length, 3, 'no retry without Retry-After');
    });

    it('does not retry a 429 whose Retry-After exceeds the bound', async () => {
      api.handle((_q, res) => sendJson(res, 429, { message: 'quota' }, { 'retry-after': '3600' }));
      const err = await rejection(client.getReport('r-1'));
      assert.equal(err.code, 'QUOTA_EXCEEDED');
      assert.equal(err.retryAfterSeconds, 3600);
      assert.equal(api.requests.length, 1);
    });

    it('never retries createReport on a 5xx (the request reached the server)', async () => {
      api.handle((_q, res) => sendJson(res, 502, { message: 'bad gateway' }));
      const err = await rejection(client.createReport(REPORT));
      assert.equal(err.code, 'SERVER_ERROR');
      assert.equal(api.requests.length, 1);
    });

    it('never retries createReport when the connection drops after sending', async () => {
      api.handle((q) => {
        q.socket.destroy();
      });
      const err = await rejection(client.createReport(REPORT));
      assert.equal(err.code, 'NETWORK');
      assert.equal(api.requests.length, 1);
      assert.equal(logs[0].retries, 0);
    });

    it('retries createReport when the connection was refused (nothing was sent)', async () => {
      const c = new MeasurementsClient({
        clock: systemClock,
        baseUrl: await refusedOrigin(),
        apiKey: KEY,
        retry: FAST_RETRY,
        log: (e) => logs.push(e),
      });
      const err = await rejection(c.createReport(REPORT));
      assert.equal(err.code, 'NETWORK');
      assert.equal(logs[0].retries, FAST_RETRY.maxRetries);
    });

    it('can be switched off', async () => {
      const c = new MeasurementsClient({ clock: systemClock, baseUrl: api.url, apiKey: KEY, retry: false });
      api.handle((_q, res) => sendJson(res, 503, {}));
      await rejection(c.getReport('r-1'));
      assert.equal(api.requests.length, 1);
    });
  });

  describe('timeouts and cancellation', () => {
    it('times out a call whose server never answers', async () => {
      api.handle(() => undefined);
      const err = await rejection(client.getReport('r-1', { timeoutMs: 150 }));
      assert.equal(err.code, 'TIMEOUT');
      assert.match(err.message, /No complete answer/);
    });

    it('cancels with an AbortSignal while waiting for the answer', async () => {
      const ctrl = new AbortController();
      api.handle(() => ctrl.abort());
      const err = await rejection(client.recentQuery({ org: 'acme', allDatasources: true }, { signal: ctrl.signal }));
      assert.equal(err.code, 'CANCELLED');
      assert.equal(api.requests.length, 1);
    });

    it('sends nothing when the signal is already aborted', async () => {
      const ctrl = new AbortController();
      ctrl.abort();
      const err = await rejection(client.createReport(REPORT, { signal: ctrl.signal }));
      assert.equal(err.code, 'CANCELLED');
      assert.equal(api.requests.length, 0);
    });

    it('cancels during the back-off between retries', async () => {
      const ctrl = new AbortController();
      const c = new MeasurementsClient({
        clock: systemClock,
        baseUrl: api.url,
        retry: { baseMs: 60_000, maxMs: 60_000 },
      });
      api.handle((_q, res) => {
        sendJson(res, 503, {});
        setImmediate(() => ctrl.abort());
      });
      const err = await rejection(c.getReport('r-1', { signal: ctrl.signal }));
      assert.equal(err.code, 'CANCELLED');
      assert.equal(api.requests.length, 1);
    });
  });

  describe('errors', () => {
    it('maps 429 on createReport to quota-exceeded with the next UTC midnight', async () => {
      api.handle((_q, res) => sendJson(res, 429, { message: 'Limit Exceeded' }));
      const now = Date.parse('2026-11-20T21:00:00Z');
      const clocked = new MeasurementsClient({ baseUrl: api.url, apiKey: 'k', clock: { nowMs: () => now, sleep } });
      const err = await rejection(clocked.createReport(REPORT));
      assert.equal(err.code, 'QUOTA_EXCEEDED');
      assert.equal(err.status, 429);
      assert.ok(err.resetAt instanceof Date);
      assert.equal(
        err.resetAt.toISOString(),
        '2026-11-21T00:00:00.000Z',
        "the next UTC midnight of the client's clock",
      );
      assert.equal(err.resetAt.getTime(), nextUtcMidnight(new Date(now)).getTime());
      assert.equal(err.retryAfterSeconds, undefined, 'the server sent no Retry-After: none is made up');
      // The daily quota's one wording (core/api/quota-text.ts), on the client's clock: 21:00Z is 3 h before the reset.
      assert.equal(
        err.message,
        'Daily report limit reached for this org (30 per UTC day); resets at 00:00 UTC, in 3h00m. No report was created.',
      );
      assert.equal(api.requests.length, 1);
    });

    it('handles non-JSON error bodies (HTML gateway pages, plain text)', async () => {
      api.handle((_q, res) => {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end('<html><head><title>400 Bad Request: startTime</title></head><body><h1>oops</h1></body></html>');
      });
      const err = await rejection(client.getReport('r-1'));
      assert.equal(err.code, 'BAD_REQUEST');
      assert.equal(err.serverMessage, '400 Bad Request: startTime');
      assert.ok(!err.message.includes('<'));

      api.handle((_q, res) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end('endTime is not a date');
      });
      const err2 = await rejection(client.getReport('r-1'));
      assert.match(err2.message, /endTime is not a date/);
    });

    it('maps 401, 403, 404 and a malformed 200', async () => {
      api.handle((_q, res) => sendJson(res, 401, { message: 'Unauthorized' }));
      assert.equal((await rejection(client.getReport('r-1'))).code, 'UNAUTHORIZED');
      api.handle((_q, res) => sendJson(res, 404, { message: 'Not Found' }));
      const nf = await rejection(client.getReport('nope-42'));
      assert.equal(nf.code, 'NOT_FOUND');
      assert.match(nf.message, /nope-42/);
      api.handle((_q, res) => res.end('<html>not json</html>'));
      assert.equal((await rejection(client.getReport('r-1'))).code, 'SERVER_ERROR');
    });

    it('reports a malformed csv-wide body as a server error without retrying it', async () => {
      api.handle((_q, res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end('datasourceId,time\nD1,"2026-11-01T00:00:00Z\n');
      });
      const err = await rejection(client.recentQuery({ org: 'acme', allDatasources: true, format: 'csv-wide' }));
      assert.equal(err.code, 'SERVER_ERROR');
      assert.match(err.message, /could not be read/);
      assert.equal(api.requests.length, 1);
    });

    it('maps a rejected continuation token to token-rejected', async () => {
      api.handle((_q, res) => sendJson(res, 400, { message: 'continuationToken has expired (24 hours)' }));
      const err = await rejection(client.continueQuery({ org: 'acme', continuationToken: 'tok' }));
      assert.equal(err.code, 'TOKEN_REJECTED');
      assert.match(err.message, /expired/);
      api.handle((_q, res) => sendJson(res, 400, { message: 'org is required' }));
      assert.equal((await rejection(client.recentQuery({ org: 'acme', allDatasources: true }))).code, 'BAD_REQUEST');
    });
  });

  describe('credentials in the base URL', () => {
    it('are refused, and the error never repeats them', () => {
      assert.throws(
        () =>
          new MeasurementsClient({
            clock: systemClock,
            baseUrl: 'https://alice:pa55word@api.example.com/v2',
            apiKey: KEY,
          }),
        (e: unknown) => {
          assert.ok(e instanceof MeasurementsError && e.code === 'INVALID_REQUEST');
          assert.ok(!e.message.includes('pa55word') && !e.message.includes('alice'), e.message);
          assert.match(e.message, /https:\/\/\*\*\*@api\.example\.com\/v2 holds credentials .* not used/);
          return true;
        },
      );
      assert.throws(
        () => new MeasurementsClient({ clock: systemClock, baseUrl: 'https://bob:hunter2@exa mple.com' }),
        (e: unknown) => e instanceof Error && !e.message.includes('hunter2') && /not a URL/.test(e.message),
      );
    });
  });

  describe('validation', () => {
    it('sends nothing for an invalid report request and names every field', async () => {
      const bad = { ...REPORT, datasourceIds: undefined, outputFrequency: 'weekly', endTime: '2026-10-01' };
      const err = await rejection(client.createReport(bad as unknown as ReportRequest));
      assert.equal(err.code, 'INVALID_REQUEST');
      assert.deepEqual(err.issues?.map((i) => i.field).sort(), ['datasourceIds', 'endTime', 'outputFrequency']);
      assert.match(err.message, /Nothing was sent/);
      assert.equal(api.requests.length, 0);
    });

    it('sends nothing for an invalid recent query', async () => {
      const err = await rejection(client.recentQuery({ org: 'acme', locationRounding: 2.5 }));
      assert.deepEqual(err.issues?.map((i) => i.field).sort(), ['datasourceIds', 'locationRounding']);
      assert.equal(api.requests.length, 0);
    });
  });

  describe('endpoints', () => {
    it('createReport posts the request as JSON and returns the record', async () => {
      api.handle((_q, res, body) => sendJson(res, 200, reportRecord('in-progress', { query: JSON.parse(body) })));
      const rec = await client.createReport({ ...REPORT, qcFlags: true, fileFormat: 'parquet' });
      assert.equal(api.requests[0].method, 'POST');
      assert.equal(api.requests[0].url, '/v2/report-requests');
      assert.equal(api.requests[0].headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(api.requests[0].body), { ...REPORT, qcFlags: true, fileFormat: 'parquet' });
      assert.equal(rec.query.fileFormat, 'parquet');
    });

    it('keeps unknown report statuses and extra fields as they are', async () => {
      api.handle((_q, res) =>
        sendJson(res, 200, {
          reportId: 'r-1',
          reportStatus: 'queued-for-review',
          urlsExpireAt: '2026-11-02T00:00:00Z',
        }),
      );
      const rec = await client.getReport('r-1');
      assert.equal(rec.reportStatus, 'queued-for-review');
      assert.deepEqual(rec.urls, []);
      assert.equal(rec.urlsExpireAt, '2026-11-02T00:00:00Z');
    });

    it('ping checks GET {base_url} (with a path prefix) without the key', async () => {
      const c = new MeasurementsClient({ clock: systemClock, baseUrl: `${api.url}/prefix/`, apiKey: KEY });
      api.handle((_q, res) => res.end('hello'));
      const p = await c.ping();
      assert.equal(p.status, 200);
      assert.equal(api.requests[0].url, '/prefix/');
      assert.equal(api.requests[0].headers['x-api-key'], undefined);
      api.handle((_q, res) => sendJson(res, 200, { subscribingOrg: 'acme', datasources: [] }));
      await c.listDatasources('acme');
      assert.equal(api.requests[1].url, '/prefix/v2/datasources?org=acme');
    });

    it('lists datasources and gets one', async () => {
      const ds = {
        datasourceId: 'DABC1234',
        orgAnnotations: { group: null, name: 'Roof', tags: [] },
        currentSubscriptionId: 's',
        currentSourceId: 'A1',
        sourceType: 'SERVICE_NODE',
      };
      api.handle((q, res) =>
        q.url?.startsWith('/v2/datasources/')
          ? sendJson(res, 200, ds)
          : sendJson(res, 200, { subscribingOrg: 'acme', datasources: [ds] }),
      );
      const list = await client.listDatasources('acme');
      assert.equal(list.datasources[0].datasourceId, 'DABC1234');
      const one = await client.getDatasource('acme', 'DABC1234');
      assert.equal(one.orgAnnotations.name, 'Roof');
      assert.equal(api.requests[1].url, '/v2/datasources/DABC1234?org=acme');
    });

    it('recent query asks for gzip and decodes a gzipped csv-wide reply with its continuation token', async () => {
      const csv =
        'datasourceId,time,pm2_5ConcMassIndividual\nD1,2026-11-01T10:00:00.000Z,4.5\nD1,2026-11-01T09:59:00.000Z,\n';
      api.handle((_q, res) => {
        res.writeHead(200, {
          'content-type': 'text/csv',
          'content-encoding': 'gzip',
          'x-service-continuation-token': 'tok-1',
        });
        res.end(gzipSync(csv));
      });
      const out = await client.recentQuery({
        org: 'acme',
        datasourceIds: ['D1'],
        format: 'csv-wide',
        replyWithContinuationToken: true,
      });
      assert.equal(api.requests[0].headers['accept-encoding'], 'gzip');
      assert.equal(out.format, 'csv-wide');
      assert.equal(out.continuationToken, 'tok-1');
      assert.equal(out.table.rowCount, 2);
      const col = findColumn(out.table, 'pm2_5ConcMassIndividual')!;
      assert.equal(cellText(col, 0), '4.5');
      assert.equal(cellText(col, 1), '');
    });

    it('continuation posts {org, continuationToken} and reads the json-long reply (missing locations = empty)', async () => {
      api.handle((_q, res) =>
        sendJson(
          res,
          200,
          {
            request: {},
            data: [
              {
                datasourceId: 'D1',
                time: '2026-11-01T10:00:00Z',
                status: 'sensor-ready',
                value: 3,
                raw: 3,
                metric: 'pm2_5ConcMassIndividual',
              },
            ],
          },
          { 'x-service-continuation-token': 'tok-2' },
        ),
      );
      const out = await client.continueQuery({ org: 'acme', continuationToken: 'tok-1' });
      assert.equal(api.requests[0].url, '/v2/recent-datasource-measurements-continuation');
      assert.deepEqual(JSON.parse(api.requests[0].body), { org: 'acme', continuationToken: 'tok-1' });
      assert.equal(out.continuationToken, 'tok-2');
      assert.equal(out.format, 'json-long');
      assert.equal(out.table.rowCount, 1);
      assert.ok(Number.isNaN((findColumn(out.table, 'locationLatitude') as { values: Float64Array }).values[0]));
    });
  });

  describe('report file downloads', () => {
    const csv = 'datasourceId,time\nD1,2026-11-01T00:00:00Z\n'.repeat(2000);

    it('decodes a .csv.gz file (served as bytes) into the destination file', async () => {
      other.handle((_q, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(gzipSync(csv));
      });
      const dir = await mkdtemp(join(tmpdir(), 'measnb-dl-'));
      const dest = join(dir, 'extract_0.csv');
      const out = await client.downloadReportFile(`${other.url}/r/extract_0.csv.gz?sig=SECRETSIG`, dest);
      assert.equal(await readFile(dest, 'utf8'), csv);
      assert.equal(out.bytes, Buffer.byteLength(csv));
      assert.deepEqual(await readdir(dir), ['extract_0.csv'], 'no .part file left');
      assert.equal(logs[0].path, '/r/extract_0.csv.gz', 'the signature is not logged');
    });

    it('decodes Content-Encoding gzip, even on top of a .csv.gz body', async () => {
      other.handle((_q, res) => {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(gzipSync(gzipSync(csv)));
      });
      const chunks: Buffer[] = [];
      const sink = new PassThrough();
      sink.on('data', (c) => chunks.push(c));
      await client.downloadReportFile(`${other.url}/r/extract_0.csv.gz`, sink);
      assert.equal(Buffer.concat(chunks).toString('utf8'), csv);
    });

    it('passes parquet bytes through unchanged', async () => {
      const bytes = Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(100, 7), Buffer.from('PAR1')]);
      other.handle((_q, res) => res.end(bytes));
      const chunks: Buffer[] = [];
      const sink = new PassThrough();
      sink.on('data', (c) => chunks.push(c));
      await client.downloadReportFile(`${other.url}/r/extract_0.parquet`, sink);
      assert.deepEqual(Buffer.concat(chunks), bytes);
    });

    it('never writes through a symlink planted at <file>.part (created exclusively, then renamed)', async () => {
      other.handle((_q, res) => res.end(csv));
      const dir = await mkdtemp(join(tmpdir(), 'measnb-dl-'));
      const victim = join(dir, 'victim.txt');
      await writeFile(victim, 'precious\n');
      const dest = join(dir, 'extract_0.csv');
      await symlink(victim, `${dest}.part`);
      await client.downloadReportFile(`${other.url}/r/extract_0.csv`, dest);
      assert.equal(await readFile(victim, 'utf8'), 'precious\n', 'the symlink target is untouched');
      assert.equal(await readFile(dest, 'utf8'), csv);
      assert.ok(!(await lstat(dest)).isSymbolicLink());
      assert.deepEqual((await readdir(dir)).sort(), ['extract_0.csv', 'victim.txt']);
    });

    it('leaves no file behind when the body is cut off', async () => {
      other.handle((q, res) => {
        res.writeHead(200, { 'content-length': '100000' });
        res.write('datasourceId,time\n');
        setImmediate(() => q.socket.destroy());
      });
      const dir = await mkdtemp(join(tmpdir(), 'measnb-dl-'));
      const c = new MeasurementsClient({ clock: systemClock, baseUrl: api.url, apiKey: KEY, retry: false });
      const err = await rejection(c.downloadReportFile(`${other.url}/r/x.csv`, join(dir, 'x.csv')));
      assert.equal(err.code, 'NETWORK');
      assert.deepEqual(await readdir(dir), []);
    });
  });
});
