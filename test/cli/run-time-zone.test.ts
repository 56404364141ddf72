// measnb run --time-zone / --day-boundary: the zone of sql cells' local days and of the outputs' times
// (ResultInfo.timeZone), over the notebook's metadata; a bad zone is a usage error (exit 2) before any request.
// Expected local days: America/Denver is UTC−7 on 2026-11-20 (zoneinfo), so the emulator's hours 07:00Z… are
// one Denver day.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { codeCell, parseNotebook, serializeNotebook } from '../../src/core/notebook';
import type { RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

type Nb = Parameters<typeof serializeNotebook>[0];

/** The zone the first cell's output carries (ResultInfo.timeZone). */
const zoneOf = (nb: Nb): unknown =>
  (nb.cells[0].outputs[0].metadata?.measnb as { timeZone?: unknown } | undefined)?.timeZone;

describe('measnb run --time-zone (built CLI against the emulator)', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ reportDelayMs: 500, clock: '2026-11-20T12:00:30Z' }));
  });
  after(() => stopCliEmulator(emu, dir));

  async function notebook(name: string, metadata: Record<string, unknown>): Promise<string> {
    const nb = {
      metadata,
      cells: [
        codeCell(
          "sql as z\nSELECT current_setting('TimeZone') AS tz, date_trunc('day', TIMESTAMPTZ '2026-11-20 06:30:00+00') AS d",
        ),
      ],
    };
    const path = join(dir, `${name}.measnb`);
    await writeFile(path, serializeNotebook(nb as Nb));
    return path;
  }

  async function run(path: string, flags: string[]) {
    const out = path.replace('.measnb', '.out.measnb');
    const r = await runCli(['run', path, ...conn.args, '--out', out, '--results', join(dir, 'r'), ...flags], {
      env: conn.env,
    });
    return { r, out };
  }

  it("the notebook's timeZone: sql days are Denver's and the output carries the zone", async () => {
    const { r, out } = await run(await notebook('meta', { timeZone: 'America/Denver', dayBoundary: 'standard' }), []);
    assert.equal(r.code, 0, r.stderr);
    const csv = await readFile(join(dir, 'r', 'z.csv'), 'utf8');
    // 06:30Z on Nov 20 is 23:30 on Nov 19 in Denver: its day starts 2026-11-19T07:00Z.
    assert.match(csv, /America\/Denver,2026-11-19T07:00:00(\.000)?Z/);
    const nb = parseNotebook(await readFile(out, 'utf8'));
    assert.deepEqual(zoneOf(nb), {
      name: 'America/Denver',
      dayBoundary: 'standard',
    });
  });

  it('--time-zone overrides the metadata; without either, UTC', async () => {
    const path = await notebook('flag', { timeZone: 'Asia/Kathmandu' });
    const { r, out } = await run(path, ['--time-zone', 'America/Denver']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(await readFile(join(dir, 'r', 'z.csv'), 'utf8'), /America\/Denver,2026-11-19T07:00/);
    const nb = parseNotebook(await readFile(out, 'utf8'));
    assert.deepEqual(zoneOf(nb), {
      name: 'America/Denver',
      dayBoundary: 'clock',
    });
    const plain = await run(await notebook('plain', {}), []);
    assert.equal(plain.r.code, 0, plain.r.stderr);
    assert.match(await readFile(join(dir, 'r', 'z.csv'), 'utf8'), /UTC,2026-11-20T00:00/);
  });

  it('a bad --time-zone, --day-boundary or metadata zone: exit 2 naming it, and no request is sent', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const base = ['--base-url', `http://127.0.0.1:${port}`, '--org', 'o'];
      const env = { MEASUREMENTS_API_KEY: 'k' };
      const path = await notebook('bad', {});
      const zone = await runCli(['run', path, ...base, '--time-zone', 'Mars/Olympus'], { env });
      assert.equal(zone.code, 2, zone.stderr);
      assert.match(zone.stderr, /--time-zone.*unknown time zone 'Mars\/Olympus'/);
      const boundary = await runCli(['run', path, ...base, '--day-boundary', 'local'], { env });
      assert.equal(boundary.code, 2, boundary.stderr);
      assert.match(boundary.stderr, /day boundary 'local' is not one of: clock, standard/);
      const meta = await runCli(['run', await notebook('badmeta', { timeZone: 'MST' }), ...base], { env });
      assert.equal(meta.code, 2, meta.stderr);
      assert.match(meta.stderr, /the notebook's metadata: 'MST' names no place/);
      assert.equal(requests, 0, 'nothing was sent');
    } finally {
      server.close();
    }
  });
});
