// 13. The archive (`measnb archive`, issue 31).
//  a. Converting a report's CSV to Parquet: the archive's writer (core/archive/parquet-parts and parquet-write: its own Parquet writer,
//     typed columns, Hive partitions by datasource, snappy) against DuckDB's plain `COPY (SELECT * FROM read_csv(f)) TO …
//     (FORMAT parquet)` on the same file, both on one thread. The file is a real report file from the
//     emulator: minute data of 10 datasources over 7 days (one file of a report), decoded as downloaded.
//  b. Reading the archive in a sql cell (core/sql SqlEngine, confined to the folder): one datasource's
//     month against a full scan of a year of hourly data for 500 datasources (a synthetic dataset in the
//     archive's layout, 6,000 partitions), time and bytes read (/proc/self/io rchar). Target < 0.5 s.
//     The partition is named by its folder, and by a WHERE over the whole glob: DuckDB prunes that to the
//     partition's bytes but lists every folder first, and the engine walks the glob's folders once for
//     links out (core/sql/glob-links.node.ts). Both are held to the target.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { csvToPartitionedParquet } from '../src/core/archive/parquet-parts.node';
import { MeasurementsClient } from '../src/core/client/client.node';
import { waitForReport } from '../src/core/reports/poller';
import { SqlEngine } from '../src/core/sql/engine.node';
import { systemClock } from '../src/core/time/clock';
import { startEmulator } from '../src/emulator';
import { type BenchResult, median, sideBySide } from './lib';

const DATA = path.resolve('.artifacts/bench/data/archive');
/** Issue 31: the conversion at least as fast as DuckDB's own COPY on one thread. */
const CONVERT_TOLERANCE = 1.0;
const PARTITION_READ_MS = 500;

async function reportCsv(): Promise<string> {
  const file = path.join(DATA, 'report-minute-10x7d.csv');
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(DATA, { recursive: true });
  const emu = await startEmulator({ clock: '2026-11-20T12:00:00Z', seed: 3, reportDelayMs: 0, datasources: 10 });
  try {
    const client = new MeasurementsClient({ baseUrl: emu.url, apiKey: emu.apiKey, clock: systemClock });
    const created = await client.createReport({
      org: emu.org,
      report: 'datasource-measurements',
      allDatasources: true,
      outputFrequency: 'minute',
      startTime: '2026-11-01',
      endTime: '2026-11-08',
    });
    const record = await waitForReport(client, created.reportId, { clock: systemClock, initial: created });
    await client.downloadReportFile(record.urls[0], `${file}.tmp`);
    fs.renameSync(`${file}.tmp`, file);
    return file;
  } finally {
    await emu.close();
  }
}

async function convertBench(runs: number): Promise<BenchResult> {
  const csv = await reportCsv();
  const out = path.join(DATA, 'out');
  const fresh = () => fs.rmSync(out, { recursive: true, force: true });
  const timed = async (f: () => Promise<void>) => {
    fresh();
    fs.mkdirSync(out, { recursive: true });
    const t0 = performance.now();
    await f();
    return { ms: performance.now() - t0 };
  };
  const baseline = () =>
    timed(async () => {
      const db = await DuckDBInstance.create(':memory:', { threads: '1' });
      const conn = await db.connect();
      await conn.run(
        `COPY (SELECT * FROM read_csv('${csv}')) TO '${path.join(out, 'plain.parquet')}' (FORMAT parquet)`,
      );
      conn.closeSync();
      db.closeSync();
    });
  const ids = new Set(
    fs
      .readFileSync(csv, 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.slice(0, l.indexOf(',')))
      .filter(Boolean),
  );
  const subject = () =>
    timed(async () => {
      await csvToPartitionedParquet(csv, path.join(out, 'parts'), 'datasourceId', 'part-0', ids);
    });
  const r = await sideBySide(runs, baseline, subject);
  const b = median(r.baseline.map((s) => s.ms));
  const s = median(r.subject.map((x) => x.ms));
  const rows = fs.readFileSync(csv, 'utf8').split('\n').length - 2;
  fresh();
  return {
    name: 'archive-convert',
    target: `≤ ${CONVERT_TOLERANCE}x DuckDB COPY (1 thread)`,
    baseline: "DuckDB COPY (SELECT * FROM read_csv(f)) TO 'x.parquet' (FORMAT parquet), threads=1",
    subject:
      'csvToPartitionedParquet (core/archive Parquet writer, no DuckDB: typed, Hive partitions by datasourceId, snappy)',
    baselineMedianMs: b,
    subjectMedianMs: s,
    ratio: s / b,
    figures: { rows, csvMb: fs.statSync(csv).size / 1e6 },
    pass: s <= b * CONVERT_TOLERANCE,
  };
}

/** A year of hourly rows for 500 datasources in the archive's Hive layout (made once). */
async function syntheticArchive(): Promise<string> {
  const dir = path.join(DATA, 'year-500');
  if (fs.existsSync(path.join(dir, 'done'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  await conn.run("SET TimeZone = 'UTC'");
  await conn.run(`COPY (
      SELECT 'hour' AS frequency, printf('D%04d', d) AS datasourceId, year(t)::INTEGER AS year, lpad(month(t)::VARCHAR, 2, '0') AS month,
             t AS startOfPeriod, t + INTERVAL 1 HOUR AS endOfPeriod, 37 + d / 1000.0 AS locationLatitude,
             -122 - d / 1000.0 AS locationLongitude, (hash(d, t) % 1000) / 10.0 AS "pm2_5ConcMass1HourMean.value"
      FROM range(500) r(d), range(TIMESTAMPTZ '2025-01-01', TIMESTAMPTZ '2026-01-01', INTERVAL 1 HOUR) s(t)
    ) TO '${dir}' (FORMAT parquet, PARTITION_BY (frequency, datasourceId, year, month), FILENAME_PATTERN 'part-0-{i}')`);
  conn.closeSync();
  db.closeSync();
  fs.writeFileSync(path.join(dir, 'done'), '');
  return dir;
}

function rchar(): number {
  return Number(/rchar:\s+(\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
}

async function partitionReadBench(runs: number): Promise<BenchResult> {
  const dir = await syntheticArchive();
  const engine = await SqlEngine.open({ readDirs: [dir] });
  const from = `read_parquet('${dir}/frequency=hour/*/*/*/*.parquet', hive_partitioning = true, hive_types = {'datasourceId': VARCHAR, 'year': INTEGER, 'month': INTEGER})`;
  const metric = '"pm2_5ConcMass1HourMean.value"';
  const timed = async (sql: string) => {
    const r0 = rchar();
    const t0 = performance.now();
    await engine.query(sql);
    return { ms: performance.now() - t0, bytes: rchar() - r0 };
  };
  try {
    const one = `read_parquet('${dir}/frequency=hour/datasourceId=D0042/year=2025/month=03/*.parquet', hive_partitioning = true)`;
    const r = await sideBySide(
      runs,
      () => timed(`SELECT count(*), avg(${metric}) FROM ${from}`),
      () => timed(`SELECT count(*), avg(${metric}) FROM ${one}`),
    );
    // The same partition by a WHERE over the whole glob: pruned to its bytes, but every folder is listed first.
    const where = `WHERE datasourceId = 'D0042' AND year = 2025 AND month = 3`;
    const filtered: { ms: number; bytes: number }[] = [];
    for (let i = 0; i < runs; i++) filtered.push(await timed(`SELECT count(*), avg(${metric}) FROM ${from} ${where}`));
    const b = median(r.baseline.map((s) => s.ms));
    const s = median(r.subject.map((x) => x.ms));
    const whereMs = median(filtered.map((x) => x.ms));
    return {
      name: 'archive-partition-read',
      target: `one partition < ${PARTITION_READ_MS} ms in a sql cell (its folder, and a WHERE)`,
      baseline: 'full scan: a year of hourly data, 500 datasources (4.38M rows, 6,000 files)',
      subject: "the partition's folder: …/datasourceId=D0042/year=2025/month=03/*.parquet",
      baselineMedianMs: b,
      subjectMedianMs: s,
      ratio: s / b,
      figures: {
        fullScanMbRead: median(r.baseline.map((x) => x.bytes ?? 0)) / 1e6,
        partitionMbRead: median(r.subject.map((x) => x.bytes ?? 0)) / 1e6,
        whereFilterMs: whereMs,
        whereFilterMbRead: median(filtered.map((x) => x.bytes)) / 1e6,
      },
      pass: s < PARTITION_READ_MS && whereMs < PARTITION_READ_MS,
    };
  } finally {
    engine.close();
  }
}

export async function archiveBench(runs: number): Promise<BenchResult[]> {
  return [await convertBench(runs), await partitionReadBench(runs)];
}
