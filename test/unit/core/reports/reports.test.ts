import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MeasurementsError } from '../../../../src/core/api/errors';
import type { ReportRecord } from '../../../../src/core/api/types';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { downloadReportFiles, fileNameForUrl } from '../../../../src/core/reports/download.node';
import { type PollProgress, waitForReport } from '../../../../src/core/reports/poller';
import { DEFAULT_POLL_SCHEDULE, pollDelayMs } from '../../../../src/core/reports/schedule';
import { isTerminal, reportState } from '../../../../src/core/reports/status';
import { sleep, systemClock } from '../../../../src/core/time/clock';
import { rejection as rejects } from '../../../support/core/rejection';
import { sendJson, startTestServer, type TestServer } from '../../../support/core/test-server';
import { virtualClock } from '../../../support/core/virtual-clock';

const rec = (reportStatus: string, extra: Partial<ReportRecord> = {}): ReportRecord => ({
  reportId: 'r-1',
  reportStatus,
  message: reportStatus,
  report: 'datasource-measurements',
  urls: [],
  query: {},
  ...extra,
});

/** A status source that plays a script of records or errors, one per check. */
function scripted(script: (ReportRecord | Error)[]) {
  let i = 0;
  return {
    calls: () => i,
    getReport: async (_id: string) => {
      const next = script[Math.min(i++, script.length - 1)];
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const noJitter = { random: () => 0.5 };

describe('reports: polling schedule', () => {
  /** The delays of a report polled from its creation, checks laid end to end (no jitter). */
  const delaysFromCreation = (count: number, schedule = DEFAULT_POLL_SCHEDULE) => {
    const delays: number[] = [];
    let age = 0;
    for (let i = 0; i < count; i++) {
      delays.push(pollDelayMs(age, schedule, () => 0.5));
      age += delays[i];
    }
    return delays;
  };

  it('checks within seconds first, stays within 4 s for the first ten minutes, then backs off to 30 s', () => {
    const delays = delaysFromCreation(200);
    assert.ok(delays[0] <= 3000, `first check after ${delays[0]} ms`);
    for (let i = 1; i < delays.length; i++) assert.ok(delays[i] >= delays[i - 1]);
    assert.ok(delays[3] > delays[0]);
    // A report that becomes ready within ten minutes is seen at most one (jittered) delay later.
    let elapsed = 0;
    let i = 0;
    for (; elapsed < 10 * 60_000; i++) {
      assert.ok(pollDelayMs(elapsed, DEFAULT_POLL_SCHEDULE, () => 0.999) <= 4400, `check ${i} at ${elapsed} ms`);
      elapsed += delays[i];
    }
    assert.ok(delays[i + 5] > 4000, 'backs off after the fast phase');
    assert.ok(Math.max(...delays) <= 30_000);
    assert.equal(delays.at(-1), 30_000);
    assert.equal(
      pollDelayMs(30 * 86_400_000, DEFAULT_POLL_SCHEDULE, () => 0.5),
      30_000,
      'never a blind minute',
    );
  });

  it('reads the delay from the age, so polling continues where it was after a restart', () => {
    const at = (ageMs: number) => pollDelayMs(ageMs, DEFAULT_POLL_SCHEDULE, () => 0.5);
    assert.equal(at(0), 2000, 'a new report: the first check within seconds');
    assert.equal(at(2000), 3000);
    assert.equal(at(60_000), 4000, 'one minute old: still the fast phase, at its ceiling (not 2 s again)');
    assert.equal(at(9 * 60_000), 4000);
    assert.equal(at(20 * 60_000), 30_000, 'twenty minutes old: past the fast phase, at the top ceiling');
    const delays = delaysFromCreation(400);
    let age = 0;
    for (const d of delays) {
      assert.equal(at(age), d, `at ${age} ms`);
      age += d;
    }
  });

  it('keeps a custom ceiling below the fast one', () => {
    const schedule = { ...DEFAULT_POLL_SCHEDULE, maxDelayMs: 1000, jitter: 0 };
    assert.deepEqual(
      delaysFromCreation(300, schedule).filter((d) => d !== 1000),
      [],
    );
  });

  it('spreads delays with jitter within bounds', () => {
    const lo = pollDelayMs(2000, DEFAULT_POLL_SCHEDULE, () => 0);
    const hi = pollDelayMs(2000, DEFAULT_POLL_SCHEDULE, () => 0.999);
    assert.ok(lo < hi);
    assert.ok(lo >= 3000 * 0.9 - 1 && hi <= 3000 * 1.1 + 1);
  });

  it('maps statuses to a small state union; unknown ones are not terminal', () => {
    assert.equal(reportState('succeeded'), 'succeeded');
    assert.equal(reportState('queued-for-review'), 'unknown');
    assert.ok(isTerminal('failed') && isTerminal('succeeded'));
    assert.ok(!isTerminal('in-progress') && !isTerminal('weird'));
  });
});

describe('reports: waitForReport', () => {
  it('polls until succeeded, with no cap on the number of checks, reporting progress', async () => {
    const clock = virtualClock();
    const script = [
      ...Array.from({ length: 60 }, () => rec('in-progress', { message: 'Processing' })),
      rec('succeeded'),
    ];
    const source = scripted(script);
    const progress: PollProgress[] = [];
    const done = await waitForReport(source, 'r-1', { clock, ...noJitter, onProgress: (p) => progress.push(p) });
    assert.equal(done.reportStatus, 'succeeded');
    assert.equal(source.calls(), 61, 'well past 12 checks');
    assert.equal(clock.sleeps.length, 60, 'first check at once, then one sleep per in-progress answer');
    const first = progress[0];
    assert.equal(first.status, 'in-progress');
    assert.equal(first.message, 'Processing');
    assert.equal(first.checks, 1);
    assert.equal(first.elapsedMs, 0);
    assert.ok(first.nextCheckInMs !== undefined && first.nextCheckInMs <= 3000);
    assert.equal(first.nextCheckAt?.getTime(), clock.t - clock.sleeps.reduce((a, b) => a + b, 0) + first.nextCheckInMs);
    const last = progress.at(-1)!;
    assert.equal(last.state, 'succeeded');
    assert.equal(last.nextCheckInMs, undefined);
    assert.equal(
      last.elapsedMs,
      clock.sleeps.reduce((a, b) => a + b, 0),
    );
    assert.ok(progress.every((p, i) => i === 0 || p.elapsedMs >= progress[i - 1].elapsedMs));
  });

  it('stops at failed and returns that record', async () => {
    const source = scripted([rec('in-progress'), rec('failed', { message: 'out of memory' })]);
    const done = await waitForReport(source, 'r-1', { clock: virtualClock() });
    assert.equal(done.reportStatus, 'failed');
    assert.equal(done.message, 'out of memory');
    assert.equal(source.calls(), 2);
  });

  it('starts from the record createReport returned and waits one delay before the first check', async () => {
    const clock = virtualClock();
    const source = scripted([rec('succeeded')]);
    const progress: PollProgress[] = [];
    await waitForReport(source, 'r-1', {
      clock,
      ...noJitter,
      initial: rec('in-progress'),
      onProgress: (p) => progress.push(p),
    });
    assert.equal(progress[0].checks, 0);
    assert.equal(clock.sleeps[0], DEFAULT_POLL_SCHEDULE.initialDelayMs);
    assert.equal(source.calls(), 1);
    const already = await waitForReport(scripted([]), 'r-1', { clock, initial: rec('succeeded') });
    assert.equal(already.reportStatus, 'succeeded');
  });

  it('reports an unknown status as-is and keeps polling, within a bound', async () => {
    const progress: PollProgress[] = [];
    const source = scripted([rec('queued'), rec('queued'), rec('succeeded')]);
    await waitForReport(source, 'r-1', { clock: virtualClock(), onProgress: (p) => progress.push(p) });
    assert.equal(progress[0].status, 'queued');
    assert.equal(progress[0].state, 'unknown');
    assert.equal(source.calls(), 3);

    const stuck = scripted([rec('queued')]);
    const out = await waitForReport(stuck, 'r-1', { clock: virtualClock(), unknownStatusLimitMs: 5 * 60_000 });
    assert.equal(out.reportStatus, 'queued');
    assert.ok(stuck.calls() > 3);
  });

  it('rides out transient errors without giving up (capped back-off), and stops at once on errors a retry cannot fix', async () => {
    const net = new MeasurementsError('NETWORK', 'down');
    const progress: PollProgress[] = [];
    const clock = virtualClock();
    const ok = scripted([rec('in-progress'), ...Array.from({ length: 12 }, () => net), rec('succeeded')]);
    const done = await waitForReport(ok, 'r-1', { clock, ...noJitter, onProgress: (p) => progress.push(p) });
    assert.equal(done.reportStatus, 'succeeded', 'twelve failed checks in a row did not end the wait');
    assert.equal(progress[1].error?.code, 'NETWORK');
    assert.equal(progress[1].status, 'in-progress', 'the last known status stays shown');
    assert.equal(progress[1].nextCheckInMs, 2000);
    assert.equal(Math.max(...clock.sleeps), 60_000, 'the back-off is capped at a minute');

    const gone = scripted([rec('in-progress'), new MeasurementsError('NOT_FOUND', 'Report r-1 was not found')]);
    await rejects(waitForReport(gone, 'r-1', { clock: virtualClock() }), 'NOT_FOUND');
    assert.equal(gone.calls(), 2);
  });

  it('is cancelled by its AbortSignal between checks', async () => {
    const ctrl = new AbortController();
    let n = 0;
    const source = {
      getReport: async () => {
        if (++n === 3) ctrl.abort();
        return rec('in-progress');
      },
    };
    await rejects(waitForReport(source, 'r-1', { clock: virtualClock(), signal: ctrl.signal }), 'CANCELLED');
    assert.equal(n, 3);
  });

  it('honours an optional deadline', async () => {
    const e = await rejects(
      waitForReport(scripted([rec('in-progress')]), 'r-1', { clock: virtualClock(), deadlineMs: 60_000 }),
      'TIMEOUT',
    );
    assert.match(e.message, /may still finish/);
  });

  it('polls a real server through the client', async () => {
    const server = await startTestServer();
    try {
      let n = 0;
      server.handle((_q, res) => sendJson(res, 200, rec(++n < 3 ? 'in-progress' : 'succeeded', { urls: ['u'] })));
      const client = new MeasurementsClient({ clock: systemClock, baseUrl: server.url, apiKey: 'k' });
      const done = await waitForReport(client, 'r-1', { clock: virtualClock() });
      assert.deepEqual(done.urls, ['u']);
      assert.equal(server.requests.length, 3);
      assert.ok(server.requests.every((r) => r.url === '/v2/report-requests/r-1'));
    } finally {
      await server.close();
    }
  });
});

describe('reports: downloadReportFiles', () => {
  let files: TestServer;
  let api: TestServer;
  let client: MeasurementsClient;
  const csv = 'datasourceId,time\nD1,2026-11-01T00:00:00Z\n';

  beforeEach(async () => {
    files = await startTestServer((q, res) => {
      if (q.url?.includes('.gz')) res.end(gzipSync(csv));
      else res.end(csv);
    });
    api = await startTestServer();
    client = new MeasurementsClient({ clock: systemClock, baseUrl: api.url, apiKey: 'SECRET-KEY' });
  });
  afterEach(async () => {
    await files.close();
    await api.close();
  });

  it('names files from the URL path, never the query string, and decodes .csv.gz', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'measnb-rep-'));
    const urls = [
      `${files.url}/reports/r-1/extract_0.csv.gz?X-Amz-Signature=deadbeef&X-Amz-Credential=AKIA`,
      `${files.url}/reports/r-1/extract_1.csv?X-Amz-Signature=feedface`,
      `${files.url}/other/extract_1.csv?sig=2`,
    ];
    const events: string[] = [];
    const out = await downloadReportFiles(client, rec('succeeded', { urls }), join(dir, 'r-1'), {
      onFile: (e) => events.push(`${e.index}/${e.total} ${e.displayUrl} ${e.bytes ?? '…'}`),
    });
    const names = (await readdir(join(dir, 'r-1'))).sort();
    assert.deepEqual(names, ['extract_0.csv', 'extract_1.csv', 'extract_1_2.csv']);
    assert.ok(names.every((n) => !/[?&=]|Signature|AKIA/.test(n)));
    assert.equal(await readFile(join(dir, 'r-1', 'extract_0.csv'), 'utf8'), csv);
    assert.equal(out[0].bytes, csv.length);
    assert.ok(events.every((e) => !e.includes('Signature') && !e.includes('sig=')));
    assert.equal(events.length, 6);
    assert.ok(files.requests.every((r) => r.headers['x-api-key'] === undefined));
  });

  it('makes safe names from odd URLs', () => {
    assert.equal(fileNameForUrl('https://h/a/..%2F..%2Fetc%2Fpasswd?x=1', 0, 'r'), '_.._etc_passwd');
    assert.equal(fileNameForUrl('https://h/?file=a.csv', 2, 'r/9'), 'r_9_2.csv');
    assert.equal(fileNameForUrl('https://h/x/report%20one.parquet', 0, 'r'), 'report_one.parquet');
  });

  it('refuses a report that has not succeeded', async () => {
    await rejects(downloadReportFiles(client, rec('in-progress'), tmpdir()), 'INVALID_REQUEST');
  });

  it("refreshes file URLs once before downloading when they expired by the client's clock", async () => {
    const fresh = `${files.url}/reports/r-1/fresh.csv?sig=new`;
    api.handle((_q, res) =>
      sendJson(res, 200, rec('succeeded', { urls: [fresh], urlsExpireAt: '2026-11-20T12:00:00Z' })),
    );
    const at = (iso: string) =>
      new MeasurementsClient({ baseUrl: api.url, clock: { nowMs: () => Date.parse(iso), sleep } });
    const stale = rec('succeeded', { urls: [`${files.url}/old.csv`], urlsExpireAt: '2026-11-20T10:00:00Z' });
    const dir = await mkdtemp(join(tmpdir(), 'measnb-rep-'));
    const out = await downloadReportFiles(at('2026-11-20T10:30:00Z'), stale, dir);
    assert.equal(api.requests.length, 1);
    assert.deepEqual(await readdir(dir), ['fresh.csv']);
    assert.equal(out[0].displayUrl, `${files.url}/reports/r-1/fresh.csv`);

    // The same record read half an hour earlier: its URLs are still valid, so no status call.
    const early = await mkdtemp(join(tmpdir(), 'measnb-rep-'));
    const valid = rec('succeeded', { urls: [`${files.url}/still.csv`], urlsExpireAt: '2026-11-20T10:00:00Z' });
    await downloadReportFiles(at('2026-11-20T09:30:00Z'), valid, early);
    assert.equal(api.requests.length, 1);
    assert.deepEqual(await readdir(early), ['still.csv']);
  });

  it('refreshes the URLs once when the file host cannot be reached (it moved, say a restarted emulator)', async () => {
    const gone = await startTestServer();
    const goneUrl = `${gone.url}/reports/r-1/a.csv?sig=1`;
    await gone.close();
    api.handle((_q, res) => sendJson(res, 200, rec('succeeded', { urls: [`${files.url}/reports/r-1/a.csv?sig=2`] })));
    const dir = await mkdtemp(join(tmpdir(), 'measnb-rep-'));
    const fast = new MeasurementsClient({ clock: systemClock, baseUrl: api.url, apiKey: 'SECRET-KEY', retry: false });
    const out = await downloadReportFiles(fast, rec('succeeded', { urls: [goneUrl] }), dir);
    assert.equal(out[0].bytes, csv.length);
    assert.equal(api.requests.length, 1, 'one status call for fresh URLs');
    assert.equal(await readFile(join(dir, 'a.csv'), 'utf8'), csv);
  });

  it('refreshes the URLs once when the file host refuses a (stale) signature', async () => {
    files.handle((q, res) => {
      if (q.url?.startsWith('/stale')) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        return res.end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
      }
      res.end(csv);
    });
    api.handle((_q, res) => sendJson(res, 200, rec('succeeded', { urls: [`${files.url}/fresh/a.csv?sig=2`] })));
    const dir = await mkdtemp(join(tmpdir(), 'measnb-rep-'));
    const out = await downloadReportFiles(client, rec('succeeded', { urls: [`${files.url}/stale/a.csv?sig=1`] }), dir);
    assert.equal(out[0].bytes, csv.length);
    assert.equal(api.requests.length, 1);

    api.handle((_q, res) => sendJson(res, 200, rec('succeeded', { urls: [`${files.url}/stale/a.csv?sig=3`] })));
    await rejects(
      downloadReportFiles(client, rec('succeeded', { urls: [`${files.url}/stale/a.csv?sig=1`] }), dir),
      'FORBIDDEN',
    );
  });
});
