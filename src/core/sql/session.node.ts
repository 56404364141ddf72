// One notebook's SQL session: the named results of its cells (this run's, or held from an earlier run
// of that cell) and, from the first sql cell on, the engine they live in. Cells that never use sql
// never load the engine: results are only held here (tables by reference, report files by path).
import { dirname } from 'node:path';
import { readerOfName } from '../table/file-format';
import type { Table } from '../table/table';
import { checkTimeZone, DEFAULT_TIME_ZONE } from '../time/zone';
import { type EngineOptions, SqlEngine, type SqlParam } from './engine.node';

export type HeldResult =
  | { kind: 'table'; table: Table }
  /** Report files, read by DuckDB in place. */
  | { kind: 'files'; files: string[]; format: 'parquet' | 'csv' };

/** The engine's reach: the folders granted beyond the notebook's (a user setting), temp folder, memory. */
export interface SqlSessionOptions {
  /** Folders granted by the user (never by a workspace or notebook), read beside the notebook's. */
  allowedDirectories?: readonly string[];
  /** Where each engine's own spill folder is made (default: the OS temp folder). */
  tempRoot?: string;
  memoryLimit?: string;
}

interface SqlQueryOptions {
  signal?: AbortSignal;
  /** Relative paths in the SQL (read_parquet('x.parquet')) are read from here: the notebook's folder. */
  baseDir?: string;
  /** The notebook's parameters, bound to the SQL's `$name` parameters (never pasted into its text). */
  params?: Readonly<Record<string, SqlParam>>;
  /** The notebook's time zone (IANA; default UTC): the engine's TimeZone, opened again when it changes. */
  timeZone?: string;
}

/** The format DuckDB should read a report's files with, or undefined when they are not all one kind. */
export function filesFormat(files: readonly string[]): 'parquet' | 'csv' | undefined {
  const kinds = new Set(files.map((f) => readerOfName(f) ?? 'other'));
  if (kinds.size !== 1) return undefined;
  const [k] = kinds;
  return k === 'other' ? undefined : k;
}

export class SqlSession {
  private readonly held = new Map<string, HeldResult>();
  /** Names whose held result is not yet (or no longer) what the engine has. */
  private readonly stale = new Set<string>();
  private engine?: Promise<SqlEngine>;
  /** The notebook's folder, as the last query gave it (the engine may read there). */
  private baseDir?: string;
  /** The notebook's zone, as the last query gave it. */
  private timeZone?: string;

  constructor(private readonly options: SqlSessionOptions = {}) {}

  /** Keeps a cell's result under its name (replacing what that name held). */
  hold(name: string, result: HeldResult): void {
    const key = name.toLowerCase();
    for (const k of this.held.keys()) if (k.toLowerCase() === key && k !== name) this.held.delete(k);
    this.held.set(name, result);
    this.stale.add(name);
  }

  names(): string[] {
    return [...this.held.keys()];
  }

  get(name: string): HeldResult | undefined {
    return this.held.get(name);
  }

  /** Whether the engine was loaded (the first sql cell loads it). */
  get started(): boolean {
    return this.engine !== undefined;
  }

  /** Column names of a held result (tables from memory; files asked of the engine only if it runs). */
  async columns(name: string): Promise<string[]> {
    const h = this.held.get(name);
    if (!h) return [];
    if (h.kind === 'table') return h.table.columns.map((c) => c.name);
    if (!this.engine) return [];
    const engine = await this.sync();
    return (await engine.describe(name)).map((c) => c.name);
  }

  async query(sql: string, options: SqlQueryOptions = {}): Promise<Table> {
    this.baseDir = options.baseDir ?? this.baseDir;
    this.timeZone = options.timeZone ?? this.timeZone;
    const engine = await this.sync();
    return engine.query(sql, options);
  }

  /** The parser's error for SQL, without running it (loads the engine). */
  async check(sql: string) {
    return (await this.open()).check(sql);
  }

  dispose(): void {
    const e = this.engine;
    this.engine = undefined;
    this.held.clear();
    void e?.then((x) => x.close()).catch(() => undefined);
  }

  private open(): Promise<SqlEngine> {
    this.engine ??= SqlEngine.open(this.engineOptions());
    return this.engine;
  }

  /** The folders the engine may read: the notebook's, the granted ones, those of held report files. */
  private engineOptions(): EngineOptions {
    const files = [...this.held.values()].flatMap((h) => (h.kind === 'files' ? h.files.map((f) => dirname(f)) : []));
    const readDirs = [...(this.baseDir ? [this.baseDir] : []), ...(this.options.allowedDirectories ?? []), ...files];
    return {
      readDirs,
      tempRoot: this.options.tempRoot,
      memoryLimit: this.options.memoryLimit,
      timeZone: this.timeZone,
    };
  }

  /**
   * The engine with every held result in it (only the changed ones are loaded again). Its folders are
   * fixed when it opens, and its TimeZone: one that does not reach a new folder, or is in another zone, is
   * opened again, with every result.
   */
  private async sync(): Promise<SqlEngine> {
    const current = await this.engine?.catch(() => undefined);
    const zone = checkTimeZone(this.timeZone ?? DEFAULT_TIME_ZONE);
    if (current && (!current.reaches(this.engineOptions().readDirs ?? []) || current.timeZone !== zone)) {
      this.engine = undefined;
      current.close();
      for (const name of this.held.keys()) this.stale.add(name);
    }
    const engine = await this.open();
    for (const name of [...this.stale]) {
      const h = this.held.get(name);
      if (!h) continue;
      await engine.drop(name); // a name may change from a view (report files) to a table or back
      if (h.kind === 'table') await engine.putTable(name, h.table);
      else await engine.putFiles(name, h.files, h.format);
      this.stale.delete(name);
    }
    return engine;
  }
}
