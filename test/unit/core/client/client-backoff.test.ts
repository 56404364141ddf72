// One back-off policy, one clock (core/time/backoff.ts): the client's retries wait on the clock it was
// given (not the machine's timer), and a Retry-After is read the same way by the client's retries and by
// the polling loop that rides errors out (core/time/repeat through core/reports/poller).
import assert from 'node:assert/strict';
import type { MeasurementsError } from '../../../../src/core/api/errors';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { waitForReport } from '../../../../src/core/reports/poller';
import { errorDelayMs } from '../../../../src/core/time/backoff';
import { rejection } from '../../../support/core/rejection';
import { reportRecord } from '../../../support/core/report-record';
import { sendJson, startTestServer, type TestServer } from '../../../support/core/test-server';
import { type VirtualClock, virtualClock } from '../../../support/core/virtual-clock';

/** An HTTP date `ms` after the clock's now, as a gateway's Retry-After. */
const httpDateIn = (clock: VirtualClock, ms: number) => new Date(clock.nowMs() + ms).toUTCString();

describe('client back-off: one policy, one clock', () => {
  let api: TestServer;
  let clock: VirtualClock;

  beforeEach(async () => {
    api = await startTestServer();
    clock = virtualClock(Date.UTC(2026, 10, 20, 12, 0, 0));
  });
  afterEach(() => api.close());

  it("waits between retries on the client's clock: a minute-long back-off takes no real time", async () => {
    const client = new MeasurementsClient({
      clock,
      baseUrl: api.url,
      retry: { baseMs: 60_000, maxMs: 120_000, maxRetries: 2, random: () => 0 },
    });
    let n = 0;
    api.handle((_q, res) => (++n <= 2 ? sendJson(res, 503, {}) : sendJson(res, 200, reportRecord('succeeded'))));
    const started = performance.now();
    const got = await client.getReport('r-1');
    assert.equal(got.reportStatus, 'succeeded');
    assert.equal(api.requests.length, 3);
    assert.deepEqual(clock.sleeps, [30_000, 60_000], 'equal jitter over 60 s, then over 120 s');
    assert.ok(performance.now() - started < 10_000, 'no real minute went by');
  });

  it('reads a Retry-After (seconds or an HTTP date, on any 5xx) the same way for retries and for polling', async () => {
    const client = new MeasurementsClient({
      clock,
      baseUrl: api.url,
      retry: { baseMs: 1, maxMs: 1, maxRetries: 1, random: () => 0 },
    });
    // Every status check: a 503 asking for 7 s as an HTTP date, then one asking for 9 s in seconds (each
    // retried once by the client), then the report is done.
    let n = 0;
    api.handle((_q, res) => {
      n++;
      if (n <= 2) return sendJson(res, 503, {}, { 'retry-after': httpDateIn(clock, 7000) });
      if (n <= 4) return sendJson(res, 502, {}, { 'retry-after': '9' });
      return sendJson(res, 200, reportRecord('succeeded'));
    });
    const errors: MeasurementsError[] = [];
    const done = await waitForReport(client, 'r-1', {
      clock,
      onProgress: (p) => p.error && errors.push(p.error),
    });
    assert.equal(done.reportStatus, 'succeeded');
    assert.deepEqual(
      clock.sleeps,
      [7000, 7000, 9000, 9000],
      "the client's retry, then the poller's wait: each the server's Retry-After, on the one clock",
    );
    assert.deepEqual(
      errors.map((e) => [e.status, e.retryAfterSeconds, errorDelayMs(1, e)]),
      [
        [503, 7, 7000],
        [502, 9, 9000],
      ],
    );
  });

  it('keeps no made-up Retry-After: a 429 without one is not retried, and polling backs off as for any error', async () => {
    const client = new MeasurementsClient({ clock, baseUrl: api.url, retry: { baseMs: 1, maxMs: 1 } });
    api.handle((_q, res) => sendJson(res, 429, { message: 'slow down' }));
    const err = await rejection(client.getReport('r-1'));
    assert.equal(err.code, 'QUOTA_EXCEEDED');
    assert.equal(err.retryAfterSeconds, undefined);
    assert.equal(api.requests.length, 1);
    assert.equal(errorDelayMs(1, err), 2000, 'the first error wait, not hours until the quota resets');
    assert.deepEqual(clock.sleeps, []);
  });
});
