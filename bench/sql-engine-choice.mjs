// node bench/sql-engine-choice.mjs [--runs N]: the measurements behind the choice of the SQL engine.
// Installs both candidates with npm into .artifacts/engine-choice (once), then, in a fresh process per
// run: start-up (require → first `SELECT 1` answered), a 1,000,000-row aggregate (generate the rows in
// SQL, then GROUP BY 100 datasources × 10 days), and the installed size of each package set.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const NODE_API = '@duckdb/node-api@1.5.6-r.1';
const WASM = '@duckdb/duckdb-wasm@1.32.0';
const dir = path.resolve('.artifacts/engine-choice');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;

const GENERATE =
  'CREATE TABLE t AS SELECT (i % 100)::VARCHAR AS ds, (i // 100000) AS day, random() * 50 AS v FROM range(1000000) r(i)';
const AGGREGATE = 'SELECT ds, day, avg(v) AS mean, max(v) AS peak, count(*) AS n FROM t GROUP BY ds, day';

const child = {
  'node-api': `
    const t0 = performance.now();
    const { DuckDBInstance } = require('@duckdb/node-api');
    (async () => {
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      await c.runAndReadAll('SELECT 1');
      const startup = performance.now() - t0;
      await c.run(${JSON.stringify(GENERATE)});
      const t1 = performance.now();
      const r = await c.runAndReadAll(${JSON.stringify(AGGREGATE)});
      const rows = r.getRowObjects().length;
      const aggregate = performance.now() - t1;
      console.log(JSON.stringify({ startup, aggregate, rows, rss: process.memoryUsage().rss }));
    })();`,
  wasm: `
    const t0 = performance.now();
    const path = require('node:path');
    const duckdb = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');
    const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));
    (async () => {
      const bundles = {
        mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs') },
        eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
      };
      const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
      await db.instantiate(() => {});
      const c = db.connect();
      c.query('SELECT 1');
      const startup = performance.now() - t0;
      c.query(${JSON.stringify(GENERATE)});
      const t1 = performance.now();
      const r = c.query(${JSON.stringify(AGGREGATE)});
      const rows = r.toArray().length;
      const aggregate = performance.now() - t1;
      console.log(JSON.stringify({ startup, aggregate, rows, rss: process.memoryUsage().rss }));
    })();`,
};

function du(p) {
  let total = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    const f = path.join(p, e.name);
    total += e.isDirectory() ? du(f) : fs.statSync(f).size;
  }
  return total;
}

if (!fs.existsSync(path.join(dir, 'node_modules/@duckdb/duckdb-wasm'))) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, NODE_API, WASM], { stdio: 'inherit' });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const nm = path.join(dir, 'node_modules');
const sizes = {
  'node-api': [
    '@duckdb/node-api',
    '@duckdb/node-bindings',
    `@duckdb/node-bindings-${process.platform}-${process.arch}`,
  ],
  wasm: ['@duckdb/duckdb-wasm', 'apache-arrow'],
};
const out = {};
for (const engine of Object.keys(child)) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const line = execFileSync(process.execPath, ['-e', child[engine]], { cwd: dir, encoding: 'utf8' });
    samples.push(JSON.parse(line.trim().split('\n').pop()));
  }
  const bytes = sizes[engine].reduce((s, p) => s + du(path.join(nm, p)), 0);
  out[engine] = {
    startupMs: Math.round(median(samples.map((s) => s.startup))),
    aggregateMs: Math.round(median(samples.map((s) => s.aggregate))),
    groups: samples[0].rows,
    rssMB: Math.round(median(samples.map((s) => s.rss)) / 1e6),
    installedMB: Math.round(bytes / 1e5) / 10,
  };
}
console.table(out);
fs.writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(out, null, 2)}\n`);
