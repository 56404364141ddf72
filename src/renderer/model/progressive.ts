// The renderer's side of a progressive output: asks for the rows after the head in chunks, one request at
// a time (the host answers each before the next is asked for), and appends them to the growing Table.
import type { RestOfRows } from '../../core/notebook/renderer-protocol';
import type { TableAssembler } from '../../core/table/row-chunks';
import type { Table } from '../../core/table/table';

/** The most rows a progressive output may announce (its arrays are allocated for every row at once). */
export const MAX_PROGRESSIVE_ROWS = 50_000_000;

/** The rest-of-rows metadata when it is well-formed and says there is more than the head; else undefined. */
export function restOf(value: unknown, headRows: number): RestOfRows | undefined {
  const r = value as Partial<RestOfRows> | undefined;
  if (!r || typeof r !== 'object' || typeof r.key !== 'string' || !r.key || r.key.length > 200) return undefined;
  const total = r.totalRows;
  if (typeof total !== 'number' || !Number.isInteger(total) || total <= headRows || total > MAX_PROGRESSIVE_ROWS)
    return undefined;
  return { key: r.key, totalRows: total, headRows };
}

/**
 * Rows per request so that a chunk is about `chunkBytes` of wire format (at least 1,000 rows), from the head
 * as it came over the wire (`headBytes` for its rows): decoded, its decimal numbers are Float64, two to
 * four times their wire size, and would make chunks that much smaller than meant.
 */
export function rowsPerChunk(headBytes: number, headRows: number, chunkBytes: number): number {
  const perRow = headRows > 0 ? headBytes / headRows : 0;
  return perRow > 0 ? Math.max(1_000, Math.floor(chunkBytes / perRow)) : 100_000;
}

type FetchRows = (start: number, maxRows: number) => Promise<Table>;

interface LoadOptions {
  assembler: TableAssembler;
  fetch: FetchRows;
  rowsPerChunk: number;
  /** After each appended chunk (and once at the end). */
  onRows: (loaded: number, total: number) => void;
  /** True once the output is gone: stop asking. */
  stopped: () => boolean;
}

/**
 * Fetches and appends chunks until every row is in (resolves 'complete'), the output is gone ('stopped'),
 * or a fetch fails (rejects with its error; the rows appended so far stay). The next chunk is asked for
 * before the current one is appended, so the host encodes and sends one while the page appends the other.
 * A chunk of no rows, or not of the rows asked for, is an error (no endless asking for the same rows).
 */
export async function loadRest(o: LoadOptions): Promise<'complete' | 'stopped'> {
  const a = o.assembler;
  const ask = (start: number) => {
    const rows = Math.min(o.rowsPerChunk, a.totalRows - start);
    const p = o.fetch(start, rows);
    p.catch(() => undefined); // awaited below; a prefetch left behind by a stop must not be unhandled
    return { start, rows, p };
  };
  let next = a.complete ? undefined : ask(a.loaded);
  while (next) {
    if (o.stopped()) return 'stopped';
    const current = next;
    const chunk = await current.p;
    if (o.stopped()) return 'stopped';
    if (chunk.rowCount !== current.rows) {
      const at = current.start.toLocaleString('en-US');
      throw new Error(`the host sent ${chunk.rowCount} rows at row ${at}, not ${current.rows}`);
    }
    const after = current.start + current.rows;
    next = after < a.totalRows ? ask(after) : undefined;
    a.append(chunk);
    o.onRows(a.loaded, a.totalRows);
  }
  return 'complete';
}
