// 11. Regulatory-style statistics over a whole Parquet file (`measnb stats`, the Regulatory Statistics command):
//     fileStatistics vs DuckDB alone on the same daily SQL (target ≤ 1.2×). One file of minute rows of 60
//     datasources over 2026, ~1 GB by default (`-- --stats-mb 100` while developing), written once by DuckDB.
import fs from 'node:fs';
import path from 'node:path';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, sideBySide } from './lib';

// ~16 bytes of Parquet per row here (measured: 49 MB for 3.1 M rows; rounded random doubles, dictionary-encoded text).
const BYTES_PER_ROW = 16;

async function makeFile(dir: string, mb: number): Promise<string> {
  const file = path.join(dir, `stats-${mb}mb.parquet`);
  if (fs.existsSync(file)) return file;
  const rows = Math.round((mb * 1e6) / BYTES_PER_ROW);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const metrics = ['pm2_5ConcMass1HourMean', 'pm10ConcMass1HourMean', 'no2Conc1HourMean', 'relHumidAmbient1HourMean'];
  const cols = metrics.flatMap((m) => [
    `round(random() * 60, 2) AS "${m}.value"`,
    `round(random() * 60, 2) AS "${m}.raw"`,
    `'sensor-ready' AS "${m}.status"`,
  ]);
  // 60 datasources, one row per datasource and step; the steps spread over 2026 (a minute at 31.5 M rows).
  const step = Math.max(1, Math.floor((365 * 24 * 60 * 60) / (rows / 60)));
  await c.run(
    `COPY (SELECT 'D' || lpad((n % 60)::VARCHAR, 7, '0') AS datasourceId,
                  TIMESTAMPTZ '2026-01-01 07:00:00+00' + to_seconds(((n // 60) * ${step})::BIGINT) AS "time",
                  ${cols.join(', ')}
           FROM range(0, ${rows}) r(n)) TO '${file}' (FORMAT parquet)`,
  );
  c.closeSync();
  db.closeSync();
  return file;
}

/** The generated file, and the child of each mode run side by side (baseline, subject) `runs` times. */
async function runModes(runs: number, mb: number, baseline: string, subject: string) {
  const dir = path.resolve('.artifacts/bench/data');
  fs.mkdirSync(dir, { recursive: true });
  const file = await makeFile(dir, mb);
  const bytes = fs.statSync(file).size;
  const childJs = await bundledChild('bench/support/stats-child.ts');
  const child = (mode: string) => async () => {
    const r = await runCommand(process.execPath, [...NODE_RSS, childJs, mode, file]);
    const n = Number(/@@rows=(\d+)/.exec(r.stderr)?.[1]);
    if (!(n > 0)) throw new Error(`${mode}: no result (${r.stderr.slice(-500)})`);
    return { ms: Number(/@@ms=([\d.]+)/.exec(r.stderr)?.[1]), maxRssMb: r.maxRssMb, bytes: n };
  };
  return { bytes, s: await sideBySide(runs, child(baseline), child(subject)) };
}

/**
 * 11b. The Summary view over every row of a file (the table editor holds its first rows): fileSummary vs DuckDB
 * alone on the same SQL (core/sql/summary.node summarySql; target ≤ 1.2×), 60 datasources × 4 metrics.
 */
export async function summaryBench(runs: number, mb = 1000): Promise<BenchResult> {
  const { bytes, s } = await runModes(runs, mb, 'summary-baseline', 'summary-subject');
  const b = median(s.baseline.map((x) => x.ms));
  const p = median(s.subject.map((x) => x.ms));
  return {
    name: `Summary of every row: 60 datasources × 4 metrics over ${Math.round(bytes / 1e6)} MB of Parquet`,
    target: '≤ 1.2× DuckDB direct',
    baseline: '@duckdb/node-api on the same summary SQL (read_parquet)',
    subject: 'fileSummary (confined engine, column check, summary SQL, cells)',
    baselineMedianMs: b,
    subjectMedianMs: p,
    ratio: p / b,
    figures: {
      parquetMb: bytes / 1e6,
      baselineGroups: s.baseline[0].bytes ?? 0,
      subjectRows: s.subject[0].bytes ?? 0,
      subjectPeakRssMb: median(s.subject.map((x) => x.maxRssMb ?? Number.NaN)),
      baselinePeakRssMb: median(s.baseline.map((x) => x.maxRssMb ?? Number.NaN)),
    },
    pass: p / b <= 1.2,
  };
}

export async function statsBench(runs: number, mb = 1000): Promise<BenchResult> {
  const { bytes, s } = await runModes(runs, mb, 'baseline', 'subject');
  const b = median(s.baseline.map((x) => x.ms));
  const p = median(s.subject.map((x) => x.ms));
  const ratio = p / b;
  return {
    name: `regulatory statistics: a year of one datasource over ${Math.round(bytes / 1e6)} MB of Parquet`,
    target: '≤ 1.2× DuckDB direct',
    baseline: '@duckdb/node-api on the same daily SQL (read_parquet)',
    subject: 'fileStatistics (confined engine, column probe, daily SQL, rank rule)',
    baselineMedianMs: b,
    subjectMedianMs: p,
    ratio,
    figures: {
      parquetMb: bytes / 1e6,
      baselineDays: s.baseline[0].bytes ?? 0,
      subjectValidDays: s.subject[0].bytes ?? 0,
      subjectPeakRssMb: median(s.subject.map((x) => x.maxRssMb ?? Number.NaN)),
      baselinePeakRssMb: median(s.baseline.map((x) => x.maxRssMb ?? Number.NaN)),
    },
    pass: ratio <= 1.2,
  };
}
