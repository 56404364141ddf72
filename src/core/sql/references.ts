// What a sql cell's text refers to, without the engine: the table names after FROM/JOIN (not CTEs,
// table functions or quoted paths), for the editor's "unknown result name" diagnostic and completion.
import type { Range } from '../query/diagnostics';

interface TableReference {
  name: string;
  /** 0-based, relative to the SQL text. */
  line: number;
  column: number;
}

/** The SQL text with comments and string literals blanked (same length and line breaks). */
function blankCommentsAndStrings(sql: string): string {
  return sql.replace(/--[^\n\r]*|\/\*[\s\S]*?(\*\/|$)|'(?:[^']|'')*'?/g, (m) => m.replace(/[^\r\n]/g, ' '));
}

const CTE = /(?:\bwith\s+(?:recursive\s+)?|,\s*)([A-Za-z_][A-Za-z0-9_]*)\s+as\s*(?:(?:not\s+)?materialized\s*)?\(/gi;
const FROM_OR_JOIN = /\b(?:from|join)\s+([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*[.(])/gi;

export function tableReferences(sql: string): TableReference[] {
  const text = blankCommentsAndStrings(sql);
  const ctes = new Set<string>();
  for (const m of text.matchAll(CTE)) ctes.add(m[1].toLowerCase());
  const out: TableReference[] = [];
  for (const m of text.matchAll(FROM_OR_JOIN)) {
    const name = m[1];
    if (ctes.has(name.toLowerCase()) || SQL_WORDS.has(name.toLowerCase())) continue;
    const offset = (m.index ?? 0) + m[0].length - name.length;
    const before = text.slice(0, offset).split(/\r\n|\r|\n/);
    out.push({ name, line: before.length - 1, column: before[before.length - 1].length });
  }
  return out;
}

// Words that may follow FROM/JOIN without being a table name (subqueries start with '(' and are skipped).
const SQL_WORDS = new Set(['lateral', 'select', 'values', 'unnest', 'only']);

export function referenceRange(ref: TableReference, firstLine: number): Range {
  return {
    start: { line: firstLine + ref.line, column: ref.column },
    end: { line: firstLine + ref.line, column: ref.column + ref.name.length },
  };
}

/** A `$name` parameter in SQL (DuckDB's named prepared parameter; not in strings or comments, not `$1`). */
export function sqlParamReferences(sql: string): TableReference[] {
  const text = blankCommentsAndStrings(sql);
  const out: TableReference[] = [];
  for (const m of text.matchAll(/(?<![\w$])\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const before = text.slice(0, (m.index ?? 0) + 1).split(/\r\n|\r|\n/);
    out.push({ name: m[1], line: before.length - 1, column: before[before.length - 1].length });
  }
  return out;
}
