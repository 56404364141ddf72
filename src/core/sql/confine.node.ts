// What a sql cell may do: read statements only (their type from DuckDB's own parser), over the
// notebook's results and the files in the folders the engine was opened with. DuckDB's confinement
// (enable_external_access=false) refuses its `file_search_path`, so relative file names are made
// absolute here, at the positions DuckDB's parser gives for them (json_serialize_sql).
import { totalmem } from 'node:os';
import { isAbsolute, resolve, sep } from 'node:path';
import { FileNameRefusal, MeasurementsError } from '../api/errors';

/** Where wider file access is granted (named in refusals). */
const WIDEN_HINT =
  'to read files elsewhere, add their folder to the user setting measurements.sql.allowedDirectories (measnb run: --sql-allow-dir DIR)';

/** DuckDB's statement types (StatementType of @duckdb/node-bindings) a sql cell may run. */
const READ_TYPES = new Set(['SELECT', 'EXPLAIN']);

/** Names of statement types for messages: "COPY", "EXPORT DATABASE", "SET", "INSTALL or LOAD", ... */
const LABELS: Record<string, string> = {
  EXPORT: 'EXPORT DATABASE',
  LOAD: 'INSTALL or LOAD',
  EXTENSION: 'INSTALL or LOAD',
  SET: 'SET (or USE)',
  VARIABLE_SET: 'SET VARIABLE',
  CREATE_FUNC: 'CREATE FUNCTION',
  TRANSACTION: 'BEGIN/COMMIT',
  COPY_DATABASE: 'COPY FROM DATABASE',
};

/** Refusal of a statement that is not a read, or undefined when it may run. */
export function statementRefusal(typeName: string, sql: string): string | undefined {
  if (typeName === 'EXPLAIN' && /\banaly[sz]e\b/i.test(sql))
    return `EXPLAIN ANALYZE is not run in a sql cell: it runs the statement it explains (use EXPLAIN).`;
  if (READ_TYPES.has(typeName)) return undefined;
  if (typeName === 'PIVOT')
    return "PIVOT without an IN list is not run in a sql cell (DuckDB creates a type for its columns first): list the values, PIVOT … ON col IN ('a', 'b').";
  const label = LABELS[typeName] ?? typeName.replace(/_/g, ' ');
  return (
    `${label} is not run in a sql cell: a sql cell only reads (SELECT, WITH, DESCRIBE, SUMMARIZE, EXPLAIN) ` +
    `the notebook's results and the files in its folder. To save a result, use Save (measnb run: --results); ${WIDEN_HINT}.`
  );
}

/** A refused file access (DuckDB's Permission error), with where access is granted. */
export function permissionHint(message: string): string {
  return `${message} (a sql cell reads only files in the notebook's folder; ${WIDEN_HINT})`;
}

/** DuckDB's out-of-memory error without its advice to change settings (a cell cannot), and where the limit is set. */
export function memoryHint(message: string, limit: string): string {
  const said = message.split(/\s*Possible solutions:/)[0];
  return `${said} (the sql memory limit is ${limit}: the user setting measurements.sql.memoryLimit, measnb run: --sql-memory-limit)`;
}

/** The folder as DuckDB's allowed_directories entry: absolute, ending in a separator. */
export function asAllowedDir(dir: string): string {
  const abs = resolve(dir);
  return abs.endsWith(sep) ? abs : `${abs}${sep}`;
}

/** Whether every folder in `need` is inside one of `granted` (asAllowedDir forms). */
export function covers(granted: readonly string[], need: readonly string[]): boolean {
  return need.every((d) => granted.some((g) => asAllowedDir(d).startsWith(g)));
}

const GiB = 1024 ** 3;
/** DuckDB's memory_limit: the setting's value ("2GB", "512 MiB") or 25% of RAM, at most 4 GB. */
export function memoryLimit(setting: string | undefined, ram = totalmem()): string {
  const text = setting?.trim();
  if (!text) return `${Math.max(256, Math.floor(Math.min(ram / 4, 4 * GiB) / 1024 ** 2))}MiB`;
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(text))
    throw new MeasurementsError(
      'INVALID_REQUEST',
      `The sql memory limit "${text.slice(0, 40)}" is not a size like 2GB or 512MiB.`,
    );
  return text.replace(/\s+/g, '');
}

/** A replacement of `length` characters at `at` in the SQL text. */
export interface TextEdit {
  at: number;
  length: number;
  text: string;
}

/** Table functions whose first argument names files (DuckDB's readers, glob, sniff_csv, parquet_*). */
function readsFiles(name: unknown): boolean {
  return typeof name === 'string' && /^(read_|parquet_|sniff_csv$|glob$)/i.test(name);
}

interface Node {
  [k: string]: unknown;
}
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;

/** A file name written in the SQL, with the parser's position of its literal (`FROM 'x.csv'`, read_csv('x.csv')). */
export interface FileName {
  name: string;
  at?: number;
}

/**
 * The file names in json_serialize_sql's tree (positions + `shift`): each reader's first argument (a
 * string or a list of strings) and `FROM 'file.csv'`. A computed name (`'a' || '.csv'`) or SQL run from
 * a string (query()) is refused: names are checked before the query (links out of the folder).
 */
export function fileNames(tree: unknown, shift = 0): FileName[] {
  const names: FileName[] = [];
  const add = (name: string, at: unknown) => names.push({ name, at: typeof at === 'number' ? at + shift : undefined });
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) for (const x of n) visit(x);
    if (!isNode(n) || Array.isArray(n)) return;
    const fn = n.type === 'TABLE_FUNCTION' && isNode(n.function) ? n.function.function_name : undefined;
    if (typeof fn === 'string' && /^query(_table)?$/i.test(fn))
      throw new FileNameRefusal(`${fn}() is not run in a sql cell: write its query in the cell.`);
    if (isNode(n.function) && readsFiles(fn)) {
      const first = Array.isArray(n.function.children) ? n.function.children[0] : undefined;
      const items = isNode(first) && first.function_name === 'list_value' ? first.children : [first];
      for (const c of Array.isArray(items) ? items : [items]) {
        if (!isNode(c) || c.class !== 'CONSTANT' || !isNode(c.value) || typeof c.value.value !== 'string')
          throw new FileNameRefusal(
            `${fn}(): a sql cell names its files as written text ('data.csv', ['a.csv', 'b.csv']), not computed.`,
          );
        add(c.value.value, c.query_location);
      }
    }
    if (n.type === 'BASE_TABLE' && !n.schema_name && !n.catalog_name && typeof n.table_name === 'string')
      if (/[./\\]/.test(n.table_name)) add(n.table_name, n.query_location);
    for (const v of Object.values(n)) visit(v);
  };
  visit(tree);
  return names;
}

/**
 * Edits making relative file names absolute (from `baseDir`). A name that is not a plain quoted literal
 * at the parser's position is left alone (the confined engine refuses a relative name).
 */
export function relativePathEdits(names: readonly FileName[], sql: string, baseDir: string): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const n of names) addEdit(edits, sql, n.at, n.name, baseDir);
  return edits.sort((a, b) => a.at - b.at).filter((e, i, all) => i === 0 || all[i - 1].at !== e.at);
}

/** Whether a name is a local path (not a URL, not ~, DuckDB's home shorthand: both refused by the engine). */
export function isLocalName(name: string): boolean {
  return !name.startsWith('~') && !/^[a-z][\w+.-]*:\/\//i.test(name);
}

function addEdit(edits: TextEdit[], sql: string, at: unknown, name: string, baseDir: string): void {
  if (typeof at !== 'number' || isAbsolute(name) || !isLocalName(name)) return;
  const quote = sql[at];
  if (quote !== "'" && quote !== '"') return;
  const literal = `${quote}${name.split(quote).join(quote + quote)}${quote}`;
  if (sql.slice(at, at + literal.length) !== literal) return;
  const path = resolve(baseDir, name);
  edits.push({ at, length: literal.length, text: `${quote}${path.split(quote).join(quote + quote)}${quote}` });
}

export function applyEdits(sql: string, edits: readonly TextEdit[]): string {
  let out = '';
  let from = 0;
  for (const e of edits) {
    out += sql.slice(from, e.at) + e.text;
    from = e.at + e.length;
  }
  return out + sql.slice(from);
}

/** An offset into the edited text, as an offset into the text before the edits. */
export function originalOffset(offset: number, edits: readonly TextEdit[]): number {
  let shift = 0;
  for (const e of edits) {
    const start = e.at + shift;
    if (offset < start) break;
    if (offset < start + e.text.length) return e.at;
    shift += e.text.length - e.length;
  }
  return offset - shift;
}
