// The Python lane: the archive `measnb archive` writes from the emulator, read by the engines people
// use (test/python/read_archive.py: pyarrow.dataset, Dask, Ray Data on a local cluster), compared with
// DuckDB's reading. Python packages come from the local package mirror pip is configured with
// (`pip config list`), and from it alone (`--isolated --index-url`): a missing package fails at once.
// The virtual environment lives in .cache/python-lane/venv (gitignored; MEASNB_PY_VENV elsewhere) and
// is reused while its package list and mirror are the same. Counts go to .artifacts/results/python.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = process.env.MEASNB_RESULTS_DIR || path.join(ROOT, '.artifacts', 'results');
const VENV = process.env.MEASNB_PY_VENV || path.join(ROOT, '.cache', 'python-lane', 'venv');
export const PY_PACKAGES = ['pyarrow', 'pandas', 'dask[dataframe]', 'ray[data]'];
/** The archive the lane reads: the emulator's org, hourly, three months, on a fixed clock. */
const ARCHIVE_ARGS = ['--from', '2026-08-01', '--to', '2026-11-01', '--frequency', 'hour', '--all'];
const NOW = '2026-11-20T12:00:00Z';

const log = (m) => console.log(`[python] ${m}`);

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  return r;
}

/** The mirror's index URL: MEASNB_PIP_INDEX, else pip's configured index-url or first extra-index-url. */
export function mirrorIndex(configText, env = process.env) {
  if (env.MEASNB_PIP_INDEX) return env.MEASNB_PIP_INDEX;
  const values = {};
  for (const line of configText.split('\n')) {
    const m = /^[\w:.-]*?\.?(index-url|extra-index-url)='([^']*)'/.exec(line.trim());
    if (m) values[m[1]] ??= m[2].trim().split(/\s+/)[0];
  }
  return values['index-url'] ?? values['extra-index-url'];
}

function ensureVenv() {
  const config = spawnSync('pip', ['config', 'list'], { encoding: 'utf8' }).stdout ?? '';
  const index = mirrorIndex(config);
  if (!index) throw new Error('No local package mirror: `pip config list` names no index-url (set MEASNB_PIP_INDEX).');
  const marker = path.join(VENV, '.measnb-packages.json');
  const want = JSON.stringify({ index, packages: PY_PACKAGES });
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === want) return log(`venv ${VENV} is up to date`);
  fs.rmSync(VENV, { recursive: true, force: true });
  run('python3', ['-m', 'venv', VENV]);
  log(`installing ${PY_PACKAGES.join(' ')} from ${index} only`);
  run(path.join(VENV, 'bin', 'pip'), [
    'install',
    '--isolated',
    '--no-input',
    '--no-cache-dir',
    '--index-url',
    index,
    ...PY_PACKAGES,
  ]);
  fs.writeFileSync(marker, want);
}

/** DuckDB's reading of the archive: rows and sums per partition, and the column types. */
async function duckdbReading(dest) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const glob = `${path.join(dest, 'frequency=hour', '*', '*', '*', '*.parquet').replace(/'/g, "''")}`;
  const from = `read_parquet('${glob}', hive_partitioning = true, hive_types = {'datasourceId': VARCHAR, 'year': INTEGER, 'month': INTEGER})`;
  const stats = await conn.runAndReadAll(
    `SELECT datasourceId || '/' || year || '/' || month AS p, count(*)::DOUBLE AS n, sum(locationLatitude)::DOUBLE AS lat,
            sum(epoch(startOfPeriod))::DOUBLE AS t FROM ${from} GROUP BY ALL`,
  );
  const types = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`);
  const out = {
    partitions: Object.fromEntries(stats.getRowObjectsJS().map((o) => [o.p, { rows: o.n, lat: o.lat, t: o.t }])),
    types: Object.fromEntries(types.getRowObjectsJS().map((o) => [o.column_name, o.column_type])),
  };
  conn.closeSync();
  db.closeSync();
  return out;
}

async function main() {
  const t0 = Date.now();
  fs.mkdirSync(RESULTS, { recursive: true });
  const results = path.join(RESULTS, 'python.json');
  fs.rmSync(results, { force: true });
  ensureVenv();
  const installed = Date.now();
  log(`venv ready in ${((installed - t0) / 1000).toFixed(1)} s`);
  run('npm', ['run', '-s', 'build']);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-python-lane-'));
  try {
    const dest = path.join(tmp, 'archive');
    const emulator = ['--emulator', '--emulator-report-delay', '0s'];
    run(process.execPath, ['dist/cli.js', 'archive', '--dest', dest, ...ARCHIVE_ARGS, ...emulator], {
      env: { ...process.env, MEASNB_NOW: NOW },
    });
    const archived = Date.now();
    log(`archive written in ${((archived - installed) / 1000).toFixed(1)} s`);
    const expected = path.join(tmp, 'expected.json');
    fs.writeFileSync(expected, JSON.stringify(await duckdbReading(dest)));
    // The snippets users copy, for this folder; the pandas one asks for a month in the archive (2026-09).
    const snippets = path.join(tmp, 'snippets.json');
    const snippet = (engine) =>
      spawnSync(process.execPath, ['dist/cli.js', 'archive', '--dest', dest, '--snippet', engine], {
        cwd: ROOT,
        encoding: 'utf8',
      }).stdout.replace('ds.field("month") == 3', 'ds.field("month") == 9');
    fs.writeFileSync(
      snippets,
      JSON.stringify(Object.fromEntries(['pandas', 'dask', 'ray'].map((e) => [e, snippet(e)]))),
    );
    const args = ['test/python/read_archive.py', dest, expected, results, snippets];
    const py = spawnSync(path.join(VENV, 'bin', 'python'), args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, RAY_USAGE_STATS_ENABLED: '0', RAY_DEDUP_LOGS: '0' },
    });
    log(
      `install ${((installed - t0) / 1000).toFixed(1)} s, archive and read ${((Date.now() - installed) / 1000).toFixed(1)} s`,
    );
    process.exitCode = py.status === 0 ? 0 : 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`[python] ${e.message}`);
    fs.writeFileSync(
      path.join(RESULTS, 'python.json'),
      JSON.stringify({
        lane: 'python',
        passes: 0,
        failures: 1,
        failed: [{ title: 'python lane setup', error: e.message }],
      }),
    );
    process.exitCode = 1;
  });
}
