// A throwaway in-memory DuckDB (one thread, UTC) for tests that read back what the code under test wrote.
import { DuckDBInstance } from '@duckdb/node-api';

export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/** Runs `f` with a query function on a fresh in-memory DuckDB; closes it after. */
export async function withDuckDb<T>(f: (q: Query) => Promise<T>): Promise<T> {
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  try {
    await conn.run("SET TimeZone = 'UTC'");
    return await f(async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[]);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
