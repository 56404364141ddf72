// Completion inside sql cells: the notebook's result names, and the columns of a result (after
// `name.`, or of every result the cell already reads). Pure: the caller supplies names and columns.
import type { Position } from '../query/diagnostics';
import { splitLines } from '../query/lines';
import { RESULT_NAME } from '../query/parse';
import { tableReferences } from './references';
import { VALUE_NAME_RULE, valueAliases } from './value-names';

interface ResultInfo {
  name: string;
  /** e.g. "datasources, cell 2". */
  detail?: string;
}

interface SqlCompletion {
  label: string;
  kind: 'result' | 'column';
  insertText?: string;
  detail?: string;
  /**
   * For a column after `name.`: the column (on the position's line) where the text it replaces begins, just
   * after the dot. The editor's word there would include `name.` (the cell language's words hold dots), so
   * the typed prefix would be `pm.` and filter out every column without `pm.` in it.
   */
  replaceFrom?: number;
  /** The text the editor filters by: the inserted text (a quoted name matches a typed `"`). */
  filterText?: string;
}

/** A column name as SQL needs it: bare when it is a plain identifier, else double-quoted. */
function sqlName(name: string): string {
  return RESULT_NAME.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** "column of pm", and for a metric's value the rule of its two names (value-names.ts). */
function columnDetail(column: string, result: string): string {
  const metric = valueAliases([column.replace(/\.value$/, '')]).length > 0;
  return metric ? `column of ${result}; ${VALUE_NAME_RULE}` : `column of ${result}`;
}

/**
 * Completions at a position of a sql cell's text (the whole cell, verb line included); [] on the verb line.
 * `columns(name)` gives a result's columns (empty when it has not run yet in this session).
 */
export async function completeSql(
  text: string,
  position: Position,
  results: readonly ResultInfo[],
  columns: (name: string) => Promise<string[]> | string[],
): Promise<SqlCompletion[]> {
  const lines = splitLines(text);
  const verbLine = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (verbLine < 0 || position.line <= verbLine) return [];
  const before = (lines[position.line] ?? '').slice(0, position.column);
  const dotted = /([A-Za-z_][A-Za-z0-9_]*)\.("?[^\s."]*)$/.exec(before);
  if (dotted) {
    const result = results.find((r) => r.name.toLowerCase() === dotted[1].toLowerCase());
    if (!result) return [];
    const replaceFrom = before.length - dotted[2].length;
    return (await columns(result.name)).map((c) => ({
      label: c,
      kind: 'column' as const,
      insertText: sqlName(c),
      filterText: sqlName(c),
      detail: columnDetail(c, result.name),
      replaceFrom,
    }));
  }
  const out: SqlCompletion[] = results.map((r) => ({ label: r.name, kind: 'result' as const, detail: r.detail }));
  const body = lines.slice(verbLine + 1).join('\n');
  const used = new Set(tableReferences(body).map((r) => r.name.toLowerCase()));
  for (const r of results) {
    if (!used.has(r.name.toLowerCase())) continue;
    for (const c of await columns(r.name))
      out.push({ label: c, kind: 'column', insertText: sqlName(c), detail: columnDetail(c, r.name) });
  }
  return out;
}
