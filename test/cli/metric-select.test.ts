// metricSelect: a grammar error (a bare `only`) is a cell error against any service: measnb exits with the
// invalid-cell code and sends nothing. What the metric catalogue does not know is an error only for --emulator
// (it owns the catalogue); against a real service it is a warning and the service decides. Valid forms run.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { codeCell, serializeNotebook } from '../../src/core/notebook';
import { ManualClock, type RunningEmulator } from '../../src/emulator';
import { type Connection, ensureBuilt, runCli, startCliEmulator, stopCliEmulator } from './support';

describe('measnb: metricSelect errors block sending, catalogue gaps only for the emulator', function () {
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

  it('measnb query: a grammar error (a bare only, a dangling +) is exit 3, one error line, nothing sent', async () => {
    counted[1] = url;
    const cases: [string, RegExp][] = [
      ['only', /-e:3:15: error: 'only' must be followed by a metric/],
      ['only - :pm25', /-e:3:20: error: 'only' must be followed by a metric/],
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

  it('measnb query --emulator: the emulator owns the catalogue, so an unknown label or category is exit 3', async () => {
    const cases: [string, RegExp][] = [
      ['only pm2_5ConcMasNowcast', /-e:3:20: error: unknown metric label 'pm2_5ConcMasNowcast'; did you mean/],
      ['only :pollutants', /-e:3:20: error: unknown metric category ':pollutants'/],
    ];
    for (const [value, line] of cases) {
      const cell = `recent\nallDatasources: true\nmetricSelect: ${value}\noutputFrequency: hour`;
      const r = await runCli(['query', '-e', cell, '--emulator'], { env: conn.env });
      assert.equal(r.code, 3, `${value}: ${r.stderr}`);
      assert.match(r.stderr, line, value);
      assert.doesNotMatch(r.stderr, /the service will decide/);
    }
  });

  it('measnb query against a real service: an unknown label is a warning, the request goes out, the service answers', async () => {
    // The test's emulator reached by --base-url is, to measnb, a real service: its own 400 is the answer.
    const cell = 'recent\nallDatasources: true\nmetricSelect: only pm2_5ConcMasNowcast\noutputFrequency: hour';
    const r = await runCli(['query', '-e', cell, ...conn.args], { env: conn.env });
    assert.equal(r.code, 8, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.match(
      lines[0],
      /^measnb: -e:3:20: warning: unknown metric label 'pm2_5ConcMasNowcast'; did you mean pm2_5ConcMassNowcast\?.*\(not in the known catalogue; the service will decide\)$/,
    );
    assert.match(r.stderr, /metricSelect: unknown metric label 'pm2_5ConcMasNowcast'/, 'the service said why');
    // A label the catalogue does not list but the service accepts: answered with data.
    counted[1] = url;
    const before = requests;
    const sent = await runCli(['query', '-e', cell.replace('pm2_5ConcMasNowcast', ':pollutants'), ...counted], { env });
    assert.ok(requests > before, 'sent to the service (its 500 retried)');
    assert.match(sent.stderr, /warning: unknown metric category ':pollutants' \(not in the known catalogue/);
  });

  it('measnb run: a grammar error fails the cell with exit 3 and no request is sent', async () => {
    counted[1] = url;
    const before = requests;
    const nbPath = join(dir, 'bad-select.measnb');
    await writeFile(
      nbPath,
      serializeNotebook({
        metadata: {},
        cells: [codeCell('recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only - :pm25')],
      }),
    );
    const r = await runCli(['run', nbPath, ...counted], { env });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /cell 1 \(recent\) failed:\n.*bad-select\.measnb#1:4:20: error: 'only' must be followed/);
    assert.equal(requests, before, 'no request reached the service');
  });

  it('valid selections of real clients still run against the emulator', async () => {
    for (const value of [
      'only + :pm25 + :internal',
      'default - *aqi*',
      'only pm2_5* + pm10*',
      'ONLY *nowcast*',
      'only no2Conc1HourMeanWaDwerAqi',
      'only *wadwer*',
    ]) {
      const cell = `recent\nallDatasources: true\noutputFrequency: hour\nstartTime: -3h\nmetricSelect: ${value}`;
      const r = await runCli(['query', '-e', cell, ...conn.args], { env: conn.env });
      assert.equal(r.code, 0, `${value}: ${r.stderr}`);
      assert.ok(r.stdout.toString().split('\n').length > 2, value);
    }
  });
});
