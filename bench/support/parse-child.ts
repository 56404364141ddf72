// Child process of the csv->Table benchmark: reads one csv-wide file either with DuckDB's read_csv on
// one thread into an in-memory table (baseline) or with the project's parseCsvWide (subject), and
// prints the time of the read alone (DuckDB's instance is created before the clock starts).
import fs from 'node:fs';
import { parseCsvWide } from '../../src/core/table/csv-read.node';

const [mode, file] = process.argv.slice(2);

async function duckdb(): Promise<{ ms: number; rows: number }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run('SET threads = 1');
  const t0 = performance.now();
  await c.run(`CREATE TABLE t AS SELECT * FROM read_csv('${file.replace(/'/g, "''")}')`);
  const ms = performance.now() - t0;
  const rows = Number((await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0]);
  return { ms, rows };
}

async function subject(): Promise<{ ms: number; rows: number }> {
  const t0 = performance.now();
  const table = await parseCsvWide(fs.createReadStream(file));
  return { ms: performance.now() - t0, rows: table.rowCount };
}

async function main(): Promise<void> {
  const { ms, rows } = await (mode === 'baseline' ? duckdb() : subject());
  process.stderr.write(`@@parse_ms=${ms}\n@@rows=${rows}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
