// The report file host over real HTTP: a second origin, key-carrying requests recorded, HEAD and Range.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { API_KEY_HEADER, PATHS } from '../../../src/core/api/paths';
import { parseRange } from '../../../src/emulator/file-host';
import { parseCsv, startTestEmulator, type TestEmulator } from '../../support/emulator';

describe('emulator: the report file host (a second origin)', () => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await startTestEmulator({ reportFileEncoding: 'plain-gzip' });
  });
  afterEach(() => emu.close());

  async function fileUrl(extra: Record<string, unknown> = {}): Promise<string> {
    const created = await emu.json(PATHS.reportRequests, {
      org: emu.org,
      report: 'datasource-measurements',
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      startTime: '2026-11-19T00:00:00Z',
      endTime: '2026-11-20T08:00:00Z',
      ...extra,
    });
    await emu.advance('6s');
    const record = await (await emu.get(PATHS.reportRequest(created.body.reportId))).json();
    assert.equal(record.reportStatus, 'succeeded');
    return record.urls[0];
  }

  async function fileHostSeen(): Promise<{ url: string; requests: number; requestsWithKey: unknown[] }> {
    return (await emu.get('/_emulator/file-host')).json();
  }

  it('report URLs point at another port of 127.0.0.1; the API server does not serve them', async () => {
    const url = new URL(await fileUrl());
    assert.equal(url.origin, emu.fileHost.url);
    assert.match(url.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(url.origin, emu.url);
    assert.equal((await fetch(emu.url + url.pathname + url.search)).status, 404);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.ok(parseCsv(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).rows.length > 20);
    assert.equal((await fileHostSeen()).url, emu.fileHost.url);
  });

  it('records every request to the file host that carries the API key (never the key itself)', async () => {
    const url = await fileUrl();
    await (await fetch(url)).arrayBuffer();
    assert.deepEqual((await fileHostSeen()).requestsWithKey, []);
    const keyed = await fetch(url, { headers: { [API_KEY_HEADER]: emu.apiKey } });
    assert.equal(keyed.status, 200, 'an object store ignores the header; the emulator records it');
    await keyed.arrayBuffer();
    const seen = await fileHostSeen();
    assert.equal(seen.requests, 2);
    assert.deepEqual(seen.requestsWithKey, [{ method: 'GET', path: new URL(url).pathname }]);
    assert.deepEqual(emu.fileHost.requestsWithKey(), seen.requestsWithKey);
    assert.ok(!JSON.stringify(seen).includes(emu.apiKey));
  });

  it('HEAD gives the Content-Length of the GET body; Range gives 206 with those bytes, 416 past the end', async () => {
    const url = await fileUrl();
    const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(Number(head.headers.get('content-length')), whole.length);
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    const part = await fetch(url, { headers: { range: 'bytes=10-99' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 10-99/${whole.length}`);
    assert.equal(part.headers.get('content-length'), '90');
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(10, 100));
    const tail = await fetch(url, { headers: { range: 'bytes=-16' } });
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), whole.subarray(whole.length - 16));
    const rest = await fetch(url, { headers: { range: `bytes=${whole.length - 5}-` } });
    assert.deepEqual(Buffer.from(await rest.arrayBuffer()), whole.subarray(whole.length - 5));
    const again = await fetch(url);
    assert.equal(Number(again.headers.get('content-length')), whole.length, 'a GET after a HEAD has its length');
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), whole);
    const past = await fetch(url, { headers: { range: `bytes=${whole.length}-` } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${whole.length}`);
    await past.arrayBuffer();
    assert.equal((await fetch(url, { method: 'POST' })).status, 405);
  });

  it('Parquet files have their length and ranges too', async () => {
    const url = await fileUrl({ fileFormat: 'parquet' });
    const head = await fetch(url, { method: 'HEAD' });
    const size = Number(head.headers.get('content-length'));
    const magic = await fetch(url, { headers: { range: `bytes=${size - 4}-` } });
    assert.equal(Buffer.from(await magic.arrayBuffer()).toString(), 'PAR1');
  });

  it('parses a single bytes range; anything else is the whole file', () => {
    assert.deepEqual(parseRange('bytes=0-9', 100), [0, 9]);
    assert.deepEqual(parseRange('bytes=90-200', 100), [90, 99]);
    assert.deepEqual(parseRange('bytes=-10', 100), [90, 99]);
    assert.deepEqual(parseRange('bytes=-200', 100), [0, 99]);
    assert.equal(parseRange('bytes=100-', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=5-4', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-1,5-6', 100), undefined);
    assert.equal(parseRange('items=0-1', 100), undefined);
    assert.equal(parseRange(undefined, 100), undefined);
  });
});
