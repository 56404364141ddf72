// metricSelect the service would refuse (a bare `only`, an unknown label or category) is a cell error: measnb
// exits with the invalid-cell code and sends nothing. Valid real-client forms still run.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { codeCell, serializeNotebook } from '../../src/core/notebook';
import { ManualClock, type RunningEmulator } from '../../src/emulator';
import { type Connection, ensureBuilt, runCli, startCliEmulator, stopCliEmulator } from './support';

describe('measnb: metricSelect errors block sending', function () {
  this.timeout(60_000);
  let server: Server;
  let url: string;
  let requests = 0;
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;

  before(async () => {
    await ensureBuilt();
    // Counts every request; any reply would do, the test asserts none arrives.
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"counted"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ emu, conn, dir } = await startCliEmulator({ clock: new ManualClock(Date.parse('2026-11-20T12:00:30Z')) }));
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    await stopCliEmulator(emu, dir);
  });

  const counted = ['--base-url', '', '--org', 'o'];
  const env = { MEASUREMENTS_API_KEY: 'k' };

  it('measnb query: a bare only, an unknown label or category: exit 3, one error line, nothing sent', async () => {
    counted[1] = url;
    const cases: [string, RegExp][] = [
      ['only', /-e:3:15: error: 'only' must be followed by a metric/],
      ['only pm2_5ConcMasNowcast', /-e:3:20: error: unknown metric label 'pm2_5ConcMasNowcast'; did you mean/],
      ['only :pollutants', /-e:3:20: error: unknown metric category ':pollutants'/],
      ['default +', /error: a metric term is missing at the end/],
    ];
    for (const [value, line] of cases) {
      const cell = `recent\nallDatasources: true\nmetricSelect: ${value}\noutputFrequency: hour`;
      const r = await runCli(['query', '-e', cell, ...counted], { env });
      assert.equal(r.code, 3, `${value}: ${r.stderr}`);
      assert.equal(r.stdout.length, 0);
      assert.match(r.stderr, line, value);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    }
    assert.equal(requests, 0, 'no request reached the service');
  });

  it('measnb run: the cell fails with exit 3 and no request is sent', async () => {
    counted[1] = url;
    const nbPath = join(dir, 'bad-select.measnb');
    await writeFile(
      nbPath,
      serializeNotebook({
        metadata: {},
        cells: [codeCell('recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only :pollutants')],
      }),
    );
    const r = await runCli(['run', nbPath, ...counted], { env });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /cell 1 \(recent\) failed:\n.*bad-select\.measnb#1:4:20: error: unknown metric category/);
    assert.equal(requests, 0, 'no request reached the service');
  });

  it('valid selections of real clients still run against the emulator', async () => {
    for (const value of ['only + :pm25 + :internal', 'default - *aqi*', 'only pm2_5* + pm10*', 'ONLY *nowcast*']) {
      const cell = `recent\nallDatasources: true\noutputFrequency: hour\nstartTime: -3h\nmetricSelect: ${value}`;
      const r = await runCli(['query', '-e', cell, ...conn.args], { env: conn.env });
      assert.equal(r.code, 0, `${value}: ${r.stderr}`);
      assert.ok(r.stdout.toString().split('\n').length > 2, value);
    }
  });
});
