import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { codeCell, markdownCell, serializeNotebook } from '../../src/core/notebook';
import { readParquet } from '../../src/core/table/parquet';
import { cellText } from '../../src/core/table/table';
import type { RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const csv = async (path: string): Promise<Record<string, string>[]> =>
  parse(await readFile(path, 'utf8'), { columns: true }) as Record<string, string>[];

describe('measnb run with sql cells and --results (built CLI against the emulator)', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ reportDelayMs: 500, clock: '2026-11-20T12:00:30Z' }));
  });
  after(() => stopCliEmulator(emu, dir));

  it('examples/sql.measnb: every named result lands as <name>.csv; the pair is a reference site and a sensor', async () => {
    const out = join(dir, 'example');
    const r = await runCli(['run', 'examples/sql.measnb', ...conn.args, '--results', out], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((await readdir(out)).sort(), [
      'agreement.csv',
      'diurnal.csv',
      'ds.csv',
      'exceedances.csv',
      'hourly.csv',
      'pair.csv',
      'pm.csv',
    ]);
    const ds = await csv(join(out, 'ds.csv'));
    const [pair] = await csv(join(out, 'pair.csv'));
    assert.equal(ds.find((d) => d.datasourceId === pair.refId)?.sourceType, 'REFERENCE_SITE');
    assert.equal(ds.find((d) => d.datasourceId === pair.sensorId)?.sourceType, 'SERVICE_NODE');
    const [agreement] = await csv(join(out, 'agreement.csv'));
    assert.ok(Number(agreement.hours) > 24, agreement.hours);
    assert.ok(Number(agreement.r2) > 0 && Number(agreement.r2) <= 1, agreement.r2);
    const diurnal = await csv(join(out, 'diurnal.csv'));
    assert.deepEqual(new Set(diurnal.map((d) => d.hourOfDay)).size, 24);
  });

  it('unnamed cells are cell-<n> (n among code cells); --results-format parquet writes Parquet; relative paths read from the notebook folder', async () => {
    const nbDir = join(dir, 'nb');
    const out = join(dir, 'pq');
    await rm(nbDir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(nbDir, { recursive: true }));
    await writeFile(join(nbDir, 'local.csv'), 'k,v\na,1\nb,2\n');
    const nb = {
      metadata: {},
      cells: [
        markdownCell('# not a code cell'),
        codeCell('datasources as ds'),
        codeCell('sql\nSELECT sourceType, count(*) AS n FROM ds GROUP BY ALL ORDER BY sourceType'),
        codeCell("sql as local\nSELECT sum(v) AS total FROM read_csv('local.csv')"),
      ],
    };
    await writeFile(join(nbDir, 'n.measnb'), serializeNotebook(nb as Parameters<typeof serializeNotebook>[0]));
    const r = await runCli(
      ['run', join(nbDir, 'n.measnb'), ...conn.args, '--results', out, '--results-format', 'parquet'],
      { env: conn.env },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((await readdir(out)).sort(), ['cell-2.parquet', 'ds.parquet', 'local.parquet']);
    // The progress line counts every cell (the markdown one too); it names the file --results wrote.
    const line = (title: string) => r.stderr.split('\n').find((l) => l.startsWith(`${title}: `)) ?? r.stderr;
    assert.ok(line('cell 2 (datasources as ds)').endsWith(` → ${join(out, 'ds.parquet')}`), r.stderr);
    assert.ok(line('cell 3 (sql)').endsWith(` → ${join(out, 'cell-2.parquet')}`), r.stderr);
    const counts = await readParquet(await readFile(join(out, 'cell-2.parquet')));
    assert.deepEqual(
      Array.from({ length: counts.rowCount }, (_, i) => cellText(counts.columns[0], i)),
      ['REFERENCE_SITE', 'SERVICE_NODE'],
    );
    const local = await readParquet(await readFile(join(out, 'local.parquet')));
    assert.equal(cellText(local.columns[0], 0), '3');
    assert.ok(!existsSync(join(out, 'cell-2.csv')));
  });

  it('a sql error names the cell, line and column with DuckDB message, exit 3', async () => {
    const file = join(dir, 'bad.measnb');
    await writeFile(
      file,
      serializeNotebook({
        metadata: {},
        cells: [codeCell('datasources as ds'), codeCell('sql\nSELECT nope\nFROM ds')],
      } as Parameters<typeof serializeNotebook>[0]),
    );
    const r = await runCli(['run', file, ...conn.args], { env: conn.env });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /bad\.measnb#2:2:8: error: Binder Error: Referenced column "nope" not found/);
  });

  it('a result name given by two cells: exit 3 naming the second, and nothing runs', async () => {
    const file = join(dir, 'dup.measnb');
    const out = join(dir, 'dup-results');
    await writeFile(
      file,
      serializeNotebook({
        metadata: {},
        cells: [codeCell('datasources as ds'), codeCell('datasources as DS')],
      } as Parameters<typeof serializeNotebook>[0]),
    );
    const r = await runCli(['run', file, ...conn.args, '--results', out], { env: conn.env });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /dup\.measnb#2:1:16: error: The result name 'DS' is already given by cell 1/);
    assert.ok(!existsSync(out), 'no cell ran');
  });
  it('a sql cell reads only beside its notebook: outside is refused (exit 3, what to do), COPY never runs; --sql-allow-dir widens', async () => {
    const root = join(dir, 'confined');
    const nbDir = join(root, 'nb');
    await rm(root, { recursive: true, force: true });
    await mkdir(join(root, 'shared'), { recursive: true });
    await mkdir(nbDir);
    await writeFile(join(root, 'shared', 'secret.csv'), 'k\nprivate\n');
    const notebook = (sql: string) =>
      serializeNotebook({ metadata: {}, cells: [codeCell(`sql\n${sql}`)] } as Parameters<typeof serializeNotebook>[0]);
    const file = join(nbDir, 'steal.measnb');
    await writeFile(file, notebook("SELECT * FROM read_csv('../shared/secret.csv')"));
    const refused = await runCli(['run', file, ...conn.args, '--out', join(nbDir, 'out.measnb')], { env: conn.env });
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /Cannot access file .*secret\.csv.*notebook's folder.*--sql-allow-dir/);
    assert.doesNotMatch(await readFile(join(nbDir, 'out.measnb'), 'utf8'), /private/);
    const widened = await runCli(['run', file, ...conn.args, '--sql-allow-dir', join(root, 'shared'), '--table'], {
      env: conn.env,
    });
    assert.equal(widened.code, 0, widened.stderr);
    assert.match(String(widened.stdout), /private/);
    const write = join(nbDir, 'write.measnb');
    await writeFile(write, notebook("COPY (SELECT 'x' AS k) TO 'planted.csv'"));
    const copy = await runCli(['run', write, ...conn.args, '--sql-allow-dir', root], { env: conn.env });
    assert.equal(copy.code, 3, copy.stderr);
    assert.match(copy.stderr, /COPY is not run in a sql cell.*--results/);
    assert.ok(!existsSync(join(nbDir, 'planted.csv')));
    const bad = await runCli(['run', file, ...conn.args, '--sql-memory-limit', 'lots'], { env: conn.env });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--sql-memory-limit: .*not a size like 2GB/);
  });
});
