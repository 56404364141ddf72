// 8c. A result put into the SQL engine (every sql cell over an earlier result, the Summary over a held
//     result): SqlEngine.putTable of a 1,000,000 × 20 Table vs DuckDB's own CREATE TABLE AS SELECT from a
//     Parquet file of the same rows (target: putTable < 1.5 s). The file is written once by DuckDB; the
//     subject's Table is read from it by the engine, outside the timed part.
import fs from 'node:fs';
import path from 'node:path';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, sideBySide } from './lib';

const ROWS = 1_000_000;

/** 1,000,000 rows × 20 shaped like a report: an id of 500, the minute, a status, 17 metric values. */
async function makeFile(dir: string): Promise<string> {
  const file = path.join(dir, 'put-table-1m-x20.parquet');
  if (fs.existsSync(file)) return file;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const metrics = Array.from({ length: 17 }, (_, i) => `round(random() * 60, 2) AS "m${i}.value"`);
  await c.run(
    `COPY (SELECT 'D' || lpad((n % 500)::VARCHAR, 7, '0') AS datasourceId,
                  TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_minutes((n // 500)::BIGINT) AS "time",
                  CASE WHEN n % 97 = 0 THEN NULL ELSE 'sensor-ready' END AS "pm2_5ConcMass1HourMean.status",
                  ${metrics.join(', ')}
           FROM range(0, ${ROWS}) r(n)) TO '${file}' (FORMAT parquet)`,
  );
  c.closeSync();
  db.closeSync();
  return file;
}

export async function putTableBench(runs: number): Promise<BenchResult> {
  const dir = path.resolve('.artifacts/bench/data');
  fs.mkdirSync(dir, { recursive: true });
  const file = await makeFile(dir);
  const childJs = await bundledChild('bench/support/put-table-child.ts');
  const child = (mode: string) => async () => {
    const r = await runCommand(process.execPath, [...NODE_RSS, childJs, mode, file]);
    const rows = Number(/@@rows=(\d+)/.exec(r.stderr)?.[1]);
    if (rows !== ROWS) throw new Error(`${mode}: ${rows} rows (${r.stderr.slice(-500)})`);
    return { ms: Number(/@@ms=([\d.]+)/.exec(r.stderr)?.[1]), maxRssMb: r.maxRssMb, bytes: rows };
  };
  const s = await sideBySide(runs, child('baseline'), child('subject'));
  const b = median(s.baseline.map((x) => x.ms));
  const p = median(s.subject.map((x) => x.ms));
  return {
    name: 'putTable: a 1,000,000 × 20 result into the SQL engine',
    target: '< 1.5 s',
    baseline: "DuckDB's CREATE TABLE AS SELECT * FROM read_parquet(the same rows)",
    subject: 'SqlEngine.putTable(Table) (data chunks of 2,048 rows, text as ENUM codes)',
    baselineMedianMs: b,
    subjectMedianMs: p,
    ratio: p / b,
    figures: {
      subjectPeakRssMb: median(s.subject.map((x) => x.maxRssMb ?? Number.NaN)),
      baselinePeakRssMb: median(s.baseline.map((x) => x.maxRssMb ?? Number.NaN)),
    },
    pass: p < 1500,
  };
}
