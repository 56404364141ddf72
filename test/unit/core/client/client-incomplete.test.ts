// Replies that end early but cleanly (close-delimited, chunked without its terminator, shorter than their
// Content-Length, gzip without its trailer, a row with the wrong field count) are never taken as complete:
// the Table path and the streamed path both see a transient failure and retry; nothing half is kept.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { MeasurementsError } from '../../../../src/core/api/errors';
import type { RecentQueryRequest } from '../../../../src/core/api/types';
import { MeasurementsClient, type RequestLogEntry } from '../../../../src/core/client/client.node';
import { type FollowState, followStep } from '../../../../src/core/follow';
import { systemClock } from '../../../../src/core/time/clock';
import { gzipWithoutTrailer } from '../../../support/core/cut-replies';
import { startTestServer, type TestServer } from '../../../support/core/test-server';

const HEADER = 'datasourceId,time,pm2_5ConcMassIndividual.value';
const ROWS = Array.from(
  { length: 40 },
  (_, i) => `DABC1234,2026-11-20T10:${String(i).padStart(2, '0')}:00.000Z,${(i * 1.5).toFixed(1)}`,
);
const BODY = `${HEADER}\n${ROWS.join('\n')}\n`;
/** The first 10 rows, ending at a row boundary. */
const AT_BOUNDARY = `${HEADER}\n${ROWS.slice(0, 10).join('\n')}\n`;
/** The first 10 rows and half of the 11th. */
const MID_ROW = `${AT_BOUNDARY}${ROWS[10].slice(0, 15)}`;

const REQUEST: RecentQueryRequest = { org: 'acme', datasourceIds: ['DABC1234'], format: 'csv-wide' };

type Damage = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Writes a raw HTTP/1.1 head and body on the socket and closes it: a close-delimited reply. */
function closeDelimited(body: Buffer | string, headers: Record<string, string> = {}): Damage {
  return (req) => {
    const head = Object.entries({ 'content-type': 'text/csv', connection: 'close', ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    req.socket.write(`HTTP/1.1 200 OK\r\n${head}\r\n`);
    req.socket.end(body);
  };
}

const DAMAGES: Record<string, () => Promise<Damage>> = {
  'a close-delimited body cut mid-row': async () => closeDelimited(MID_ROW),
  'a close-delimited gzip body cut at a row boundary (no gzip trailer)': async () =>
    closeDelimited(await gzipWithoutTrailer(AT_BOUNDARY), { 'content-encoding': 'gzip' }),
  'a chunked body cut at a row boundary without its terminator': async () => (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.write(AT_BOUNDARY);
    setTimeout(() => res.socket?.destroy(), 20);
  },
  'a body shorter than its Content-Length, cut at a row boundary': async () => (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(BODY)) });
    res.write(AT_BOUNDARY);
    setTimeout(() => res.socket?.destroy(), 20);
  },
};

/** Only the Table path reads rows (the streamed path passes the service's bytes through unparsed). */
const ROW_DAMAGES: Record<string, () => Promise<Damage>> = {
  'a row with the wrong number of fields (quoted body)': async () =>
    closeDelimited(`"datasourceId",time,pm2_5ConcMassIndividual.value\n${ROWS.slice(0, 3).join('\n')}\nDABC1234\n`),
  'a row with the wrong number of fields (plain body)': async () =>
    closeDelimited(`${HEADER}\n${ROWS.slice(0, 3).join('\n')}\nDABC1234,2026-11-20T10:\n`),
};

const whole: Damage = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(BODY)) });
  res.end(BODY);
};

describe('MeasurementsClient: incomplete replies are transient failures (real HTTP server)', function () {
  this.timeout(20_000);
  let server: TestServer;
  let logs: RequestLogEntry[];
  let replies: Damage[];

  beforeEach(async () => {
    logs = [];
    replies = [];
    server = await startTestServer((req, res) => (replies.shift() ?? whole)(req, res));
  });
  afterEach(() => server.close());

  const client = (retry: boolean) =>
    new MeasurementsClient({
      clock: systemClock,
      baseUrl: server.url,
      apiKey: 'k',
      log: (e) => logs.push(e),
      retry: retry ? { baseMs: 1, maxMs: 2 } : false,
    });

  it('asks for gzip on the loopback too, so the gzip trailer guards the reply', async () => {
    await client(false).recentQuery(REQUEST);
    await client(false).recentQueryCsv(REQUEST, new PassThrough().resume());
    for (const r of server.requests) assert.match(String(r.headers['accept-encoding']), /gzip/);
  });

  for (const [name, damage] of Object.entries({ ...DAMAGES, ...ROW_DAMAGES })) {
    describe(name, () => {
      it('Table path: not a table; the read is retried and the table is whole', async () => {
        replies.push(await damage());
        const err = await client(false)
          .recentQuery(REQUEST)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        assert.ok(err instanceof MeasurementsError, `expected a failure, got ${err}`);
        assert.equal(err.code, 'NETWORK');
        replies.push(await damage());
        const res = await client(true).recentQuery(REQUEST);
        assert.equal(res.table.rowCount, ROWS.length);
        assert.equal(logs.at(-1)?.retries, 1);
      });

      if (name in ROW_DAMAGES) return;
      it('streamed path: fails instead of ending cleanly, and leaves only whole lines', async () => {
        replies.push(await damage());
        const out: Buffer[] = [];
        const dest = new PassThrough().on('data', (c: Buffer) => out.push(c));
        const err = await client(true)
          .recentQueryCsv(REQUEST, dest)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        const text = Buffer.concat(out).toString();
        if (err === undefined) {
          // Nothing had been written when the damage was seen, so the read was retried whole.
          assert.equal(text, BODY);
          assert.equal(logs.at(-1)?.retries, 1);
          return;
        }
        assert.ok(err instanceof MeasurementsError, String(err));
        assert.match(err.message, /ended before it was complete|broke while reading/);
        assert.ok(text === '' || text.endsWith('\n'), `no partial last line: ${JSON.stringify(text.slice(-30))}`);
        assert.ok(BODY.startsWith(text), 'what was written is a prefix of whole lines');
      });
    });
  }

  it('streamed path: a failure before the first byte is retried (503, then a reply cut before its first line end)', async () => {
    replies.push((_req, res) => {
      res.writeHead(503).end();
    });
    replies.push(closeDelimited(HEADER.slice(0, 12)));
    const out: Buffer[] = [];
    const dest = new PassThrough().on('data', (c: Buffer) => out.push(c));
    const res = await client(true).recentQueryCsv(REQUEST, dest);
    assert.equal(Buffer.concat(out).toString(), BODY);
    assert.equal(res.bytes, Buffer.byteLength(BODY));
    assert.equal(logs.at(-1)?.retries, 2);
  });

  it('streamed path with restart: a reply cut after lines were written is read again into a fresh destination', async () => {
    replies.push(closeDelimited(MID_ROW));
    const dests: Buffer[][] = [[]];
    const first = new PassThrough().on('data', (c: Buffer) => dests[0].push(c));
    const restart = async () => {
      const out: Buffer[] = [];
      dests.push(out);
      return new PassThrough().on('data', (c: Buffer) => out.push(c));
    };
    const res = await client(true).recentQueryCsv(REQUEST, first, { restart });
    assert.equal(dests.length, 2, 'one restart');
    assert.equal(Buffer.concat(dests[0]).toString(), AT_BOUNDARY, 'the broken attempt wrote its whole lines');
    assert.equal(Buffer.concat(dests[1]).toString(), BODY, 'the new destination holds the whole reply once');
    assert.equal(res.bytes, Buffer.byteLength(BODY));
    assert.equal(logs.at(-1)?.retries, 1);
  });

  it('a gzip body whose decoded text is whole but whose trailer is missing is still incomplete', async () => {
    replies.push(closeDelimited(await gzipWithoutTrailer(BODY), { 'content-encoding': 'gzip' }));
    const err = await client(false)
      .recentQuery(REQUEST)
      .catch((e: unknown) => e);
    assert.ok(err instanceof MeasurementsError && err.code === 'NETWORK', String(err));
    replies.push(closeDelimited(gzipSync(BODY), { 'content-encoding': 'gzip' }));
    assert.equal((await client(false).recentQuery(REQUEST)).table.rowCount, ROWS.length);
  });

  it('follow: a cut continuation reply does not advance the token; the next step gets every row', async () => {
    const tokenReply =
      (body: string, token: string): Damage =>
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv', 'x-service-continuation-token': token });
        res.end(body);
      };
    const now = new Date('2026-11-20T11:00:00Z');
    replies.push(tokenReply(`${HEADER}\n${ROWS.slice(0, 5).join('\n')}\n`, 'T1'));
    const first = await followStep({ client: client(false), request: REQUEST, now });
    assert.equal(first.state.token, 'T1');
    const saved: FollowState = structuredClone(first.state);
    replies.push(closeDelimited(`${HEADER}\n${ROWS.slice(5, 20).join('\n')}\n${ROWS[20].slice(0, 9)}`));
    const failed = await followStep({ client: client(false), request: REQUEST, state: first.state, now }).catch(
      (e: unknown) => e,
    );
    assert.ok(failed instanceof MeasurementsError, String(failed));
    assert.deepEqual(first.state, saved, 'the cursor is unchanged by the failed step');
    replies.push(tokenReply(`${HEADER}\n${ROWS.slice(5).join('\n')}\n`, 'T2'));
    const next = await followStep({ client: client(false), request: REQUEST, state: first.state, now });
    assert.equal(next.table.rowCount, ROWS.length - 5, 'every row after the first step, none lost');
    assert.equal(next.state.token, 'T2');
    assert.match(server.requests.at(-1)!.body, /"continuationToken":"T1"/, 'the step after the cut still sent T1');
  });
});
