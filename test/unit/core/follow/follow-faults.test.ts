// follow under a flaky network: replies cut by the emulator's fault injection (a gzip stream ended
// without its trailer, a connection reset mid-body) never advance the cursor, so a multi-step tail
// delivers exactly the rows a clean tail delivers: none lost, none twice.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MeasurementsError } from '../../../../src/core/api/errors';
import type { RecentQueryRequest } from '../../../../src/core/api/types';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { type FollowState, followStep } from '../../../../src/core/follow';
import { rowKey } from '../../../../src/core/follow/cursor';
import type { Table } from '../../../../src/core/table/table';
import { systemClock } from '../../../../src/core/time/clock';
import { ManualClock, type RunningEmulator, startEmulator } from '../../../../src/emulator';
import { gzipWithoutTrailer } from '../../../support/core/cut-replies';

const MIN = 60_000;
const START = Date.parse('2026-11-20T12:00:00Z');

function keys(table: Table): string[] {
  return Array.from({ length: table.rowCount }, (_, i) => rowKey(table, i) as string);
}

/**
 * A proxy in front of the emulator that ends every `cutEvery`-th reply early but cleanly, as a flaky
 * network or a load balancer does: close-delimited, once at a row boundary (gzip without its trailer,
 * since the client asks for gzip) and once mid-row (plain). No error on the wire.
 */
async function cuttingProxy(target: string, cutEvery: number): Promise<{ url: string; server: Server; cuts: number }> {
  let n = 0;
  const state = { url: '', server: undefined as unknown as Server, cuts: 0 };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const upstream = await fetch(target + req.url, {
      method: req.method,
      headers: { 'content-type': 'application/json', 'x-api-key': String(req.headers['x-api-key'] ?? '') },
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    const text = await upstream.text();
    const headers: Record<string, string> = { 'content-type': upstream.headers.get('content-type') ?? '' };
    const token = upstream.headers.get('x-service-continuation-token');
    if (token) headers['x-service-continuation-token'] = token;
    n++;
    const lines = text.split('\n');
    if (upstream.status !== 200 || n % cutEvery !== 0 || lines.length < 6) {
      res.writeHead(upstream.status, headers).end(text);
      return;
    }
    state.cuts++;
    const keep = Math.floor(lines.length / 2);
    const atBoundary = state.cuts % 2 === 1;
    const prefix = `${lines.slice(0, keep).join('\n')}\n`;
    const body = atBoundary ? await gzipWithoutTrailer(prefix) : `${prefix}${lines[keep].slice(0, 7)}`;
    if (atBoundary) headers['content-encoding'] = 'gzip';
    const head = Object.entries({ ...headers, connection: 'close' }).map(([k, v]) => `${k}: ${v}\r\n`);
    req.socket.write(`HTTP/1.1 200 OK\r\n${head.join('')}\r\n`);
    req.socket.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.server = server;
  return state;
}

describe('follow: cut replies never advance the cursor (emulator fault injection)', function () {
  this.timeout(60_000);
  const started: RunningEmulator[] = [];
  afterEach(async () => {
    for (const e of started.splice(0)) await e.close();
  });

  async function tail(format: 'csv-wide' | 'json-long', faulty: boolean | 'proxy') {
    const clock = new ManualClock(START);
    const emu = await startEmulator({
      clock,
      seed: 11,
      faults:
        faulty === true
          ? {
              seed: 3,
              rules: [
                { kind: 'truncate-gzip', endpoint: ['recentQuery', 'continuation'], rate: 0.2, afterBytes: 120 },
                { kind: 'reset', endpoint: ['recentQuery', 'continuation'], rate: 0.2, afterBytes: 200 },
              ],
            }
          : undefined,
    });
    started.push(emu);
    const proxy = faulty === 'proxy' ? await cuttingProxy(emu.url, 3) : undefined;
    if (proxy)
      started.push({ close: () => new Promise<void>((r) => proxy.server.close(() => r())) } as RunningEmulator);
    // No retries: every cut reaches followStep.
    const client = new MeasurementsClient({
      clock: systemClock,
      baseUrl: proxy?.url ?? emu.url,
      apiKey: emu.apiKey,
      retry: false,
    });
    const ds = emu.facts.datasources.slice(0, 3).map((d) => d.datasourceId);
    const request: RecentQueryRequest = {
      org: emu.org,
      datasourceIds: ds,
      format,
      startTime: new Date(START - 20 * MIN).toISOString(),
    };
    let state: FollowState | undefined;
    const seen: string[] = [];
    let cuts = 0;
    for (let step = 0; step < 20; step++) {
      try {
        const res = await followStep({ client, request, state, now: new Date(clock.now()) });
        seen.push(...keys(res.table));
        state = res.state;
      } catch (e) {
        assert.ok(e instanceof MeasurementsError, String(e));
        cuts++;
      }
      if (step < 19) clock.advance(3 * MIN);
    }
    // Steps at the last clock position until one succeeds: it must bring every row still missing.
    for (let extra = 0; faulty && extra < 30; extra++) {
      try {
        const res = await followStep({ client, request, state, now: new Date(clock.now()) });
        seen.push(...keys(res.table));
        break;
      } catch {
        cuts++;
      }
    }
    if (!faulty) {
      const res = await followStep({ client, request, state, now: new Date(clock.now()) });
      seen.push(...keys(res.table));
    }
    return { seen, cuts, proxyCuts: proxy?.cuts ?? 0 };
  }

  for (const format of ['csv-wide', 'json-long'] as const) {
    it(`a 20-step tail with cut replies delivers every row exactly once (${format})`, async () => {
      const clean = await tail(format, false);
      const cut = await tail(format, true);
      assert.ok(cut.cuts >= 3, `the faults cut some replies (${cut.cuts})`);
      assert.ok(clean.seen.length > 50);
      assert.equal(new Set(cut.seen).size, cut.seen.length, 'no row twice');
      assert.deepEqual([...cut.seen].sort(), [...clean.seen].sort(), 'the same rows as a clean tail, none lost');
    });

    if (format !== 'csv-wide') continue; // json-long replies are one line: the proxy cuts rows of csv-wide
    it(`replies ended early but cleanly (close-delimited, at a row boundary and mid-row) lose no row (${format})`, async () => {
      const clean = await tail(format, false);
      const cut = await tail(format, 'proxy');
      assert.ok(cut.proxyCuts >= 4, `the proxy cut some replies (${cut.proxyCuts})`);
      assert.equal(cut.cuts, cut.proxyCuts, 'every cut reply was seen as a failure');
      assert.equal(new Set(cut.seen).size, cut.seen.length, 'no row twice');
      assert.deepEqual([...cut.seen].sort(), [...clean.seen].sort(), 'the same rows as a clean tail, none lost');
    });
  }
});
