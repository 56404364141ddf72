// Child process of the putTable benchmark: times one load of the file's 1,000,000 × 20 rows into DuckDB,
// either DuckDB's own CREATE TABLE AS SELECT from the Parquet file (baseline) or SqlEngine.putTable of the
// same rows as our Table (subject; the Table is read by the engine first, outside the timed part).
import { dirname } from 'node:path';
import { SqlEngine } from '../../src/core/sql/engine.node';
import { quoteString } from '../../src/core/text/sql-text';

const [mode, file] = process.argv.slice(2);

async function direct(): Promise<{ ms: number; rows: number }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const t0 = performance.now();
  await c.run(`CREATE TABLE t AS SELECT * FROM read_parquet(${quoteString(file)})`);
  const ms = performance.now() - t0;
  const rows = Number((await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0]);
  return { ms, rows };
}

async function subject(): Promise<{ ms: number; rows: number }> {
  const engine = await SqlEngine.open({ readDirs: [dirname(file)] });
  const table = await engine.query(`SELECT * FROM read_parquet(${quoteString(file)})`);
  const t0 = performance.now();
  await engine.putTable('t', table);
  const ms = performance.now() - t0;
  const count = await engine.query('SELECT count(*) AS n FROM t');
  const col = count.columns[0];
  engine.close();
  return { ms, rows: col.kind === 'number' && col.values ? col.values[0] : Number.NaN };
}

async function main(): Promise<void> {
  const { ms, rows } = await (mode === 'baseline' ? direct() : subject());
  process.stderr.write(`@@ms=${ms}\n@@rows=${rows}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
