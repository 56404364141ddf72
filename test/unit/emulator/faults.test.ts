// Fault injection (off by default): 5xx, resets mid-body, truncated gzip, failed reports, latency, seeded rates.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { API_KEY_HEADER, PATHS } from '../../../src/core/api/paths';
import type { FaultConfig } from '../../../src/emulator/index';
import { startTestEmulator, type TestEmulator } from '../../support/emulator';

describe('emulator fault injection', () => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await startTestEmulator();
  });
  afterEach(() => emu.close());

  const configure = async (config: FaultConfig | Record<string, unknown>) => {
    const res = await emu.post('/_emulator/faults', config);
    return { status: res.status, body: await res.json() };
  };

  /** A raw POST that reports how the body ended. */
  function rawRecent(
    gzip: boolean,
  ): Promise<{ status: number; bytes: Buffer; error?: string; headers: Record<string, unknown> }> {
    return new Promise((resolve) => {
      const req = request(
        emu.url + PATHS.recentQuery,
        {
          method: 'POST',
          headers: {
            [API_KEY_HEADER]: emu.apiKey,
            'content-type': 'application/json',
            'accept-encoding': gzip ? 'gzip' : 'identity',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), headers: res.headers }),
          );
          res.on('error', (e) =>
            resolve({
              status: res.statusCode ?? 0,
              bytes: Buffer.concat(chunks),
              error: e.message,
              headers: res.headers,
            }),
          );
        },
      );
      req.on('error', (e) => resolve({ status: 0, bytes: Buffer.alloc(0), error: e.message, headers: {} }));
      req.end(JSON.stringify({ org: emu.org, allDatasources: true }));
    });
  }

  it('is off by default: a large body arrives whole', async () => {
    const r = await rawRecent(false);
    assert.equal(r.status, 200);
    assert.ok(JSON.parse(r.bytes.toString()).data.length > 1000);
  });

  it('error by count: the next N matching requests get the status, then service resumes', async () => {
    assert.equal(
      (await configure({ rules: [{ kind: 'error', endpoint: 'recentQuery', count: 2, status: 503 }] })).status,
      200,
    );
    assert.equal((await emu.recent({ allDatasources: true })).status, 503);
    const second = await emu.recent({ allDatasources: true });
    assert.equal(second.status, 503);
    assert.match(second.body.message, /injected/);
    assert.equal((await emu.recent({ allDatasources: true })).status, 200);
    // Other endpoints are not affected.
    assert.equal((await emu.get(`${PATHS.datasources}?org=${emu.org}`)).status, 200);
  });

  it('reset mid-body: the connection drops after some bytes', async () => {
    await configure({ rules: [{ kind: 'reset', endpoint: 'recentQuery', count: 1, afterBytes: 4096 }] });
    const r = await rawRecent(false);
    assert.ok(r.error, 'the body ends with an error');
    assert.ok(r.bytes.length <= 4096);
    const again = await rawRecent(false);
    assert.equal(again.error, undefined);
  });

  it('truncated gzip: the gzip stream ends early', async () => {
    await configure({ rules: [{ kind: 'truncate-gzip', endpoint: 'recentQuery', count: 1, afterBytes: 2000 }] });
    const r = await rawRecent(true);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.bytes.length, 2000);
    assert.throws(() => gunzipSync(r.bytes));
    const whole = await rawRecent(true);
    assert.doesNotThrow(() => gunzipSync(whole.bytes));
  });

  /** A report of six hours of every datasource (ready 3 s after it is made). */
  const smallReport = () => ({
    org: emu.org,
    report: 'datasource-measurements',
    allDatasources: true,
    outputFrequency: 'hour',
    startTime: '2026-11-20',
    endTime: '2026-11-20T06:00:00Z',
  });

  it('report-failed: the report ends in the failed state', async () => {
    await configure({ rules: [{ kind: 'report-failed', count: 1 }] });
    const failing = await emu.json(PATHS.reportRequests, smallReport());
    const fine = await emu.json(PATHS.reportRequests, smallReport());
    await emu.advance('10s');
    const f = await (await emu.get(PATHS.reportRequest(failing.body.reportId))).json();
    assert.equal(f.reportStatus, 'failed');
    assert.deepEqual(f.urls, []);
    const s = await (await emu.get(PATHS.reportRequest(fine.body.reportId))).json();
    assert.equal(s.reportStatus, 'succeeded');
  });

  it('report-status: a status check answers a status the client does not know (checked values only)', async () => {
    const bad = await configure({ rules: [{ kind: 'report-status', reportStatus: '<b>' }] });
    assert.equal(bad.status, 400);
    await configure({ rules: [{ kind: 'report-status', endpoint: 'reportStatus', count: 1 }] });
    const created = await emu.json(PATHS.reportRequests, smallReport());
    await emu.advance('10s');
    const odd = await (await emu.get(PATHS.reportRequest(created.body.reportId))).json();
    assert.equal(odd.reportStatus, 'queued');
    assert.deepEqual(odd.urls, []);
    const real = await (await emu.get(PATHS.reportRequest(created.body.reportId))).json();
    assert.equal(real.reportStatus, 'succeeded', 'the next check (count 1 spent) is the real one');
  });

  it('rates are seeded: the same seed fails the same requests', async () => {
    const pattern = async () => {
      await configure({ seed: 7, rules: [{ kind: 'error', endpoint: 'root', rate: 0.5 }] });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) {
        const res = await fetch(emu.url + PATHS.root);
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      return statuses;
    };
    const a = await pattern();
    const b = await pattern();
    assert.deepEqual(a, b);
    assert.ok(a.includes(503) && a.includes(200));
  });

  it('latency delays the reply but it still arrives', async () => {
    await configure({ rules: [{ kind: 'latency', endpoint: 'datasources', latency: '50ms', count: 1 }] });
    const res = await emu.get(`${PATHS.datasources}?org=${emu.org}`);
    assert.equal(res.status, 200);
    assert.ok((await res.json()).datasources.length > 0);
  });

  it('rejects bad fault configurations and can be cleared', async () => {
    assert.equal((await configure({ rules: [{ kind: 'meteor' }] })).status, 400);
    assert.equal((await configure({ rules: [{ kind: 'error', endpoint: 'nowhere' }] })).status, 400);
    assert.equal((await configure({ rules: [{ kind: 'error', rate: 2 }] })).status, 400);
    assert.equal((await configure({ rules: [{ kind: 'error' }] })).status, 200);
    assert.equal((await fetch(emu.url + PATHS.root)).status, 503);
    assert.deepEqual((await configure({ rules: [] })).body, { rules: 0 });
    assert.equal((await fetch(emu.url + PATHS.root)).status, 200);
  });

  it('error rules choose the body (JSON, a gateway HTML page, empty) and the Retry-After header', async () => {
    const rules = [
      { kind: 'error', endpoint: 'root', count: 1, status: 503, body: 'html', retryAfter: 120 },
      {
        kind: 'error',
        endpoint: 'datasources',
        count: 1,
        status: 429,
        body: 'empty',
        retryAfter: 'Fri, 20 Nov 2026 10:31:00 GMT',
      },
      { kind: 'error', endpoint: 'reportFile', count: 1, status: 502, body: 'html' },
    ];
    assert.equal((await configure({ rules })).status, 200);
    const html = await fetch(emu.url + PATHS.root);
    assert.equal(html.status, 503);
    assert.equal(html.headers.get('retry-after'), '120');
    assert.equal(html.headers.get('content-type'), 'text/html');
    assert.match(await html.text(), /^<html>[\s\S]*<title>503 Service Unavailable<\/title>/);
    const empty = await emu.get(`${PATHS.datasources}?org=${emu.org}`);
    assert.equal(empty.status, 429);
    assert.equal(empty.headers.get('retry-after'), 'Fri, 20 Nov 2026 10:31:00 GMT');
    assert.equal(await empty.text(), '');
    const file = await fetch(`${emu.fileHost.url}/_files/reports/X/part-000.csv.gz`);
    assert.equal(file.status, 502, 'the file host injects faults too');
    assert.match(await file.text(), /502 Bad Gateway/);
    assert.equal((await configure({ rules: [{ kind: 'error', count: 1 }] })).status, 200);
    const json = await fetch(emu.url + PATHS.root);
    assert.deepEqual(await json.json(), { message: 'Service unavailable (injected fault)' }, 'JSON by default');
    assert.equal(json.headers.get('retry-after'), null);
    for (const bad of [{ body: 'xml' }, { retryAfter: -1 }, { retryAfter: 'soon' }, { retryAfter: 1.5 }]) {
      assert.equal((await configure({ rules: [{ kind: 'error', ...bad }] })).status, 400, JSON.stringify(bad));
    }
  });

  it('faults can also be given to startEmulator', async () => {
    const faulty = await startTestEmulator({
      faults: { rules: [{ kind: 'error', endpoint: 'root', count: 1, status: 500 }] },
    });
    try {
      assert.equal((await fetch(faulty.url + PATHS.root)).status, 500);
      assert.equal((await fetch(faulty.url + PATHS.root)).status, 200);
    } finally {
      await faulty.close();
    }
  });
});
