// Child process of the statistics benchmark: the daily values of one datasource's PM2.5 over a year of a
// Parquet file, either by DuckDB called directly on the same SQL (baseline) or by `fileStatistics` (subject:
// the regular-file check, a confined engine, the column probe, the daily SQL, the rank rule). Prints its time.
import { dailyValuesSql } from '../../src/core/aq/regulatory';
import { fileReaderSql, fileStatistics } from '../../src/core/sql/statistics.node';
import { fileSummary, summarySql } from '../../src/core/sql/summary.node';

const [mode, file] = process.argv.slice(2);
const period = { year: 2026, offsetMinutes: -420 };
const request = { metric: 'pm2_5ConcMass1HourMean', datasource: 'D0000007', period };

async function direct(): Promise<number> {
  // Loaded inside the timed part, as the engine loads it on first use.
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const sql = dailyValuesSql({
    from: fileReaderSql(file),
    timeColumn: 'time',
    valueColumn: 'pm2_5ConcMass1HourMean.value',
    datasource: request.datasource,
    period,
  });
  const reader = await c.runAndReadAll(sql);
  return reader.getRows().length;
}

async function subject(): Promise<number> {
  const out = await fileStatistics(file, request);
  return out.rows[4].validDays;
}

/** The Summary's plan of the generated file: what the renderer asks of it (renderer/model/aq-views summaryPlan). */
const plan = {
  groupColumn: 'datasourceId',
  timeColumn: 'time',
  frequency: 'minute' as const,
  metrics: ['pm2_5ConcMass1HourMean', 'pm10ConcMass1HourMean', 'no2Conc1HourMean', 'relHumidAmbient1HourMean'].map(
    (m) => ({ column: `${m}.value` }),
  ),
};

async function summaryDirect(): Promise<number> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const reader = await c.runAndReadAll(summarySql(fileReaderSql(file), plan));
  return reader.getRows().length;
}

async function summarySubject(): Promise<number> {
  return (await fileSummary(file, plan)).rows;
}

const MODES: Record<string, () => Promise<number>> = {
  baseline: direct,
  subject,
  'summary-baseline': summaryDirect,
  'summary-subject': summarySubject,
};

async function main(): Promise<void> {
  const t0 = performance.now();
  const run = MODES[mode];
  if (!run) throw new Error(`unknown mode ${mode}`);
  const n = await run();
  process.stderr.write(`@@ms=${performance.now() - t0}\n@@rows=${n}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
