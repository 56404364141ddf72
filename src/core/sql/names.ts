// Result names across a notebook (`recent as pm`, `sql as daily`): duplicates and unknown names in sql
// cells, as editor diagnostics. Pure: the cells' texts in, one diagnostic list per cell out.
import type { ParsedCell } from '../query/cell';
import type { Diagnostic } from '../query/diagnostics';
import { parseCell } from '../query/parse';
import { referenceRange, tableReferences } from './references';

interface NamedCell {
  index: number;
  name: string;
  cell: ParsedCell;
}

/** The parsed cells of a notebook (undefined where a cell has errors of its own), relative times read at `now`. */
function parseCells(texts: readonly string[], now: Date): (ParsedCell | undefined)[] {
  return texts.map((t) => parseCell(t, { now }).cell);
}

function namedCells(cells: readonly (ParsedCell | undefined)[]): NamedCell[] {
  const out: NamedCell[] = [];
  cells.forEach((cell, index) => {
    if (cell?.name) out.push({ index, name: cell.name, cell });
  });
  return out;
}

/** Diagnostics that need the whole notebook: a name given twice, a sql cell naming no result. */
export function notebookNameDiagnostics(texts: readonly string[], now: Date): Diagnostic[][] {
  const cells = parseCells(texts, now);
  const out: Diagnostic[][] = texts.map(() => []);
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
