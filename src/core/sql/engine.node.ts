// The embedded SQL engine (DuckDB, @duckdb/node-api): loaded on first use only, one in-memory database
// per notebook session. Tables go in typed through the appender (TIMESTAMPTZ, DOUBLE, VARCHAR); report
// files are views over DuckDB's own readers (read in place); results come back as our Table.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { MeasurementsError } from '../api/errors';
import type { Table } from '../table/table';
import { cellText, isNumeric, numberAt } from '../table/table';
import { type EngineError, readEngineError } from './errors';
import { resultToTable } from './to-table.node';

type NodeApi = typeof import('@duckdb/node-api');

let api: Promise<NodeApi> | undefined;
/** The engine module, required on the first sql cell (never at activation). */
function loadApi(): Promise<NodeApi> {
  api ??= import('@duckdb/node-api');
  return api;
}

export class EngineQueryError extends Error {
  constructor(readonly engine: EngineError) {
    super(engine.message);
    this.name = 'EngineQueryError';
  }
}

/** A SQL identifier, quoted (names are checked identifiers already; quoting keeps any text inert). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A SQL string literal. */
export function quoteString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export class SqlEngine {
  private constructor(
    private readonly db: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly lib: NodeApi,
  ) {}

  static async open(): Promise<SqlEngine> {
    const lib = await loadApi();
    const db = await lib.DuckDBInstance.create(':memory:', {
      // Positions in errors; no extension downloads (offline, and nothing fetched behind the user's back).
      errors_as_json: 'true',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    return new SqlEngine(db, await db.connect(), lib);
  }

  /** Replaces table `name` with the rows of `table`, typed per column kind. */
  async putTable(name: string, table: Table): Promise<void> {
    const cols = table.columns.map(
      (c) => `${quoteIdent(c.name)} ${c.kind === 'time' ? 'TIMESTAMPTZ' : c.kind === 'number' ? 'DOUBLE' : 'VARCHAR'}`,
    );
    await this.exec(`CREATE OR REPLACE TABLE ${quoteIdent(name)} (${cols.join(', ') || '"empty" VARCHAR'})`);
    if (!table.columns.length) return;
    const appender = await this.conn.createAppender(name);
    const { DuckDBTimestampTZValue } = this.lib;
    try {
      for (let row = 0; row < table.rowCount; row++) {
        for (const c of table.columns) {
          if (isNumeric(c)) {
            const v = numberAt(c, row);
            if (Number.isNaN(v)) appender.appendNull();
            else if (c.kind === 'time')
              appender.appendTimestampTZ(new DuckDBTimestampTZValue(BigInt(Math.round(v)) * 1000n));
            else appender.appendDouble(v);
          } else if (c.codes[row] < 0) appender.appendNull();
          else appender.appendVarchar(cellText(c, row));
        }
        appender.endRow();
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }

  /** Replaces view `name` with the files, read in place by DuckDB (never loaded into JavaScript). */
  async putFiles(name: string, files: readonly string[], format: 'parquet' | 'csv'): Promise<void> {
    const list = `[${files.map(quoteString).join(', ')}]`;
    const reader = format === 'parquet' ? 'read_parquet' : 'read_csv';
    await this.exec(
      `CREATE OR REPLACE VIEW ${quoteIdent(name)} AS SELECT * FROM ${reader}(${list}, union_by_name = true)`,
    );
  }

  async drop(name: string): Promise<void> {
    await this.exec(`DROP VIEW IF EXISTS ${quoteIdent(name)}`).catch(() => undefined);
    await this.exec(`DROP TABLE IF EXISTS ${quoteIdent(name)}`).catch(() => undefined);
  }

  /** Column names and types of a table or view (for completion). */
  async describe(name: string): Promise<{ name: string; type: string }[]> {
    const r = await this.conn.runAndReadAll(`DESCRIBE ${quoteIdent(name)}`);
    return r.getRowObjectsJS().map((o) => ({ name: String(o.column_name), type: String(o.column_type) }));
  }

  /** Runs SQL (relative paths from `baseDir`); the signal interrupts it. */
  async query(sql: string, options: { signal?: AbortSignal; baseDir?: string } = {}): Promise<Table> {
    const { signal } = options;
    if (signal?.aborted) throw cancelled();
    await this.exec(`SET file_search_path = ${quoteString(options.baseDir ?? '')}`);
    const onAbort = () => this.conn.interrupt();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await this.conn.run(sql);
      return await resultToTable(result, this.lib.DuckDBTypeId, signal);
    } catch (e) {
      if (signal?.aborted) throw cancelled();
      throw this.wrap(e);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Checks SQL without running it: the parser's error, if any. */
  async check(sql: string): Promise<EngineError | undefined> {
    try {
      await this.conn.extractStatements(sql);
      return undefined;
    } catch (e) {
      return readEngineError((e as Error).message.replace(/^Failed to extract statements:\s*/, ''));
    }
  }

  close(): void {
    this.conn.closeSync();
    this.db.closeSync();
  }

  private async exec(sql: string): Promise<void> {
    try {
      await this.conn.run(sql);
    } catch (e) {
      throw this.wrap(e);
    }
  }

  private wrap(e: unknown): Error {
    if (e instanceof EngineQueryError || e instanceof MeasurementsError) return e;
    return new EngineQueryError(readEngineError(e instanceof Error ? e.message : String(e)));
  }
}

function cancelled(): MeasurementsError {
  return new MeasurementsError('cancelled', 'The query was cancelled (interrupted).');
}
