// measnb as an attacker, a flaky network and a careless user meet it: the streamed CSV path retries
// and never leaves half a row, follow --state never moves its cursor past rows that did not arrive,
// .part files never follow a planted symlink, terminal control sequences are shown escaped, and a base
// URL's credentials are never printed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PATHS } from '../../src/core/api/paths';
import { codeCell, serializeNotebook } from '../../src/core/notebook';
import { ManualClock, type RunningEmulator, startEmulator } from '../../src/emulator';
import { startTestServer, type TestServer } from '../support/core/test-server';
import { CLI, connection, ensureBuilt, ROOT, runCli, tempDir } from './support';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const ESC = '\x1b';
/** Window title (OSC 0), clipboard write (OSC 52), a hyperlink (OSC 8), clear screen (CSI 2J), a C1 CSI. */
const HOSTILE = `${ESC}]0;pwned${ESC}\\${ESC}]52;c;ZWNobyBoaQ==\x07${ESC}]8;;http://evil/${ESC}\\x${ESC}[2J\x9b31m`;

function assertNoControls(text: string, what: string): void {
  const raw = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(text.replace(/\r\n/g, '\n'));
  assert.equal(raw, null, `${what} holds a raw control character: ${JSON.stringify(text.slice(0, 300))}`);
}

/** Runs measnb under a pseudo-terminal (util-linux `script`), so stdout is a TTY as in a user's shell. */
function runInTerminal(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', quoted, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, ...env, COLUMNS: '200' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(out).toString('utf8') }));
  });
}

describe('measnb under hostile input and a flaky network (built CLI)', function () {
  this.timeout(90_000);
  let dir: string;

  before(async () => {
    await ensureBuilt();
  });
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('the streamed CSV path goes through the core transport', () => {
    let server: TestServer;
    const HEADER = 'datasourceId,time,pm2_5ConcMassIndividual.value\n';
    const ROWS = Array.from({ length: 400 }, (_, i) => `DABC1234,2026-11-20T10:00:${i % 60}.${i}Z,${i}.5\n`);
    const BODY = HEADER + ROWS.join('');
    let plan: Array<'503' | 'cut' | 'ok'>;

    beforeEach(async () => {
      plan = [];
      server = await startTestServer((req, res) => {
        if (req.url !== PATHS.recentQuery) return res.writeHead(404).end();
        const step = plan.shift() ?? 'ok';
        if (step === '503') return res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"busy"}');
        res.writeHead(200, { 'content-type': 'text/csv' });
        if (step === 'ok') return res.end(BODY);
        // Chunked, then the connection drops mid-row: no terminator.
        res.write(BODY.slice(0, BODY.length / 2 + 7));
        setTimeout(() => res.socket?.destroy(), 50);
      });
    });
    afterEach(() => server.close());

    const cell = 'recent\ndatasourceIds: DABC1234\nformat: csv-wide\nstartTime: -1h';
    const env = () => ({ MEASUREMENTS_API_KEY: 'k', MEASNB_NOW: new Date(NOW).toISOString() });
    const args = () => ['--base-url', server.url, '--org', 'acme'];

    it('a 503 before the first byte is retried: exit 0 and the whole body', async () => {
      plan.push('503', '503');
      const r = await runCli(['query', '-e', cell, '--csv', ...args()], { env: env() });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.toString(), BODY);
      assert.equal(server.requests.length, 3);
      for (const q of server.requests) assert.match(String(q.headers['accept-encoding']), /gzip/);
    });

    it('a reply that breaks off after rows were written: read again, each row printed once', async () => {
      plan.push('503', 'cut', 'cut');
      const r = await runCli(['query', '-e', cell, '--csv', ...args()], { env: env() });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.toString(), BODY);
      assert.equal(server.requests.length, 4);
    });

    it('--out x.csv: a 503, then a reply that breaks off after rows were written: the .part starts again, the file is whole', async () => {
      const out = join(dir, 'x.csv');
      plan.push('503', 'cut');
      const r = await runCli(['query', '-e', cell, '--out', out, ...args()], { env: env() });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(server.requests.length, 3);
      assert.equal(await readFile(out, 'utf8'), BODY);
      assert.deepEqual(await readdir(dir), ['x.csv']);
    });

    it('--stream: a reply that breaks off after rows were written: non-zero exit, no partial last line', async () => {
      plan.push('cut');
      const r = await runCli(['query', '-e', cell, '--csv', '--stream', ...args()], { env: env() });
      assert.notEqual(r.code, 0);
      const out = r.stdout.toString();
      assert.ok(out.length > HEADER.length, 'the whole lines before the break were written');
      assert.ok(out.endsWith('\n'), `no half row at the end: ${JSON.stringify(out.slice(-40))}`);
      assert.ok(BODY.startsWith(out));
      assert.match(r.stderr, /^measnb: The (reply|connection)/m);
    });

    it('--out x.csv: a reply broken on every try leaves neither the file nor a .part; a whole one is renamed in', async () => {
      const out = join(dir, 'x.csv');
      plan.push('cut', 'cut', 'cut', 'cut');
      const r = await runCli(['query', '-e', cell, '--out', out, ...args()], { env: env() });
      assert.notEqual(r.code, 0);
      assert.deepEqual(await readdir(dir), []);
      const ok = await runCli(['query', '-e', cell, '--out', out, ...args()], { env: env() });
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(await readFile(out, 'utf8'), BODY);
    });
  });

  describe('terminal control sequences from the service are shown escaped', () => {
    let server: TestServer;
    beforeEach(async () => {
      server = await startTestServer((req, res) => {
        if (req.url?.startsWith(PATHS.datasources)) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              subscribingOrg: 'acme',
              datasources: [
                // Shown, escaped: ids are usable (core/api/datasources), the other fields are any text.
                { datasourceId: 'DABC1234', sourceType: HOSTILE, locationName: `x${ESC}[1A` },
                // Left out: an id with control characters is not usable.
                { datasourceId: `D${HOSTILE}`, sourceType: 'SERVICE_NODE' },
              ],
            }),
          );
        }
        if (req.url === PATHS.recentQuery || req.url === PATHS.continuation) {
          res.writeHead(200, { 'content-type': 'text/csv', 'x-service-continuation-token': 'T' });
          return res.end(`datasourceId,time,${HOSTILE}\nDABC1234,2026-11-20T10:00:00Z,${HOSTILE}\n`);
        }
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `bad ${HOSTILE}` }));
      });
    });
    afterEach(() => server.close());
    const env = () => ({ MEASUREMENTS_API_KEY: 'k', MEASNB_NOW: new Date(NOW).toISOString() });
    const conn = () => ['--base-url', server.url, '--org', 'acme'];

    it('datasources --table: values escaped (\\x1b visible), not sent to the terminal', async () => {
      const r = await runCli(['query', '-e', 'datasources', '--table', ...conn()], { env: env() });
      assert.equal(r.code, 0, r.stderr);
      const out = r.stdout.toString();
      assertNoControls(out, 'the table');
      assert.ok(out.includes('\\x1b]0;pwned'), out);
      assert.ok(out.includes('DABC1234') && !out.includes('SERVICE_NODE'), 'the entry with a hostile id is left out');
    });

    it('recent --table: column names and values escaped; --csv keeps the service bytes', async () => {
      const cell = 'recent\ndatasourceIds: DABC1234\nformat: json-long\nstartTime: -1h';
      const csvCell = cell.replace('json-long', 'csv-wide');
      const table = await runCli(['query', '-e', csvCell, '--table', ...conn()], { env: env() });
      assert.equal(table.code, 0, table.stderr);
      assertNoControls(table.stdout.toString(), 'the table');
      assert.ok(table.stdout.toString().includes('\\x1b]0;pwned'), table.stdout.toString());
      const csv = await runCli(['query', '-e', csvCell, '--csv', ...conn()], { env: env() });
      assert.equal(csv.code, 0, csv.stderr);
      assert.ok(csv.stdout.toString().includes(HOSTILE), '--csv: the bytes as the service sent them');
    });

    it('--csv on a terminal: control characters escaped (held back, --stream, a table as CSV)', async () => {
      const csvCell = 'recent\ndatasourceIds: DABC1234\nformat: csv-wide\nstartTime: -1h';
      for (const [cell, ...extra] of [[csvCell], [csvCell, '--stream'], ['datasources']]) {
        const r = await runInTerminal(['query', '-e', cell, '--csv', ...extra, ...conn()], env());
        assert.equal(r.code, 0, r.out);
        assert.ok(r.out.includes('\\x1b]52;c;') && r.out.includes('\\x1b[2J'), r.out);
        assertNoControls(r.out.replace(/\r/g, '').replace(/\x1b\[2K/g, ''), `--csv ${extra.join(' ')} on a terminal`);
      }
    });

    it('a service error message is escaped on stderr, and the status is said once', async () => {
      const r = await runCli(['report', 'status', 'r-1', ...conn()], { env: env() });
      assert.notEqual(r.code, 0);
      assertNoControls(r.stderr, 'stderr');
      assert.ok(r.stderr.includes('bad \\x1b]0;pwned'), r.stderr);
      assert.equal(r.stderr.match(/400/g)?.length, 1, r.stderr);
    });

    it('follow in a terminal: the table is escaped', async () => {
      const cell = 'recent\ndatasourceIds: DABC1234\nformat: csv-wide\nstartTime: -1h';
      const r = await runInTerminal(['follow', '-e', cell, '--once', ...conn()], env());
      assert.equal(r.code, 0, r.out);
      assert.ok(r.out.includes('\\x1b]52;c;'), r.out);
      assertNoControls(r.out.replace(/\r/g, '').replace(/\x1b\[2K/g, ''), 'the terminal output');
    });
  });

  it('a base URL with user:password@ is refused with a usage error that never prints the password', async () => {
    const r = await runCli([
      'query',
      '-e',
      'datasources',
      '--base-url',
      'https://alice:s3cr3t-pw@example.invalid',
      '--org',
      'a',
    ]);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(!r.stderr.includes('s3cr3t-pw'), r.stderr);
    assert.ok(!r.stderr.includes('alice'), r.stderr);
    assert.match(r.stderr, /credentials .*not used/);
  });

  describe('against the emulator', () => {
    let emu: RunningEmulator;
    let clock: ManualClock;
    let conn: ReturnType<typeof connection>;
    let ds: string;
    beforeEach(async () => {
      clock = new ManualClock(NOW);
      emu = await startEmulator({ clock });
      conn = connection(emu);
      ds = emu.facts.datasources[0].datasourceId;
    });
    afterEach(() => emu.close());
    const followCell = () => `follow\ndatasourceIds: ${ds}\nformat: csv-wide\nstartTime: -30m`;

    async function plantedPart(target: string): Promise<string> {
      const victim = join(dir, 'victim.txt');
      await writeFile(victim, 'precious\n');
      await symlink(victim, `${target}.part`);
      return victim;
    }

    it('.part files never follow a planted symlink: --out csv (streamed), --out parquet, follow --state, run --out, export', async () => {
      const csvOut = join(dir, 'a.csv');
      let victim = await plantedPart(csvOut);
      const cell = `recent\ndatasourceIds: ${ds}\nformat: csv-wide\nstartTime: -30m`;
      const a = await runCli(['query', '-e', cell, '--out', csvOut, ...conn.args], { env: conn.env });
      assert.equal(a.code, 0, a.stderr);
      assert.equal(await readFile(victim, 'utf8'), 'precious\n');
      assert.match(await readFile(csvOut, 'utf8'), /^datasourceId,|,datasourceId/m);

      const pq = join(dir, 'b.parquet');
      await rm(victim);
      victim = await plantedPart(pq);
      const b = await runCli(['query', '-e', 'datasources', '--out', pq, ...conn.args], { env: conn.env });
      assert.equal(b.code, 0, b.stderr);
      assert.equal(await readFile(victim, 'utf8'), 'precious\n');
      assert.equal((await readFile(pq)).subarray(0, 4).toString(), 'PAR1');

      const state = join(dir, 'tail.json');
      await rm(victim);
      victim = await plantedPart(state);
      const c = await runCli(['follow', '-e', followCell(), '--once', '--state', state, ...conn.args], {
        env: conn.env,
      });
      assert.equal(c.code, 0, c.stderr);
      assert.equal(await readFile(victim, 'utf8'), 'precious\n');
      assert.match(await readFile(state, 'utf8'), /"version": 1/);

      const nbOut = join(dir, 'done.measnb');
      await rm(victim);
      victim = await plantedPart(nbOut);
      // The quickstart's report cell needs a clock that runs.
      const live = await startEmulator({ reportDelayMs: 300 });
      const liveConn = connection(live);
      const d = await runCli(['run', 'examples/quickstart.measnb', '--out', nbOut, ...liveConn.args], {
        env: liveConn.env,
      }).finally(() => live.close());
      assert.equal(d.code, 0, d.stderr);
      assert.equal(await readFile(victim, 'utf8'), 'precious\n');
      assert.match(await readFile(nbOut, 'utf8'), /"cells"/);

      const html = join(dir, 'done.html');
      await rm(victim);
      victim = await plantedPart(html);
      await writeFile(`${html}`, 'stale');
      const e = await runCli(['export', nbOut, '--out', html]);
      assert.equal(e.code, 0, e.stderr);
      assert.equal(await readFile(victim, 'utf8'), 'precious\n');
      assert.match(await readFile(html, 'utf8'), /<html/i);
    });

    /** follow --once --state with stdout on the given fd (a /dev/full handle, a pipe closed early). */
    function followInto(stdout: 'pipe' | number, state: string, closeEarly = false) {
      return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [CLI, 'follow', '-e', followCell(), '--once', '--state', state, ...conn.args],
          {
            cwd: ROOT,
            env: { ...process.env, ...conn.env },
            stdio: ['ignore', stdout, 'pipe'],
          },
        );
        if (closeEarly) child.stdout?.destroy();
        const err: Buffer[] = [];
        child.stderr?.on('data', (c: Buffer) => err.push(c));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString() }));
      });
    }

    for (const where of ['a full disk (/dev/full)', 'a pipe closed early'] as const) {
      it(`follow --once --state with stdout on ${where}: non-zero exit, cursor kept, the next run prints the rows`, async () => {
        const state = join(dir, 'tail.json');
        const first = await runCli(['follow', '-e', followCell(), '--once', '--state', state, ...conn.args], {
          env: conn.env,
        });
        assert.equal(first.code, 0, first.stderr);
        const saved = await readFile(state, 'utf8');
        clock.advance(10 * 60_000);
        const failing =
          where === 'a pipe closed early'
            ? await followInto('pipe', state, true)
            : await (async () => {
                const full = await open('/dev/full', 'w');
                try {
                  return await followInto(full.fd, state);
                } finally {
                  await full.close();
                }
              })();
        assert.notEqual(failing.code, 0, failing.stderr);
        assert.match(failing.stderr, /measnb: Cannot write the output: (ENOSPC|EPIPE)/);
        assert.equal(await readFile(state, 'utf8'), saved, 'the cursor did not move');
        const next = await runCli(['follow', '-e', followCell(), '--once', '--state', state, ...conn.args], {
          env: conn.env,
        });
        assert.equal(next.code, 0, next.stderr);
        assert.ok(next.stdout.toString().trim().split('\n').length >= 10, `the ten new minutes: ${next.stdout}`);
      });
    }
  });

  describe('rough edges', () => {
    let emu: RunningEmulator;
    let conn: ReturnType<typeof connection>;
    beforeEach(async () => {
      // A clock that runs: the quickstart's report cell waits for its report.
      emu = await startEmulator({ reportDelayMs: 300 });
      conn = connection(emu);
    });
    afterEach(() => emu.close());

    it('an unknown verb: one error, the verbs listed once', async () => {
      const r = await runCli(['query', '-e', 'recnt', ...conn.args], { env: conn.env });
      assert.equal(r.code, 3);
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.equal(lines[0].match(/datasources/g)?.length, 1, r.stderr);
      assert.match(lines[0], /^measnb: -e:1:1: error: Unknown verb 'recnt'; did you mean 'recent'\?/);
    });

    it('warnings carry the measnb: prefix errors have', async () => {
      const ds = emu.facts.datasources[0].datasourceId;
      const cell = `recent\nallDatasources: true\ndatasourceIds: ${ds}\nstartTime: -10m`;
      const r = await runCli(['query', '-e', cell, '--csv', ...conn.args], { env: conn.env });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /^measnb: -e:3:1: warning: datasourceIds is ignored when allDatasources is true$/m);
    });

    it('a 400: the status is said once', async () => {
      const r = await runCli(['query', '-e', 'recent\ndatasourceIds: NOPE1234\nstartTime: -1h', ...conn.args], {
        env: conn.env,
      });
      assert.equal(r.code, 8, r.stderr);
      assert.equal(r.stderr.match(/400/g)?.length, 1, r.stderr);
      assert.equal(r.stderr.match(/reject/gi)?.length, 1, r.stderr);
    });

    it("run without --out: each cell's table in a terminal (or with --table); piped, stdout stays empty", async () => {
      // Two quick cells (the quickstart's report cell would only add its waiting).
      const dir = await tempDir();
      const nb = join(dir, 'two.measnb');
      await writeFile(
        nb,
        serializeNotebook({
          metadata: {},
          cells: [
            codeCell('datasources'),
            codeCell('datasources'),
            codeCell(
              `recent\ndatasourceIds: ${emu.facts.datasources[0].datasourceId}\noutputFrequency: hour\nstartTime: -3h`,
            ),
          ],
        }),
      );
      const piped = await runCli(['run', nb, ...conn.args], { env: conn.env });
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stdout.length, 0, 'piped: nothing on stdout');
      const tty = await runInTerminal(['run', nb, ...conn.args], conn.env);
      assert.equal(tty.code, 0, tty.out);
      assert.match(tty.out, /cell 2 \(datasources\)\r?\ndatasourceId/);
      assert.match(tty.out, /\(\d+ rows?/);
      const forced = await runCli(['run', nb, '--table', ...conn.args], { env: conn.env });
      assert.equal(forced.code, 0, forced.stderr);
      assert.match(forced.stdout.toString(), /cell 3 \(recent\)\n\S+/);
      assert.ok(existsSync(nb));
      await rm(dir, { recursive: true, force: true });
    });
  });
});
