// Result names across a notebook (`recent as pm`, `sql as daily`): duplicates and unknown names in sql
// cells, as editor diagnostics. Pure: the cells' texts in, one diagnostic list per cell out.
import type { ParsedCell } from '../query/cell';
import { type Diagnostic, range } from '../query/diagnostics';
import { notebookParams } from '../query/notebook-params';
import { type ParamValues, paramValues } from '../query/params';
import { parseCell } from '../query/parse';
import { referenceRange, sqlParamReferences, tableReferences } from './references';

interface NamedCell {
  index: number;
  name: string;
  cell: ParsedCell;
}

/**
 * The parsed cells of a notebook (undefined where a cell has errors of its own), relative times read at `now`,
 * `{{name}}` read with `params` (default: the notebook's params cell's defaults).
 */
function parseCells(texts: readonly string[], now: Date, params?: ParamValues): (ParsedCell | undefined)[] {
  const values = params ?? paramValues(notebookParams(texts).defs).values;
  return texts.map((t) => parseCell(t, { now, params: values }).cell);
}

function namedCells(cells: readonly (ParsedCell | undefined)[]): NamedCell[] {
  const out: NamedCell[] = [];
  cells.forEach((cell, index) => {
    if (cell?.name) out.push({ index, name: cell.name, cell });
  });
  return out;
}

/**
 * Diagnostics that need the whole notebook: a name given twice, a sql cell naming no result or an undeclared
 * `$parameter`, a second params cell.
 */
export function notebookNameDiagnostics(texts: readonly string[], now: Date): Diagnostic[][] {
  const params = notebookParams(texts);
  const values = paramValues(params.defs).values;
  const cells = parseCells(texts, now, values);
  const out: Diagnostic[][] = params.diagnostics.map((d) => [...d]);
  cells.forEach((cell, index) => {
    if (cell?.sql) out[index].push(...unknownSqlParams(cell.sql, values));
  });
  const first = new Map<string, number>();
  const spelled: string[] = [];
  for (const n of namedCells(cells)) {
    const key = n.name.toLowerCase(); // DuckDB's names are case-insensitive
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, n.index);
      spelled.push(n.name);
      continue;
    }
    out[n.index].push({
      severity: 'error',
      code: 'duplicate-result-name',
      message: `The result name '${n.name}' is already given by cell ${earlier + 1}; each name names one cell`,
      range: n.cell.nameRange ?? n.cell.verbRange,
    });
  }
  cells.forEach((cell, index) => {
    if (cell?.verb !== 'sql' || !cell.sql) return;
    for (const ref of tableReferences(cell.sql.text)) {
      if (first.has(ref.name.toLowerCase())) continue;
      const known = spelled;
      out[index].push({
        severity: 'error',
        code: 'unknown-result-name',
        message: `No cell is named '${ref.name}'${known.length ? ` (names: ${known.join(', ')})` : ''}; name a cell's result with 'as ${ref.name}' on its verb line`,
        range: referenceRange(ref, cell.sql.line),
      });
    }
  });
  return out;
}

/** `$name` in a sql cell that the params cell does not declare. */
export function unknownSqlParams(sql: { text: string; line: number }, values: ParamValues): Diagnostic[] {
  return sqlParamReferences(sql.text).flatMap((ref) => {
    if (values.has(ref.name)) return [];
    const r = referenceRange(ref, sql.line);
    const declared = values.size ? `parameters: ${[...values.keys()].join(', ')}` : "the notebook has no 'params' cell";
    return [
      {
        severity: 'error' as const,
        code: 'unknown-parameter' as const,
        message: `Unknown parameter '$${ref.name}' (${declared})`,
        range: range(r.start.line, r.start.column - 1, r.end.column),
      },
    ];
  });
}
