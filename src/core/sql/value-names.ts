// Both names of a metric's value in sql cells: a csv-wide result names it `X.value` when it has QC fields
// (`X.raw`, `X.qcAssessment`, …) and `X` without, so a sql cell written for one breaks on the other. The engine
// gives every result the missing name as a virtual column (engine.node.ts), and leaves that twin out of a
// query's output when it only repeats its original (`SELECT *`).
import { parseMetricLabel } from '../metrics/labels';
import { isNumeric, numberAt, type Table } from '../table/table';

/** The rule, as completion details and error hints say it. */
export const VALUE_NAME_RULE =
  'a metric\'s value is "X.value" in results with QC fields and "X" without: sql cells may use either name';

export interface ValueAlias {
  /** The name added. */
  alias: string;
  /** The column it reads. */
  of: string;
}

const isMetric = (name: string) => {
  const parts = parseMetricLabel(name);
  return !!parts && !parts.field;
};

/** The names to add to a result with these columns: `X` for `X.value`, `X.value` for a metric `X`. */
export function valueAliases(names: readonly string[]): ValueAlias[] {
  const have = new Set(names.map((n) => n.toLowerCase()));
  const out: ValueAlias[] = [];
  for (const n of names) {
    const bare = n.endsWith('.value') ? n.slice(0, -'.value'.length) : undefined;
    if (bare !== undefined && isMetric(bare) && !have.has(bare.toLowerCase())) out.push({ alias: bare, of: n });
    else if (bare === undefined && isMetric(n) && !have.has(`${n}.value`.toLowerCase()))
      out.push({ alias: `${n}.value`, of: n });
  }
  return out;
}

/** Whether two number columns hold the same values (NaN equal to NaN). */
function sameValues(table: Table, a: number, b: number): boolean {
  const [x, y] = [table.columns[a], table.columns[b]];
  if (!isNumeric(x) || !isNumeric(y) || x.kind !== y.kind) return false;
  for (let r = 0; r < table.rowCount; r++) {
    const [p, q] = [numberAt(x, r), numberAt(y, r)];
    if (p !== q && !(Number.isNaN(p) && Number.isNaN(q))) return false;
  }
  return true;
}

/**
 * The output without added names that only repeat their original column, as `SELECT *` brings both (the twin
 * after its original, the same values).
 */
export function withoutEchoedAliases(table: Table, aliases: readonly ValueAlias[]): Table {
  const index = new Map(table.columns.map((c, i) => [c.name, i]));
  const drop = new Set<number>();
  for (const { alias, of } of aliases) {
    const [a, o] = [index.get(alias), index.get(of)];
    // The twin comes after its original in `SELECT *` (added last); one before it is the original itself.
    if (a !== undefined && o !== undefined && a > o && sameValues(table, a, o)) drop.add(a);
  }
  return drop.size ? { ...table, columns: table.columns.filter((_, i) => !drop.has(i)) } : table;
}
