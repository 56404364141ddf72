import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { parseCsvWide } from '../../src/core/table/csv-read.node';
import { cellText, findColumn, type Table } from '../../src/core/table/table';
import { systemClock } from '../../src/core/time/clock';
import { OffsetClock, type RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const MIN = 60_000;

async function rowKeys(csv: string): Promise<string[]> {
  if (!csv.trim()) return [];
  const t: Table = await parseCsvWide(csv);
  const ds = findColumn(t, 'datasourceId')!;
  const time = findColumn(t, 'startOfPeriod') ?? findColumn(t, 'time')!;
  return Array.from({ length: t.rowCount }, (_, i) => `${cellText(ds, i)}|${cellText(time, i)}`);
}

describe('measnb follow (built CLI against the emulator)', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  let clock: OffsetClock;
  let conn: Connection;
  let dir: string;
  let ds: string;

  beforeEach(async () => {
    // Real time (the CLI resolves relative times with its own clock); tests move it forward.
    clock = new OffsetClock();
    ({ emu, conn, dir } = await startCliEmulator({ clock, seed: 11 }));
    ds = emu.facts.datasources[1].datasourceId;
  });
  afterEach(() => stopCliEmulator(emu, dir));

  it('--once with --state: each run prints only new rows; an expired token resumes without gap or duplicate', async () => {
    const state = join(dir, 'tail.json');
    const cell = `follow\ndatasourceIds: ${ds}\noutputFrequency: hour\nformat: csv-wide\nstartTime: -6h`;
    const once = () => runCli(['follow', '-e', cell, '--once', '--state', state, ...conn.args], { env: conn.env });

    const first = await once();
    assert.equal(first.code, 0, first.stderr);
    const k1 = await rowKeys(first.stdout.toString());
    assert.ok(k1.length >= 5, `the last hours: ${k1.length}`);
    const saved = await readFile(state, 'utf8');
    assert.ok(!saved.includes(emu.apiKey), 'the key never reaches the state file');
    assert.equal((await stat(state)).mode & 0o077, 0, 'the state file (it holds a token) is private');

    const nothing = await once();
    assert.equal(nothing.code, 0, nothing.stderr);
    assert.equal(nothing.stdout.length, 0, 'no new hour yet: nothing printed');

    clock.advance(3 * 60 * MIN);
    const second = await runCli(['follow', '-e', cell, '--once', '--state', state, '--no-header', ...conn.args], {
      env: conn.env,
    });
    assert.ok(!second.stdout.toString().startsWith('datasourceId,'), '--no-header');
    const header = first.stdout.toString().split('\n')[0];
    const k2 = await rowKeys(`${header}\n${second.stdout.toString()}`);
    assert.equal(k2.length, 3, 'three new hours');

    // Past the token's 24 hours (but within the 48-hour cache of hour output).
    clock.advance(25 * 60 * MIN);
    const third = await once();
    assert.equal(third.code, 0, third.stderr);
    assert.match(third.stderr, /continuation token was no longer valid; resumed with a fresh query from /);
    const k3 = await rowKeys(third.stdout.toString());
    assert.equal(k3.length, 25, 'the 25 hours since, no more, no less');

    const all = [...k1, ...k2, ...k3];
    assert.equal(new Set(all).size, all.length, 'no duplicate row over the runs');
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const truth = await client.recentQuery({
      org: emu.org,
      datasourceIds: [ds],
      outputFrequency: 'hour',
      format: 'csv-wide',
      startTime: new Date(clock.now() - 28 * 60 * MIN).toISOString(),
    });
    const t = findColumn(truth.table, 'startOfPeriod')!;
    for (let i = 0; i < truth.table.rowCount; i++) {
      const key = `${ds}|${cellText(t, i)}`;
      assert.ok(all.includes(key), `gap: ${key} never printed`);
    }
  });

  it('without --once: prints new rows as they arrive until Ctrl-C, then exits 0', async () => {
    // A recent cell polled every second (--every wins over the default of a minute).
    const cell = `recent\ndatasourceIds: ${ds}\nformat: csv-wide\nstartTime: -3m`;
    let chunks = 0;
    let advanced = false;
    const r = await runCli(['follow', '-e', cell, '--every', '1s', ...conn.args], {
      env: conn.env,
      onStdout: (_chunk, child) => {
        chunks++;
        if (!advanced) {
          // After the first rows, two more minutes of data appear on the service.
          advanced = true;
          clock.advance(2 * MIN);
        } else {
          child.kill('SIGINT');
        }
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(chunks >= 2);
    const text = r.stdout.toString();
    assert.equal(text.match(/^datasourceId,/gm)?.length, 1, 'the header once');
    const keys = await rowKeys(text);
    assert.equal(new Set(keys).size, keys.length, 'no duplicates');
    assert.ok(keys.length >= 4, `rows of the first step and the new minutes: ${keys.length}`);
  });

  it('refuses cells that cannot be followed, and a bad --every', async () => {
    const r = await runCli(['follow', '-e', 'datasources', ...conn.args], { env: conn.env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /needs a follow \(or recent\) cell, not datasources/);
    const every = await runCli(['follow', '-e', `recent\ndatasourceIds: ${ds}`, '--every', 'soon', ...conn.args], {
      env: conn.env,
    });
    assert.equal(every.code, 2, every.stderr);
    assert.match(every.stderr, /--every soon: expected a duration such as 30s, 5m or 1h/);
  });
});
