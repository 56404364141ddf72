// The client against the real emulator over HTTP: every endpoint, errors, quota, gzip, continuation.
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { PATHS } from '../../../../src/core/api/paths';
import type { ReportRequest } from '../../../../src/core/api/types';
import { MeasurementsClient, type RequestLogEntry } from '../../../../src/core/client/client.node';
import { downloadReportFiles } from '../../../../src/core/reports/download.node';
import { waitForReport } from '../../../../src/core/reports/poller';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { readParquet } from '../../../../src/core/table/parquet';
import { cellText, findColumn, floatValues, type NumericColumn, type Table } from '../../../../src/core/table/table';
import type { WaitClock } from '../../../../src/core/time/clock';
import { sleep, systemClock } from '../../../../src/core/time/clock';
import { ManualClock, type RunningEmulator, startEmulator } from '../../../../src/emulator/index';
import { rejection } from '../../../support/core/rejection';
import { NOW } from '../../../support/now';

/** A poll clock that moves the emulator's clock instead of waiting. */
function emulatorPollClock(clock: ManualClock): WaitClock {
  return {
    nowMs: () => clock.now(),
    sleep: async (ms) => {
      clock.advance(ms);
    },
  };
}

function times(t: Table, name = 'time'): number[] {
  const c = findColumn(t, name) as NumericColumn;
  return Array.from(floatValues(c));
}

describe('MeasurementsClient against the emulator', function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let clock: ManualClock;
  let client: MeasurementsClient;
  let logs: RequestLogEntry[];
  let ids: string[];

  beforeEach(async () => {
    clock = new ManualClock(NOW);
    emu = await startEmulator({ clock, reportDelayMs: 5000, datasources: 8, seed: 7 });
    logs = [];
    client = new MeasurementsClient({
      baseUrl: emu.url,
      apiKey: emu.apiKey,
      log: (e) => logs.push(e),
      retry: { baseMs: 1 },
      clock: { nowMs: () => clock.now(), sleep },
    });
    ids = emu.facts.datasources.map((d) => d.datasourceId);
  });
  afterEach(() => emu.close());

  const report = (extra: Partial<ReportRequest> = {}): ReportRequest =>
    ({
      org: emu.org,
      report: 'datasource-measurements',
      outputFrequency: 'hour',
      startTime: '2026-11-19T00:00:00Z',
      endTime: '2026-11-19T06:00:00Z',
      datasourceIds: ids.slice(0, 2),
      ...extra,
    }) as ReportRequest;

  it('ping: GET {base_url} answers 200', async () => {
    assert.equal((await client.ping()).status, 200);
  });

  it('lists the datasources of the org and gets one', async () => {
    const list = await client.listDatasources(emu.org);
    assert.ok(list.datasources.length >= 7);
    assert.ok(list.datasources.every((d) => ids.includes(d.datasourceId)));
    const one = await client.getDatasource(emu.org, ids[0]);
    assert.equal(one.datasourceId, ids[0]);
    assert.equal((await rejection(client.getDatasource(emu.org, 'NOPE0000'))).code, 'NOT_FOUND');
  });

  it('403 for a bad key, and for a key of another org; the key is in neither error', async () => {
    const bad = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: 'not-a-key' });
    const e = await rejection(bad.listDatasources(emu.org));
    assert.equal(e.code, 'FORBIDDEN');
    assert.equal(e.status, 403);
    assert.ok(!JSON.stringify(e).includes('not-a-key') && !e.message.includes('not-a-key'));
    const other = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.secondOrg.apiKey });
    assert.equal((await rejection(other.recentQuery({ org: emu.org, allDatasources: true }))).code, 'FORBIDDEN');
    await rejection(client.listDatasources(emu.secondOrg.org), 'FORBIDDEN');
  });

  it('recent query json-long and csv-wide give the same rows', async () => {
    const req = {
      org: emu.org,
      datasourceIds: ids.slice(0, 3),
      outputFrequency: 'hour' as const,
      startTime: '2026-11-20T04:00:00Z',
    };
    const json = await client.recentQuery(req);
    const csv = await client.recentQuery({ ...req, format: 'csv-wide' });
    assert.equal(json.format, 'json-long');
    assert.equal(csv.format, 'csv-wide');
    assert.ok(json.table.rowCount > 0);
    assert.equal(csv.table.rowCount, json.table.rowCount);
    const key = (t: Table, timeCol: string) =>
      Array.from(
        { length: t.rowCount },
        (_, r) => `${cellText(findColumn(t, 'datasourceId')!, r)}@${cellText(findColumn(t, timeCol)!, r)}`,
      ).sort();
    assert.deepEqual(key(csv.table, 'startOfPeriod'), key(json.table, 'time'));
    const label = 'pm2_5ConcMassNowcast.value';
    const jsonValues = findColumn(json.table, label);
    assert.ok(jsonValues, 'json-long pivots to <metric>.value columns');
    const csvValues = findColumn(csv.table, 'pm2_5ConcMassNowcast');
    assert.ok(csvValues, 'csv-wide has one column per metric');
    const values = (t: Table, timeCol: string, col: NonNullable<ReturnType<typeof findColumn>>) =>
      Object.fromEntries(
        Array.from({ length: t.rowCount }, (_, r) => [
          `${cellText(findColumn(t, 'datasourceId')!, r)}@${cellText(findColumn(t, timeCol)!, r)}`,
          Number(cellText(col, r)),
        ]),
      );
    assert.deepEqual(
      values(csv.table, 'startOfPeriod', csvValues),
      values(json.table, 'time', jsonValues),
      'same values',
    );
    assert.ok(json.request, 'the request echo is kept');
    assert.ok(json.body && json.body.data.length > 0, 'the whole reply on request');
    assert.equal(csv.body, undefined);
    const lean = await client.recentQuery(req, { keepBody: false });
    assert.equal(lean.body, undefined);
    assert.equal(lean.table.rowCount, json.table.rowCount);
  });

  it('asks for gzip; the emulator compresses and the client decodes to the same table', async () => {
    const body = JSON.stringify({ org: emu.org, allDatasources: true, format: 'csv-wide' });
    const raw = await request(`${emu.url}${PATHS.recentQuery}`, {
      method: 'POST',
      headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body,
    });
    assert.equal(raw.headers['content-encoding'], 'gzip');
    await raw.body.dump();
    const plain = await request(`${emu.url}${PATHS.recentQuery}`, {
      method: 'POST',
      headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' },
      body,
    });
    const expected = await parseCsvWide(await plain.body.text());
    const viaClient = await client.recentQuery({ org: emu.org, allDatasources: true, format: 'csv-wide' });
    assert.equal(viaClient.table.rowCount, expected.rowCount);
    assert.ok(viaClient.table.rowCount > 0);
  });

  it('continuation returns only newer measurements and a new token; forged and expired tokens are token-rejected', async () => {
    const first = await client.recentQuery({
      org: emu.org,
      datasourceIds: ids.slice(0, 2),
      replyWithContinuationToken: true,
    });
    assert.ok(first.continuationToken);
    const newestFirst = Math.max(...times(first.table));
    clock.advance(10 * 60_000);
    const next = await client.continueQuery({ org: emu.org, continuationToken: first.continuationToken });
    assert.ok(next.continuationToken && next.continuationToken !== first.continuationToken);
    assert.ok(next.table.rowCount > 0);
    assert.ok(
      times(next.table).every((t) => t > newestFirst),
      'only measurements newer than the first call',
    );

    const forged = await rejection(client.continueQuery({ org: emu.org, continuationToken: 'forged-token' }));
    assert.equal(forged.code, 'TOKEN_REJECTED');
    const altered = `${next.continuationToken}x`;
    await rejection(client.continueQuery({ org: emu.org, continuationToken: altered }), 'TOKEN_REJECTED');
    clock.advance(25 * 3_600_000);
    const expired = await rejection(client.continueQuery({ org: emu.org, continuationToken: next.continuationToken }));
    assert.equal(expired.code, 'TOKEN_REJECTED');
    assert.match(expired.message, /24 hours/);
  });

  it('creates a report, polls it to succeeded and downloads its csv.gz files without the key', async () => {
    const created = await client.createReport(report());
    assert.equal(created.reportStatus, 'in-progress');
    assert.deepEqual(created.urls, []);
    const progress: string[] = [];
    const done = await waitForReport(client, created.reportId, {
      initial: created,
      clock: emulatorPollClock(clock),
      onProgress: (p) => progress.push(p.status),
    });
    assert.equal(done.reportStatus, 'succeeded');
    assert.ok(done.urls.length > 0);
    assert.ok(progress.includes('in-progress') && progress.at(-1) === 'succeeded');
    const dir = await mkdtemp(join(tmpdir(), 'measnb-emu-'));
    const files = await downloadReportFiles(client, done, dir);
    assert.ok(files.every((f) => !f.path.includes('?')));
    const table = await parseCsvWide(await readFile(files[0].path));
    assert.equal(table.rowCount, 2 * 6, 'two datasources × six hours');
    assert.ok(logs.every((l) => !l.path.includes('?')));
    assert.ok(!JSON.stringify(logs).includes(emu.apiKey));
    // The files come from the file host, another origin: the client asked it, never with the key.
    assert.equal(new URL(done.urls[0]).origin, emu.fileHost.url);
    assert.notEqual(emu.fileHost.url, emu.url);
    assert.ok(emu.fileHost.requests() >= done.urls.length);
    assert.deepEqual(emu.fileHost.requestsWithKey(), []);
  });

  it('reads a parquet report into the same table shape', async () => {
    const created = await client.createReport(report({ fileFormat: 'parquet' }));
    const done = await waitForReport(client, created.reportId, { initial: created, clock: emulatorPollClock(clock) });
    const dir = await mkdtemp(join(tmpdir(), 'measnb-emu-'));
    const [file] = await downloadReportFiles(client, done, dir);
    const table = await readParquet(await readFile(file.path));
    assert.equal(table.rowCount, 12);
    assert.equal(findColumn(table, 'startOfPeriod')?.kind, 'time');
  });

  it('404 (not-found) for an unknown report id', async () => {
    const e = await rejection(client.getReport('no-such-report'));
    assert.equal(e.code, 'NOT_FOUND');
    assert.match(e.message, /no-such-report/);
  });

  it('the 31st report of the day is quota-exceeded (429) with the reset time, and is not retried', async () => {
    for (let i = 0; i < 30; i++) await client.createReport(report());
    const before = logs.length;
    const e = await rejection(client.createReport(report()));
    assert.equal(e.code, 'QUOTA_EXCEEDED');
    assert.equal(e.status, 429);
    // The next UTC midnight on the client's clock (the emulator's), not the machine's.
    assert.equal(e.resetAt?.toISOString(), new Date(clock.now() + 13.5 * 3_600_000).toISOString());
    assert.equal(e.resetAt?.getUTCHours(), 0);
    assert.equal(e.retryAfterSeconds, 13.5 * 3600, 'the server says: until its UTC midnight');
    assert.equal(logs.length, before + 1);
    assert.equal(logs.at(-1)?.retries, 0);
  });

  it('400 with the server message for a request the client cannot judge (unknown datasource)', async () => {
    const e = await rejection(client.createReport(report({ datasourceIds: ['UNKNOWN1'] } as Partial<ReportRequest>)));
    assert.ok(['BAD_REQUEST', 'FORBIDDEN', 'NOT_FOUND'].includes(e.code), e.code);
    assert.ok(e.serverMessage);
    const query = await rejection(client.recentQuery({ org: emu.org, datasourceIds: ['DNOSUCH1'] }), 'BAD_REQUEST');
    assert.match(`${query.message} ${query.serverMessage}`, /datasourceIds/);
  });

  it('recovers from injected faults on reads: a 503, a truncated gzip body, a reset mid-body', async () => {
    await emu.close();
    emu = await startEmulator({
      clock,
      datasources: 8,
      seed: 7,
      faults: {
        rules: [
          { kind: 'error', endpoint: 'datasources', count: 1, status: 503 },
          { kind: 'truncate-gzip', endpoint: 'recentQuery', count: 1, afterBytes: 200 },
          { kind: 'reset', endpoint: 'continuation', count: 1, afterBytes: 100 },
        ],
      },
    });
    client = new MeasurementsClient({
      clock: systemClock,
      baseUrl: emu.url,
      apiKey: emu.apiKey,
      log: (e) => logs.push(e),
      retry: { baseMs: 1 },
    });
    await client.listDatasources(emu.org);
    assert.equal(logs.at(-1)?.retries, 1);
    const first = await client.recentQuery({ org: emu.org, allDatasources: true, replyWithContinuationToken: true });
    assert.equal(logs.at(-1)?.retries, 1, 'the truncated body was detected and the read retried');
    assert.ok(first.table.rowCount > 0);
    clock.advance(5 * 60_000);
    await client.continueQuery({ org: emu.org, continuationToken: first.continuationToken! });
    assert.equal(logs.at(-1)?.retries, 1);
  });

  it('reads gateway errors as real ones come: an HTML or empty body, and waits as Retry-After says on 503 and 429', async () => {
    await emu.close();
    emu = await startEmulator({
      clock,
      datasources: 8,
      seed: 7,
      faults: {
        rules: [
          { kind: 'error', endpoint: 'datasources', count: 1, status: 503, body: 'html', retryAfter: 1 },
          { kind: 'error', endpoint: 'recentQuery', count: 1, status: 429, body: 'empty', retryAfter: '1' },
          { kind: 'error', endpoint: 'root', count: 2, status: 502, body: 'html' },
          { kind: 'error', endpoint: 'reportStatus', count: 1, status: 504, body: 'empty' },
        ],
      },
    });
    client = new MeasurementsClient({
      clock: systemClock,
      baseUrl: emu.url,
      apiKey: emu.apiKey,
      log: (e) => logs.push(e),
      retry: { baseMs: 1 },
    });
    for (const call of [
      () => client.listDatasources(emu.org),
      () => client.recentQuery({ org: emu.org, allDatasources: true }),
    ]) {
      const started = performance.now();
      await call();
      assert.equal(logs.at(-1)?.retries, 1);
      assert.ok(performance.now() - started >= 950, 'waited the second Retry-After asked for');
    }
    const once = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const html = await rejection(once.ping());
    assert.equal(html.code, 'SERVER_ERROR');
    assert.match(html.message, /HTTP 502.*: 502 Bad Gateway\./);
    assert.ok(!html.message.includes('<'), html.message);
    const empty = await rejection(once.getReport('ABCDEFGHIJ'));
    assert.equal(empty.code, 'SERVER_ERROR');
    assert.match(empty.message, /HTTP 504\) on GET \/v2\/report-requests\/ABCDEFGHIJ\. This is usually temporary/);
  });
});
