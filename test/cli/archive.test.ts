import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { systemClock } from '../../src/core/time/clock';
import { DAY_MS } from '../../src/core/time/duration';
import { OffsetClock, type RunningEmulator, startEmulator } from '../../src/emulator';
import { archiveTypes, partitionStats, readArchiveManifest } from './archive-support';
import { connection, ensureBuilt, runCli, tempDir } from './support';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('measnb archive (built CLI against the emulator)', function () {
  this.timeout(180_000);
  let emu: RunningEmulator;
  let clock: OffsetClock;
  let dir: string;
  let creates = 0;
  let ids: string[];

  before(async () => {
    await ensureBuilt();
    clock = new OffsetClock(NOW);
    emu = await startEmulator({
      clock,
      seed: 5,
      reportDelayMs: 0,
      datasources: 8,
      onRequest: (r) => {
        if (r.method === 'POST' && r.path === '/v2/report-requests') creates++;
      },
    });
    ids = emu.facts.datasources.slice(0, 3).map((d) => d.datasourceId);
    dir = await tempDir();
  });
  after(() => emu?.close());

  const archive = (dest: string, ...extra: string[]) => {
    const conn = connection(emu);
    return runCli(['archive', '--dest', dest, ...conn.args, ...extra], { env: conn.env });
  };
  const range = ['--from', '2026-07-01', '--to', '2026-10-01', '--frequency', 'hour'];

  it('writes one Hive partition per datasource and month, typed, and a re-run spends nothing', async () => {
    const dest = join(dir, 'whole');
    const before = creates;
    const r = await archive(dest, ...range, '--datasources', ids.join(','));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(creates - before, 3, 'one report per month');
    assert.match(r.stderr, /Archive complete: 3 months fetched/);
    const top = await readdir(join(dest, 'frequency=hour'));
    assert.deepEqual(top.sort(), ids.map((id) => `datasourceId=${id}`).sort());
    const months = await readdir(join(dest, 'frequency=hour', `datasourceId=${ids[0]}`, 'year=2026'));
    assert.deepEqual(months.sort(), ['month=07', 'month=08', 'month=09']);
    const stats = await partitionStats(dest);
    assert.equal(stats.length, 9);
    // July has 31 × 24 hours, September 30 × 24 (every datasource measures every hour in this seed's first three).
    const manifest = await readArchiveManifest(dest);
    for (const s of stats) {
      const [id, year, month] = s.partition.split('/');
      const entry = manifest.partitions[`hour/${id}/${year}-${month.padStart(2, '0')}`];
      assert.equal(entry.rows, s.rows, s.partition);
    }
    const types = await archiveTypes(dest);
    assert.equal(types.startOfPeriod, 'TIMESTAMP WITH TIME ZONE');
    assert.equal(types.locationLatitude, 'DOUBLE');
    assert.equal(types.sourceType, 'VARCHAR');
    assert.equal(types.datasourceId, 'VARCHAR');
    // Again: nothing to fetch, no report, the same data.
    const again = await archive(dest, ...range, '--datasources', ids.join(','));
    assert.equal(again.code, 0, again.stderr);
    assert.equal(creates - before, 3);
    assert.match(again.stderr, /0 months fetched .* 3 already there; 0 reports created/);
    assert.deepEqual(await partitionStats(dest), stats);
  });

  it('a month fetched again (a wider range) replaces its partition: no duplicate rows', async () => {
    const dest = join(dir, 'refetch');
    const first = await archive(dest, '--from', '2026-07-01', '--to', '2026-07-15', '--datasources', ids[0]);
    assert.equal(first.code, 0, first.stderr);
    const half = await partitionStats(dest);
    assert.equal(half.length, 1);
    assert.equal(half[0].rows, 14 * 24);
    const before = creates;
    const wider = await archive(dest, '--from', '2026-07-01', '--to', '2026-08-01', '--datasources', ids[0]);
    assert.equal(wider.code, 0, wider.stderr);
    assert.equal(creates - before, 1, 'July again: one report');
    const whole = (await partitionStats(join(dir, 'whole'))).filter((s) => s.partition === `${ids[0]}/2026/7`);
    assert.deepEqual(await partitionStats(dest), whole, 'the same as July fetched whole at once');
    const manifest = await readArchiveManifest(dest);
    assert.equal(manifest.partitions[`hour/${ids[0]}/2026-07`].rows, 31 * 24);
  });

  it('minute data of every datasource in one report file: one partition each, times typed', async () => {
    // A report file holds up to 10 datasources: their partitions are written one after the other in bounded memory.
    const dest = join(dir, 'minute');
    const r = await archive(dest, '--from', '2026-11-01', '--to', '2026-11-04', '--frequency', 'minute', '--all');
    assert.equal(r.code, 0, r.stderr);
    const stats = await partitionStats(dest, 'minute');
    assert.ok(stats.length >= 6, `${stats.length} partitions`);
    assert.ok(
      stats.every((s) => s.partition.endsWith('/2026/11') && s.rows > 1000 && s.rows <= 3 * 1440),
      JSON.stringify(stats),
    );
    const types = await archiveTypes(dest, 'minute');
    assert.equal(types.time, 'TIMESTAMP WITH TIME ZONE');
  });

  it('refuses bad input before any report is created', async () => {
    const dest = join(dir, 'bad');
    const before = creates;
    const cases: [string[], number, RegExp][] = [
      [['--from', '2026-10-01', '--to', '2026-09-01', '--datasources', ids[0]], 2, /is not after --from/],
      [['--from', '2026-10-01', '--to', '2026-12-01', '--datasources', ids[0]], 2, /past what the service has/],
      [
        ['--from', '2026-09-01', '--to', '2026-10-01', '--datasources', 'NOSUCHID'],
        6,
        /Unknown datasource .*NOSUCHID.* No report was created/,
      ],
      [['--from', '2026-09-01', '--to', '2026-10-01', '--datasources', '../x'], 2, /Not a datasource id/],
      [['--from', '2026-09-01', '--to', '2026-10-01', '--frequency', 'week', '--all'], 2, /--frequency week/],
      [['--from', '2026-09-01', '--to', '2026-10-01'], 2, /--datasources <ids> or --all/],
    ];
    for (const [args, code, message] of cases) {
      const r = await archive(dest, ...args);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.equal(creates - before, 0, 'the emulator saw no report creation');
  });

  it('stops at its daily cap with exit 12 and the time it can go on, and continues after UTC midnight', async () => {
    const quotaClock = new OffsetClock(NOW);
    let made = 0;
    const q = await startEmulator({
      clock: quotaClock,
      seed: 5,
      reportDelayMs: 0,
      datasources: 8,
      onRequest: (r) => {
        if (r.method === 'POST' && r.path === '/v2/report-requests') made++;
      },
    });
    try {
      const conn = () => connection(q);
      const dest = join(dir, 'capped');
      const args = () => [
        'archive',
        '--dest',
        dest,
        ...range,
        '--datasources',
        ids[0],
        '--max-reports-per-day',
        '2',
        ...conn().args,
      ];
      const first = await runCli(args(), { env: conn().env });
      assert.equal(first.code, 12, first.stderr);
      assert.equal(made, 2);
      assert.match(first.stderr, /created its 2 reports for today .* 1 month left to fetch/);
      assert.match(first.stderr, /Run the same command again after 2026-11-21T00:00:00.000Z/);
      // The same day again: the cap counts the earlier run's reports (the manifest keeps them).
      const same = await runCli(args(), { env: conn().env });
      assert.equal(same.code, 12, same.stderr);
      assert.equal(made, 2);
      quotaClock.advance(DAY_MS);
      const next = await runCli(args(), { env: conn().env });
      assert.equal(next.code, 0, next.stderr);
      assert.equal(made, 3);
      assert.equal((await partitionStats(dest)).length, 3);
      // Reports made elsewhere: the service's 429 says the day is spent before the cap.
      const client = new MeasurementsClient({ baseUrl: q.url, apiKey: q.apiKey, clock: systemClock, retry: false });
      // 1 report today already (the run above) + 28 elsewhere: the archive gets one more, then 429.
      for (let i = 0; i < 28; i++) {
        await client.createReport({
          org: q.org,
          report: 'datasource-measurements',
          datasourceIds: [ids[0]],
          outputFrequency: 'day',
          startTime: '2026-11-01',
          endTime: '2026-11-02',
        });
      }
      const dest2 = join(dir, 'elsewhere');
      const r = await runCli(['archive', '--dest', dest2, ...range, '--datasources', ids[1], ...conn().args], {
        env: conn().env,
      });
      assert.equal(r.code, 12, r.stderr);
      assert.match(r.stderr, /429/);
      assert.match(r.stderr, /2 months left to fetch/);
      assert.equal((await readArchiveManifest(dest2)).reports.spent, true);
    } finally {
      await q.close();
    }
  });

  it('--wait sleeps until the UTC midnight reset and goes on', async () => {
    const waitClock = new OffsetClock(Date.parse('2026-11-20T23:59:57Z'));
    const w = await startEmulator({ clock: waitClock, seed: 5, reportDelayMs: 0, datasources: 8 });
    try {
      const conn = connection(w);
      const dest = join(dir, 'waited');
      const r = await runCli(
        [
          'archive',
          '--dest',
          dest,
          '--from',
          '2026-09-01',
          '--to',
          '2026-11-01',
          '--datasources',
          ids[0],
          '--max-reports-per-day',
          '1',
          '--wait',
          ...conn.args,
        ],
        { env: conn.env },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /waiting until 2026-11-21T00:00:00.000Z \(--wait\)/);
      const m = await readArchiveManifest(dest);
      assert.deepEqual(m.reports, { day: '2026-11-21', created: 1, spent: false });
      assert.equal((await partitionStats(dest)).length, 2);
    } finally {
      await w.close();
    }
  });

  it('--snippet prints how each engine reads the folder, quoted', async () => {
    const d = '/data/o\'hara "arch"';
    const duck = await runCli(['archive', '--dest', d, '--snippet', 'duckdb']);
    assert.equal(duck.code, 0, duck.stderr);
    assert.match(
      duck.stdout.toString(),
      /read_parquet\('\/data\/o''hara "arch"\/frequency=hour\/\*\/\*\/\*\/\*\.parquet', hive_partitioning = true/,
    );
    const spark = await runCli(['archive', '--dest', d, '--snippet', 'spark', '--frequency', 'day']);
    assert.match(spark.stdout.toString(), /option\("basePath", "\/data\/o'hara \\"arch\\""\)/);
    const bad = await runCli(['archive', '--dest', d, '--snippet', 'excel']);
    assert.equal(bad.code, 2);
  });
});
