// Child process of the SQL benchmark: aggregates report Parquet files by datasource and day, either
// with DuckDB called directly (baseline) or through a sql cell (subject: the files held as a named
// report result, `sql` run by runCell, the result converted to our Table). Prints its own time.
import type { RunClient } from '../../src/core/run/index.node';
import { runCell } from '../../src/core/run/run-cell.node';
import { SqlSession } from '../../src/core/sql/session.node';
import { nowDate, systemClock } from '../../src/core/time/clock';

const [mode, ...files] = process.argv.slice(2);
const AGGREGATE = (from: string) =>
  `SELECT datasourceId, date_trunc('day', "time") AS day, count(*) AS n, avg("pm2_5ConcMass1HourMean.value") AS pm25, max("pm10ConcMass1HourMean.value") AS pm10Max FROM ${from} GROUP BY ALL`;

async function direct(): Promise<number> {
  // Loaded inside the timed part, as the sql cell loads it on first use.
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const list = `[${files.map((f) => `'${f.replace(/'/g, "''")}'`).join(', ')}]`;
  const reader = await c.runAndReadAll(AGGREGATE(`read_parquet(${list}, union_by_name = true)`));
  return reader.getRows().length;
}

async function cell(): Promise<number> {
  const sql = new SqlSession();
  sql.hold('rep', { kind: 'files', files, format: 'parquet' });
  // The sql path never calls the service.
  const client = {} as RunClient;
  const r = await runCell(`sql as daily\n${AGGREGATE('rep')}`, { client, sql, now: nowDate(systemClock) });
  sql.dispose();
  return r.table.rowCount;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const rows = await (mode === 'baseline' ? direct() : cell());
  process.stderr.write(`@@ms=${performance.now() - t0}\n@@rows=${rows}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
