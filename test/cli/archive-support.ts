// Reading an archive folder back for the archive tests: DuckDB (the node package) over the Hive layout,
// per partition: rows, and sums of a number column and of the period's start (seconds).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export interface PartitionStats {
  partition: string;
  rows: number;
  latSum: number;
  timeSum: number;
}

/** One line per partition (datasourceId/year/month), sorted: what two archives must agree on. */
export async function partitionStats(dir: string, frequency = 'hour'): Promise<PartitionStats[]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const time = frequency === 'minute' ? 'time' : 'startOfPeriod';
    const glob = join(dir, `frequency=${frequency}`, '*', '*', '*', '*.parquet').replace(/'/g, "''");
    const r = await conn.runAndReadAll(
      `SELECT datasourceId || '/' || year || '/' || month AS p, count(*)::DOUBLE AS n,
              round(sum(locationLatitude), 6)::DOUBLE AS lat, sum(epoch("${time}"))::DOUBLE AS t
       FROM read_parquet('${glob}', hive_partitioning = true, hive_types = {'datasourceId': VARCHAR, 'year': INTEGER, 'month': INTEGER}) GROUP BY ALL ORDER BY p`,
    );
    return r.getRowObjectsJS().map((o) => ({
      partition: String(o.p),
      rows: Number(o.n),
      latSum: Number(o.lat),
      timeSum: Number(o.t),
    }));
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** Column name → DuckDB type of the archive's files (partition columns included). */
export async function archiveTypes(dir: string, frequency = 'hour'): Promise<Record<string, string>> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const glob = join(dir, `frequency=${frequency}`, '*', '*', '*', '*.parquet').replace(/'/g, "''");
    const r = await conn.runAndReadAll(
      `DESCRIBE SELECT * FROM read_parquet('${glob}', hive_partitioning = true, hive_types = {'datasourceId': VARCHAR, 'year': INTEGER, 'month': INTEGER})`,
    );
    return Object.fromEntries(r.getRowObjectsJS().map((o) => [String(o.column_name), String(o.column_type)]));
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

export async function readArchiveManifest(dir: string): Promise<{
  partitions: Record<string, { rows: number; reportId: string }>;
  pending: Record<string, unknown>;
  reports: { day: string; created: number; spent: boolean };
}> {
  return JSON.parse(await readFile(join(dir, 'measnb-archive.json'), 'utf8'));
}
