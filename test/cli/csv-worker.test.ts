import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tableToCsv } from '../../src/core/table/csv-export';
import { readParquet } from '../../src/core/table/parquet';
import { ManualClock, type RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const NOW = Date.parse('2026-11-20T12:00:30Z');

describe('measnb: a large csv-wide reply read on two threads (the bundled dist/csv-worker.js)', function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let dir: string;
  let conn: Connection;

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ clock: new ManualClock(NOW), seed: 9 }));
  });
  after(() => stopCliEmulator(emu, dir));

  const cell =
    'recent\nallDatasources: true\noutputFrequency: minute\nstartTime: 2026-11-20T09:00:00Z\nformat: csv-wide\nmetricSelect: all';

  it('makes the same table as one thread does, with the worker beside the bundle', async () => {
    // Parquet: the reply becomes a Table (a csv-wide reply to a .csv file is streamed through as it is).
    const one = join(dir, 'one.parquet');
    const two = join(dir, 'two.parquet');
    const a = await runCli(['query', '-e', cell, ...conn.args, '--out', one], {
      env: { ...conn.env, MEASNB_CSV_WORKERS: '0', MEASNB_CSV_TRACE: '1' },
    });
    assert.equal(a.code, 0, a.stderr);
    assert.doesNotMatch(a.stderr, /csv-wide:/, 'one thread');
    // Small blocks from the first byte, so that this small reply is split as a large one is.
    const parallel = {
      MEASNB_CSV_PARALLEL_FROM: '0',
      MEASNB_CSV_BLOCK: '4096',
      MEASNB_CSV_WAIT: '1',
      MEASNB_CSV_TRACE: '1',
    };
    const b = await runCli(['query', '-e', cell, ...conn.args, '--out', two], { env: { ...conn.env, ...parallel } });
    assert.equal(b.code, 0, b.stderr);
    const blocks = Number(/csv-wide: (\d+) blocks, \d+ of \d+ columns here/.exec(b.stderr)?.[1]);
    assert.ok(blocks > 10, `read in blocks by the worker: ${b.stderr}`);
    const table = await readParquet(await readFile(one));
    assert.ok(table.rowCount > 1000, `a large enough reply (${table.rowCount} rows)`);
    assert.equal(tableToCsv(await readParquet(await readFile(two))), tableToCsv(table));
  });
});
