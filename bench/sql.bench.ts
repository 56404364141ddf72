// 8. A sql cell aggregating report Parquet (by datasource and day) vs DuckDB called directly on the
//    same files (target ≤ 1.2×), with each process's peak memory. Default ~150 MB of Parquet;
//    `-- --sql-mb 1000` for the 1 GB case. The files are written once by DuckDB (report columns).
import fs from 'node:fs';
import path from 'node:path';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, sideBySide } from './lib';

const FILES = 8;
// ~32 bytes of Parquet per row (8 rounded random doubles compress; ids and statuses are dictionary-encoded).
const BYTES_PER_ROW = 32;

async function makeFiles(dir: string, mb: number): Promise<string[]> {
  const rows = Math.round((mb * 1e6) / BYTES_PER_ROW / FILES);
  const files = Array.from({ length: FILES }, (_, i) => path.join(dir, `report-${mb}mb-${i + 1}.parquet`));
  if (files.every((f) => fs.existsSync(f))) return files;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const metrics = ['pm2_5ConcMass1HourMean', 'pm10ConcMass1HourMean', 'pm1ConcMass1HourMean', 'no2Conc1HourMean'];
  const cols = metrics.flatMap((m) => [
    `round(random() * 60, 2) AS "${m}.value"`,
    `round(random() * 60, 2) AS "${m}.raw"`,
    `'sensor-ready' AS "${m}.status"`,
  ]);
  for (const [i, f] of files.entries()) {
    // Files split by time, as a report's are: 500 datasources, one row per datasource and minute.
    const start = i * rows;
    await c.run(
      `COPY (SELECT 'D' || lpad(((n % 500))::VARCHAR, 7, '0') AS datasourceId,
                    TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_minutes((n // 500)::BIGINT) AS "time",
                    37.7 + random() / 10 AS locationLatitude, -122.4 + random() / 10 AS locationLongitude,
                    ${cols.join(', ')}
             FROM range(${start}, ${start + rows}) r(n)) TO '${f}' (FORMAT parquet)`,
    );
  }
  c.closeSync();
  db.closeSync();
  return files;
}

export async function sqlBench(runs: number, mb = 150): Promise<BenchResult> {
  const dir = path.resolve('.artifacts/bench/data');
  fs.mkdirSync(dir, { recursive: true });
  const files = await makeFiles(dir, mb);
  const bytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const childJs = await bundledChild('bench/support/sql-child.ts');
  const child = (mode: string) => async () => {
    const r = await runCommand(process.execPath, [...NODE_RSS, childJs, mode, ...files]);
    const rows = Number(/@@rows=(\d+)/.exec(r.stderr)?.[1]);
    if (!(rows > 0)) throw new Error(`${mode}: no result rows (${r.stderr.slice(-500)})`);
    return { ms: Number(/@@ms=([\d.]+)/.exec(r.stderr)?.[1]), maxRssMb: r.maxRssMb, bytes: rows };
  };
  const s = await sideBySide(runs, child('baseline'), child('subject'));
  if (s.baseline[0].bytes !== s.subject[0].bytes) throw new Error('the two sides returned different row counts');
  const b = median(s.baseline.map((x) => x.ms));
  const p = median(s.subject.map((x) => x.ms));
  const ratio = p / b;
  return {
    name: `sql cell: ${Math.round(bytes / 1e6)} MB report Parquet by datasource and day`,
    target: '≤ 1.2× DuckDB direct',
    baseline: '@duckdb/node-api on read_parquet(files)',
    subject: 'runCell(sql) over a named report (files in place) → Table',
    baselineMedianMs: b,
    subjectMedianMs: p,
    ratio,
    figures: {
      parquetMb: bytes / 1e6,
      resultRows: s.subject[0].bytes ?? 0,
      subjectPeakRssMb: median(s.subject.map((x) => x.maxRssMb ?? Number.NaN)),
      baselinePeakRssMb: median(s.baseline.map((x) => x.maxRssMb ?? Number.NaN)),
    },
    pass: ratio <= 1.2,
  };
}
