// The embedded SQL engine (DuckDB, @duckdb/node-api): loaded on first use only, one in-memory database
// per notebook session. Tables go in typed through the appender (TIMESTAMPTZ, DOUBLE, VARCHAR); report
// files are views over DuckDB's own readers (read in place); results come back as our Table.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type {
  DuckDBConnection,
  DuckDBInstance,
  DuckDBMaterializedResult,
  DuckDBPreparedStatement,
  DuckDBType,
  DuckDBValue,
} from '@duckdb/node-api';
import { type EngineError, EngineQueryError, FileNameRefusal, MeasurementsError } from '../api/errors';
import type { Table } from '../table/table';
import { quoteIdent, quoteString } from '../text/sql-text';
import { checkTimeZone, DEFAULT_TIME_ZONE } from '../time/zone';
import {
  applyEdits,
  asAllowedDir,
  covers,
  type FileName,
  fileNames,
  isLocalName,
  memoryHint,
  memoryLimit,
  originalOffset,
  permissionHint,
  relativePathEdits,
  statementRefusal,
  type TextEdit,
} from './confine.node';
import { readEngineError } from './errors';
import { walkGlob } from './glob-links.node';
import { appendTable, loadBindings, sqlTypeOf } from './put-table.node';
import { resultToTable } from './to-table.node';
import { type ValueAlias, valueAliases, withoutEchoedAliases } from './value-names';

type NodeApi = typeof import('@duckdb/node-api');

let api: Promise<NodeApi> | undefined;
/** The engine module, required on the first sql cell (never at activation). */
function loadApi(): Promise<NodeApi> {
  api ??= import('@duckdb/node-api');
  return api;
}

export { quoteString };

/** A notebook parameter as a bound value: VARCHAR, DOUBLE, BOOLEAN, VARCHAR[], or TIMESTAMPTZ (epoch ms). */
export type SqlParam = string | number | boolean | readonly string[] | { timestampMs: number };

/** How far the engine reaches: nothing outside these folders, a bounded memory. */
export interface EngineOptions {
  /** Folders whose files SQL may read (the notebook's, a file's, granted ones, held report files'). */
  readDirs?: readonly string[];
  /** Where the engine's own spill folder is made (removed on close; default: the OS temp folder). */
  tempRoot?: string;
  /** DuckDB's memory_limit, e.g. "2GB" (default: 25% of RAM, at most 4 GB). */
  memoryLimit?: string;
  /**
   * The session's TimeZone, an IANA name (default UTC, never the machine's): TIMESTAMPTZ arithmetic such as
   * `date_trunc('day', "time")` gives the notebook's local days (DuckDB's ICU, built in: nothing is loaded).
   */
  timeZone?: string;
}

export class SqlEngine {
  /** The other names of metric values given to each result (lower-case result name → its aliases). */
  private readonly aliases = new Map<string, ValueAlias[]>();

  private constructor(
    private readonly db: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly lib: NodeApi,
    /** allowed_directories, as DuckDB has them. */
    readonly allowedDirs: readonly string[],
    private readonly memoryLimit: string,
    private readonly tempDir: string,
    /** The session's TimeZone (locked with the other settings). */
    readonly timeZone: string,
  ) {}

  /**
   * A confined in-memory engine: files only in `readDirs` and its temp folder, no extensions installed
   * or loaded, a memory limit, and its settings locked (a cell's SET is refused anyway).
   */
  static async open(options: EngineOptions = {}): Promise<SqlEngine> {
    const lib = await loadApi();
    const limit = memoryLimit(options.memoryLimit);
    const timeZone = checkTimeZone(options.timeZone ?? DEFAULT_TIME_ZONE);
    const root = resolve(options.tempRoot ?? tmpdir());
    await mkdir(root, { recursive: true });
    const tempDir = await mkdtemp(join(root, 'measnb-sql-'));
    try {
      const dirs = [...new Set([...(options.readDirs ?? []), tempDir].map(asAllowedDir))];
      const db = await lib.DuckDBInstance.create(':memory:', {
        // Positions in errors; no extension downloads (offline, and nothing fetched behind the user's back).
        errors_as_json: 'true',
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
        allow_community_extensions: 'false',
        temp_directory: tempDir,
        memory_limit: limit,
      });
      const conn = await db.connect();
      // allowed_directories is a list, which only SET takes; then access is confined and settings locked.
      await conn.run(`SET allowed_directories = [${dirs.map(quoteString).join(', ')}]`);
      await conn.run(`SET TimeZone = ${quoteString(timeZone)}`);
      await conn.run('SET enable_external_access = false');
      await conn.run('SET lock_configuration = true');
      return new SqlEngine(db, conn, lib, dirs, limit, tempDir, timeZone);
    } catch (e) {
      await rm(tempDir, { recursive: true, force: true });
      throw e;
    }
  }

  /** An engine that reads only the files beside `file` (the table editor's engine for a big Parquet file). */
  static openBeside(file: string): Promise<SqlEngine> {
    return SqlEngine.open({ readDirs: [dirname(resolve(file))] });
  }

  /** Whether files in these folders can be read by this engine. */
  reaches(dirs: readonly string[]): boolean {
    return covers(this.allowedDirs, dirs);
  }

  /**
   * Replaces table `name` with the rows of `table`, typed per column kind: column by column, a data chunk
   * of 2,048 rows at a time (put-table.node.ts).
   */
  async putTable(name: string, table: Table): Promise<void> {
    const cols = table.columns.map((c) => `${quoteIdent(c.name)} ${sqlTypeOf(c)}`);
    // The other name of each metric value (value-names.ts), virtual: no copy of the values.
    const aliases = valueAliases(table.columns.map((c) => c.name));
    for (const a of aliases) {
      const of = table.columns.find((c) => c.name === a.of)!;
      cols.push(`${quoteIdent(a.alias)} ${sqlTypeOf(of)} GENERATED ALWAYS AS (${quoteIdent(a.of)}) VIRTUAL`);
    }
    this.aliases.set(name.toLowerCase(), aliases);
    await this.exec(`CREATE OR REPLACE TABLE ${quoteIdent(name)} (${cols.join(', ') || '"empty" VARCHAR'})`);
    if (!table.columns.length) return;
    const bindings = await loadBindings();
    const appender = await this.conn.createAppender(name);
    try {
      appendTable(appender, table, this.lib, bindings);
      appender.flushSync();
    } catch (e) {
      throw this.wrap(e);
    } finally {
      appender.closeSync();
    }
  }

  /** Replaces view `name` with the files, read in place by DuckDB (never loaded into JavaScript). */
  async putFiles(name: string, files: readonly string[], format: 'parquet' | 'csv'): Promise<void> {
    const list = `[${files.map(quoteString).join(', ')}]`;
    const reader = format === 'parquet' ? 'read_parquet' : 'read_csv';
    const from = `FROM ${reader}(${list}, union_by_name = true)`;
    await this.exec(`CREATE OR REPLACE VIEW ${quoteIdent(name)} AS SELECT * ${from}`);
    const aliases = valueAliases((await this.describe(name)).map((c) => c.name));
    this.aliases.set(name.toLowerCase(), aliases);
    if (!aliases.length) return;
    const extra = aliases.map((a) => `${quoteIdent(a.of)} AS ${quoteIdent(a.alias)}`).join(', ');
    await this.exec(`CREATE OR REPLACE VIEW ${quoteIdent(name)} AS SELECT *, ${extra} ${from}`);
  }

  async drop(name: string): Promise<void> {
    this.aliases.delete(name.toLowerCase());
    await this.exec(`DROP VIEW IF EXISTS ${quoteIdent(name)}`).catch(() => undefined);
    await this.exec(`DROP TABLE IF EXISTS ${quoteIdent(name)}`).catch(() => undefined);
  }

  /** Column names and types of a table or view (for completion). */
  async describe(name: string): Promise<{ name: string; type: string }[]> {
    const r = await this.conn.runAndReadAll(`DESCRIBE ${quoteIdent(name)}`);
    return r.getRowObjectsJS().map((o) => ({ name: String(o.column_name), type: String(o.column_type) }));
  }

  /**
   * Runs SQL (relative file names from `baseDir`): read statements only, each checked by DuckDB's parser
   * before anything runs; the last one's result. The signal interrupts it.
   */
  async query(
    sql: string,
    options: { signal?: AbortSignal; baseDir?: string; params?: Readonly<Record<string, SqlParam>> } = {},
  ): Promise<Table> {
    const { signal } = options;
    if (signal?.aborted) throw cancelled();
    const onAbort = () => this.conn.interrupt();
    signal?.addEventListener('abort', onAbort, { once: true });
    const statements: DuckDBPreparedStatement[] = [];
    let edits: TextEdit[] = [];
    try {
      const { names, oneSelect } = await this.fileNamesOf(sql);
      const { baseDir } = options;
      edits = baseDir ? relativePathEdits(names, sql, baseDir) : [];
      await this.refuseLinksOut(names.map((n) => (baseDir ? resolve(baseDir, n.name) : n.name)));
      const text = applyEdits(sql, edits);
      if (oneSelect && !/[$?]/.test(text)) {
        const table = await resultToTable(await this.runSelect(text), this.lib.DuckDBTypeId, signal);
        return withoutEchoedAliases(table, [...this.aliases.values()].flat());
      }
      statements.push(...(await this.readStatements(text)));
      const last = statements.at(-1);
      if (!last) throw new EngineQueryError({ message: 'There is no SQL statement to run.' });
      for (const s of statements) this.bind(s, options.params ?? {});
      for (const s of statements.slice(0, -1)) await s.run();
      const table = await resultToTable(await last.run(), this.lib.DuckDBTypeId, signal);
      return withoutEchoedAliases(table, [...this.aliases.values()].flat());
    } catch (e) {
      if (signal?.aborted) throw cancelled();
      throw this.wrap(e, edits);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      for (const s of statements) s.destroySync();
    }
  }

  /**
   * Binds the statement's `$name` parameters to the notebook's values (never pasted into its text); a name
   * the notebook does not declare (or a positional `?`, `$1`) is refused before anything runs.
   */
  private bind(statement: DuckDBPreparedStatement, params: Readonly<Record<string, SqlParam>>): void {
    const values: Record<string, DuckDBValue> = {};
    const types: Record<string, DuckDBType> = {};
    const { lib } = this;
    for (let i = 1; i <= statement.parameterCount; i++) {
      const name = statement.parameterName(i);
      const v = Object.hasOwn(params, name) ? params[name] : undefined;
      if (v === undefined) {
        const declared = Object.keys(params);
        const why = declared.length
          ? `parameters: ${declared.map((n) => `$${n}`).join(', ')}`
          : 'the notebook declares none';
        throw new EngineQueryError({
          message: `$${name} is not a parameter of this notebook (${why})`,
          type: 'Refused',
        });
      }
      if (typeof v === 'string') [values[name], types[name]] = [v, lib.VARCHAR];
      else if (typeof v === 'number') [values[name], types[name]] = [v, lib.DOUBLE];
      else if (typeof v === 'boolean') [values[name], types[name]] = [v, lib.BOOLEAN];
      else if (Array.isArray(v)) [values[name], types[name]] = [lib.listValue([...v]), lib.LIST(lib.VARCHAR)];
      else {
        const ms = (v as { timestampMs: number }).timestampMs;
        [values[name], types[name]] = [new lib.DuckDBTimestampTZValue(BigInt(Math.round(ms)) * 1000n), lib.TIMESTAMPTZ];
      }
    }
    if (statement.parameterCount) statement.bind(values, types);
  }

  /**
   * One SELECT without parameters, run as written: a prepared statement that reads files is bound again
   * when it runs (DuckDB lists a glob's folders twice), so it is not prepared first. DuckDB's parser has
   * already said it is a SELECT (json_serialize_sql takes nothing else); its type is checked again here.
   */
  private async runSelect(text: string): Promise<DuckDBMaterializedResult> {
    const result = await this.conn.run(text);
    const refusal = statementRefusal(this.lib.StatementType[result.statementType] ?? 'UNKNOWN', text);
    if (refusal) throw new EngineQueryError({ message: refusal, type: 'Refused' });
    return result;
  }

  /** The statements of `sql`, prepared (nothing runs), each a read: else refused, naming the statement. */
  private async readStatements(sql: string): Promise<DuckDBPreparedStatement[]> {
    const extracted = await this.conn.extractStatements(sql);
    const out: DuckDBPreparedStatement[] = [];
    try {
      for (let i = 0; i < extracted.count; i++) {
        const p = await extracted.prepare(i).catch(() => undefined);
        if (!p) throw await this.prepareError(sql, i, extracted.count);
        out.push(p);
        const refusal = statementRefusal(this.lib.StatementType[p.statementType] ?? 'UNKNOWN', sql);
        if (refusal) throw new EngineQueryError({ message: refusal, type: 'Refused' });
      }
      return out;
    } catch (e) {
      for (const p of out) p.destroySync();
      throw e;
    }
  }

  /**
   * Why statement `index` cannot be prepared, in DuckDB's words (its prepare of extracted statements
   * drops them): that statement alone is prepared again.
   */
  private async prepareError(sql: string, index: number, count: number): Promise<Error> {
    const { start, end } = await this.statementBounds(sql, index, count);
    const text = sql.slice(start, end);
    try {
      (await this.conn.prepare(text)).destroySync();
    } catch (e) {
      const err = readEngineError(e instanceof Error ? e.message : String(e));
      return new EngineQueryError({ ...err, offset: err.offset === undefined ? undefined : err.offset + start });
    }
    return new EngineQueryError({ message: `SQL statement ${index + 1} cannot be prepared.` });
  }

  /** Where statement `index` of `sql` is: DuckDB's parser counts the statements before each `;`. */
  private async statementBounds(sql: string, index: number, count: number): Promise<{ start: number; end: number }> {
    let start = 0;
    for (let at = sql.indexOf(';'); count > 1 && at >= 0; at = sql.indexOf(';', at + 1)) {
      const n = await this.conn.extractStatements(sql.slice(0, at + 1)).then(
        (x) => x.count,
        () => -1,
      );
      if (n === index) start = at + 1;
      if (n === index + 1) return { start, end: at + 1 };
    }
    return { start, end: sql.length };
  }

  /** DuckDB's parse tree of SELECT statements (json_serialize_sql), or its error. */
  private async serialize(sql: string): Promise<{ error?: boolean; error_message?: unknown } | undefined> {
    const r = await this.conn.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)::VARCHAR AS tree', [sql]);
    const tree = r.getRowObjectsJS()[0]?.tree;
    try {
      return typeof tree === 'string' ? JSON.parse(tree) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The file names the SQL reads, from DuckDB's parse, before anything is bound (binding a reader reads
   * its file). A statement DuckDB does not parse as a query (json_serialize_sql takes SELECTs only) is
   * refused here, naming it, unless it is an EXPLAIN of a query.
   */
  private async fileNamesOf(sql: string): Promise<{ names: FileName[]; oneSelect: boolean }> {
    const whole = await this.serialize(sql);
    const { count } = await this.conn.extractStatements(sql);
    if (whole && !whole.error) return { names: this.names(whole, 0), oneSelect: count === 1 };
    const names: FileName[] = [];
    for (let i = 0; i < count; i++) {
      const { start, end } = await this.statementBounds(sql, i, count);
      let text = sql.slice(start, end);
      let shift = start;
      let tree = await this.serialize(text);
      if (!tree || tree.error) {
        const explain = /^(\s|--[^\n]*|\/\*[\s\S]*?\*\/)*explain\b/i.exec(text);
        if (!explain) throw refused(firstWord(text), text);
        const analyze = statementRefusal('EXPLAIN', text);
        if (analyze) throw new EngineQueryError({ message: analyze, type: 'Refused' });
        text = text.slice(explain[0].length);
        shift += explain[0].length;
        tree = await this.serialize(text);
        if (!tree || tree.error) throw refused(firstWord(text), text, 'EXPLAIN ');
      }
      names.push(...this.names(tree, shift));
    }
    return { names, oneSelect: false };
  }

  private names(tree: unknown, shift: number): FileName[] {
    try {
      return fileNames(tree, shift);
    } catch (e) {
      if (e instanceof FileNameRefusal) throw new EngineQueryError({ message: e.message, type: 'Refused' });
      throw e;
    }
  }

  /**
   * Refuses a file name that leads out of the folders this engine reads through a link (a repository
   * can hold `data.csv -> ~/.ssh/id_rsa`; DuckDB checks the name, not what it points to). A glob's
   * folders are walked once (glob-links.node.ts: entry types from readdir, realpath for the links only).
   */
  private async refuseLinksOut(paths: readonly string[]): Promise<void> {
    const granted = await Promise.all(this.allowedDirs.map((d) => realpath(d).then(asAllowedDir, () => d)));
    // A name outside them is refused by DuckDB itself, with its own message.
    const inside = (p: string) => isAbsolute(p) && isLocalName(p) && covers(this.allowedDirs, [dirname(resolve(p))]);
    const named = paths.filter(inside);
    const globs = named.filter((p) => /[*?[{]/.test(p));
    for (const pattern of globs) {
      const walk = await walkGlob(pattern, granted, { maxFiles: MAX_GLOB_FILES, maxEntries: MAX_GLOB_ENTRIES });
      if (walk.kind === 'link-out') throw linkOut(walk.path);
      if (walk.kind !== 'ok') {
        const what = walk.kind === 'too-many-files' ? `${MAX_GLOB_FILES} files` : `${MAX_GLOB_ENTRIES} folder entries`;
        throw new EngineQueryError({ message: `"${pattern}" matches more than ${what}.`, type: 'Refused' });
      }
    }
    const files = named.filter((p) => !globs.includes(p));
    const reals = await Promise.all(files.map((f) => realpath(f).catch(() => undefined)));
    const out = reals.findIndex((real) => real !== undefined && !covers(granted, [dirname(real)]));
    if (out >= 0) throw linkOut(files[out]);
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
    void rm(this.tempDir, { recursive: true, force: true }).catch(() => undefined);
  }

  private async exec(sql: string): Promise<void> {
    try {
      await this.conn.run(sql);
    } catch (e) {
      throw this.wrap(e);
    }
  }

  /** The engine's error, positioned in the SQL as written (before `edits`), a refused file access explained. */
  private wrap(e: unknown, edits: readonly TextEdit[] = []): Error {
    if (e instanceof MeasurementsError) return e;
    const err =
      e instanceof EngineQueryError ? { ...e.engine } : readEngineError(e instanceof Error ? e.message : String(e));
    if (err.offset !== undefined) err.offset = originalOffset(err.offset, edits);
    if (err.type?.toLowerCase() === 'permission') err.message = permissionHint(err.message);
    if (err.type?.toLowerCase() === 'out of memory') err.message = memoryHint(err.message, this.memoryLimit);
    return new EngineQueryError(err);
  }
}

/** The refusal of a statement that is not a query (DuckDB's parser does not take it as a SELECT). */
function refused(word: string, text: string, prefix = ''): EngineQueryError {
  const why = statementRefusal(word, text) ?? `${word} is not run in a sql cell: a sql cell only reads.`;
  return new EngineQueryError({ message: `${prefix}${why}`, type: 'Refused' });
}

/** The most files one glob in a sql cell may match (each is checked for a link out of the folder). */
const MAX_GLOB_FILES = 10_000;
/** The most folder entries the walk of one glob reads (a glob over a huge tree is refused, not walked for minutes). */
const MAX_GLOB_ENTRIES = 200_000;

function linkOut(path: string): EngineQueryError {
  return new EngineQueryError({ message: permissionHint(`"${path}" is a link to a file outside`), type: 'Refused' });
}

/** The statement's first keyword (after comments and parentheses), upper case: what a refusal names it. */
function firstWord(sql: string): string {
  const rest = sql.replace(/^(\s|--[^\n]*|\/\*[\s\S]*?\*\/|\()*/, '');
  return /^[A-Za-z]+/.exec(rest)?.[0].toUpperCase() ?? 'STATEMENT';
}

function cancelled(): MeasurementsError {
  return new MeasurementsError('CANCELLED', 'The query was cancelled (interrupted).');
}
