import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { systemClock } from '../../src/core/time/clock';
import { OffsetClock, type RunningEmulator, startEmulator } from '../../src/emulator';
import { type Connection, connection, runCli, startCliEmulator, stopCliEmulator } from './support';

describe('measnb report cells and report commands (built CLI against the emulator)', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  let ds: string;

  before(async () => {
    // A flowing clock: reports finish after the delay in real time.
    ({ emu, conn, dir } = await startCliEmulator({ clock: '2026-11-20T12:00:00Z', seed: 9, reportDelayMs: 1500 }));
    ds = emu.facts.datasources[0].datasourceId;
  });
  after(() => stopCliEmulator(emu, dir));

  const reportCell = (format = 'csv-wide') =>
    `report datasource-measurements\ndatasourceIds: ${ds}\noutputFrequency: hour\nstartTime: 2026-11-19\nendTime: 2026-11-20\nfileFormat: ${format}`;

  for (const format of ['csv-wide', 'parquet-wide']) {
    it(`creates, polls with a progress line, downloads every file into --dir, prints the table (${format})`, async () => {
      const out = join(dir, format);
      const r = await runCli(['query', '-e', reportCell(format), '--dir', out, ...conn.args], { env: conn.env });
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stderr.trimEnd().split('\n');
      assert.match(lines[0], /^Report \S+ created$/);
      assert.match(r.stderr, /: in-progress, \d+s elapsed, next check in \d+s\n/);
      assert.match(r.stderr, /: succeeded, \d+s elapsed\n/);
      // One directory per report under --dir; every file is listed on stderr.
      const [reportDir] = await readdir(out);
      assert.match(lines[0], new RegExp(`^Report ${reportDir} created$`));
      const files = await readdir(join(out, reportDir));
      assert.ok(files.length >= 1);
      for (const f of files) assert.ok(r.stderr.includes(`  ${join(out, reportDir, f)}\n`), `${f} is listed`);
      assert.ok(
        files.every((f) => f.endsWith(format === 'csv-wide' ? '.csv' : '.parquet')),
        files.join(),
      );
      // 24 hours of one datasource: 24 rows on stdout, as CSV (piped).
      const csv = r.stdout.toString().trimEnd().split('\n');
      assert.equal(csv.length, 1 + 24);
      assert.match(csv[0], /^datasourceId,/);
    });
  }

  it('--no-wait prints the report id; report status and report download take it from there', async () => {
    // A slow report on a clock the test moves: in progress until the test says otherwise.
    const clock = new OffsetClock(Date.parse('2026-11-20T12:00:00Z'));
    const slow = await startEmulator({ clock, seed: 9, reportDelayMs: 600_000 });
    try {
      await noWaitThenStatusThenDownload(slow, clock);
    } finally {
      await slow.close();
    }
  });

  async function noWaitThenStatusThenDownload(emu: RunningEmulator, clock: OffsetClock): Promise<void> {
    const conn = connection(emu);
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const created = await runCli(['query', '-e', reportCell(), '--no-wait', ...conn.args], { env: conn.env });
    assert.equal(created.code, 0, created.stderr);
    const id = created.stdout.toString().trim();
    assert.match(id, /^[\w-]+$/);
    assert.match(created.stderr, new RegExp(`measnb report status ${id}`));

    const early = await runCli(['report', 'download', id, '--dir', dir, ...conn.args], { env: conn.env });
    assert.equal(early.code, 10, 'still in progress without --wait');
    assert.match(early.stderr, /still in progress; add --wait/);

    const status = await runCli(['report', 'status', id, '--json', ...conn.args], { env: conn.env });
    assert.equal(status.code, 0, status.stderr);
    const record = JSON.parse(status.stdout.toString());
    assert.equal(record.reportId, id);
    assert.equal(record.reportStatus, 'in-progress');
    clock.advance(601_000);

    const target = join(dir, 'downloaded');
    const dl = await runCli(['report', 'download', id, '--wait', '--dir', target, ...conn.args], { env: conn.env });
    assert.equal(dl.code, 0, dl.stderr);
    const paths = dl.stdout.toString().trimEnd().split('\n');
    const finished = await client.getReport(id);
    assert.equal(paths.length, finished.urls.length);
    for (const p of paths) {
      assert.ok(p.startsWith(target));
      const text = await readFile(p, 'utf8');
      assert.match(text, /^datasourceId,/, 'gzip decoded');
    }
  }

  it('Ctrl-C while waiting for a report: exit 130, "Interrupted."', async () => {
    const slow = await startEmulator({ seed: 9, reportDelayMs: 600_000 });
    try {
      const c = connection(slow);
      let sent = false;
      const r = await runCli(['query', '-e', reportCell(), '--dir', dir, ...c.args], {
        env: c.env,
        onStderr: (chunk, child) => {
          if (!sent && /in-progress/.test(chunk.toString())) {
            sent = true;
            child.kill('SIGINT');
          }
        },
      });
      assert.equal(r.code, 130);
      assert.match(r.stderr, /measnb: Interrupted\.\n$/);
    } finally {
      await slow.close();
    }
  });

  it('report download from a service answering with a hostile report id or into a planted link: nothing written outside', async () => {
    const target = join(dir, 'hostile');
    const outside = join(dir, 'outside');
    await mkdir(outside, { recursive: true });
    await mkdir(target, { recursive: true });
    let reportId = '../../.vscode';
    const service = createServer((req, res) => {
      if (req.url?.startsWith('/files/')) return res.end('datasourceId,time\nD1,2026-11-01T00:00:00Z\n');
      const { port } = service.address() as AddressInfo;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          reportId,
          reportStatus: 'succeeded',
          message: 'Complete',
          report: 'datasource-measurements',
          urls: [`http://127.0.0.1:${port}/files/..%2F..%2F.vscode%2Ftasks.json?sig=1`],
          query: {},
        }),
      );
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    try {
      const { port } = service.address() as AddressInfo;
      const args = ['--base-url', `http://127.0.0.1:${port}`, '--org', 'o'];
      const env = { MEASUREMENTS_API_KEY: 'k' };
      const hostile = await runCli(['report', 'download', 'R1', '--dir', target, ...args], { env });
      assert.equal(hostile.code, 7, hostile.stderr);
      assert.equal(
        hostile.stderr,
        'measnb: The service answered with a report id that is not letters, digits, - and _ ("../../.vscode"); refusing it.\n',
      );
      assert.deepEqual(await readdir(target), []);

      // A plain id, but the report's folder is a symbolic link planted to point outside --dir.
      reportId = 'R1';
      await symlink(outside, join(target, 'R1'));
      const planted = await runCli(['report', 'download', 'R1', '--dir', target, ...args], { env });
      assert.equal(planted.code, 2, planted.stderr);
      assert.match(
        planted.stderr,
        /^measnb: Refusing to write into .*R1: it leads to .*outside, outside the chosen folder/,
      );
      assert.equal(planted.stderr.trimEnd().split('\n').length, 1);
      assert.deepEqual(await readdir(outside), []);
    } finally {
      service.close();
    }
  });

  it('--emulator-report-delay 0 (a bare 0): reports are done at once; another bare number is refused, naming the flag', async () => {
    // DFV2F2UA: a datasource of the in-process emulator's default seed (examples/report.measnb uses it).
    const cell = reportCell().replace(ds, 'DFV2F2UA');
    const out = join(dir, 'no-delay');
    const r = await runCli(['query', '-e', cell, '--dir', out, '--emulator', '--emulator-report-delay', '0']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /: succeeded, 0s elapsed\n/);
    assert.doesNotMatch(r.stderr, /in-progress/, 'no wait: the delay is 0, not the default 3s');
    const bare = await runCli(['query', '-e', cell, '--dir', out, '--emulator', '--emulator-report-delay', '5']);
    assert.equal(bare.code, 2, 'a usage error');
    assert.match(bare.stderr, /^measnb: --emulator-report-delay: expected a duration such as 30s.*, not '5'\n$/);
  });

  it('report status of an unknown id: exit 6 with one line', async () => {
    const r = await runCli(['report', 'status', 'no-such-report', ...conn.args], { env: conn.env });
    assert.equal(r.code, 6);
    assert.match(r.stderr, /^measnb: Report no-such-report was not found \(404\)/);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  });

  it('the daily limit: exit 5 and one clear line with the reset time', async () => {
    const other = await startEmulator({ clock: '2026-11-20T20:47:00Z', seed: 9, reportDelayMs: 60_000 });
    try {
      const c = new MeasurementsClient({ clock: systemClock, baseUrl: other.url, apiKey: other.apiKey, retry: false });
      const req = {
        org: other.org,
        report: 'datasource-measurements' as const,
        allDatasources: true,
        outputFrequency: 'day' as const,
        startTime: '2026-11-18',
        endTime: '2026-11-19',
      };
      for (let i = 0; i < 30; i++) await c.createReport(req);
      const r = await runCli(['query', '-e', reportCell(), ...connection(other).args], { env: connection(other).env });
      assert.equal(r.code, 5);
      assert.match(
        r.stderr,
        /^measnb: Daily report limit reached for org demo-org \(30 per UTC day\); resets at 00:00 UTC, in 3h1[23]m\.\n$/,
      );
    } finally {
      await other.close();
    }
  });
});
