// Sorting as an index permutation over the typed arrays: no row objects, empty cells always last,
// ties keep their incoming order (stable), so sorting by one column then another behaves as users expect.
import { type Column, floatValues, isNumeric } from '../../core/table/table';

type SortDirection = 'asc' | 'desc';

export interface SortSpec {
  column: number;
  direction: SortDirection;
}

/** Rank of every dictionary entry in sorted order (numeric-aware), so codes compare as integers. */
export function dictionaryRanks(dict: readonly string[]): Int32Array {
  const order = dict.map((_, i) => i);
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  order.sort((a, b) => collator.compare(dict[a], dict[b]) || (dict[a] < dict[b] ? -1 : dict[a] > dict[b] ? 1 : 0));
  const ranks = new Int32Array(dict.length);
  order.forEach((code, rank) => {
    ranks[code] = rank;
  });
  return ranks;
}

/** A per-row sort key: NaN for an empty cell. */
function sortKeys(column: Column, rowCount: number): Float64Array {
  if (isNumeric(column)) return floatValues(column);
  const keys = new Float64Array(rowCount);
  const ranks =
    column.kind === 'qcFlags' ? dictionaryRanks(column.dict.map((f) => f.join(','))) : dictionaryRanks(column.dict);
  const codes = column.codes;
  for (let i = 0; i < rowCount; i++) {
    const c = codes[i];
    keys[i] = c < 0 ? Number.NaN : ranks[c];
  }
  return keys;
}

/**
 * Returns `rows` reordered by the column (a new array; `rows` is the current view, e.g. the filtered rows).
 * Stability: ties are broken by position in `rows`.
 */
export function sortRows(rows: Uint32Array, column: Column, rowCount: number, direction: SortDirection): Uint32Array {
  const keys = sortKeys(column, rowCount);
  const n = rows.length;
  // Sort positions (not row ids) so that ties fall back to the incoming order.
  const pos = new Uint32Array(n);
  for (let i = 0; i < n; i++) pos[i] = i;
  const k = new Float64Array(n);
  for (let i = 0; i < n; i++) k[i] = keys[rows[i]];
  const sign = direction === 'asc' ? 1 : -1;
  pos.sort((a, b) => {
    const ka = k[a];
    const kb = k[b];
    const ea = Number.isNaN(ka);
    const eb = Number.isNaN(kb);
    if (ea || eb) return ea === eb ? a - b : ea ? 1 : -1;
    return ka === kb ? a - b : ka < kb ? -sign : sign;
  });
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = rows[pos[i]];
  return out;
}

export function identityRows(rowCount: number): Uint32Array {
  const rows = new Uint32Array(rowCount);
  for (let i = 0; i < rowCount; i++) rows[i] = i;
  return rows;
}
