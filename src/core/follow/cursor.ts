// The follow cursor: everything needed to continue a tail of a recent query without a gap or a
// duplicate row, also after the 24-hour continuation token has expired. Kept by the caller
// (workspace state, a --state file), never in a notebook.

import type { RecentFormat, RecentQueryRequest } from '../api/types';
import { findColumn, type Table } from '../table/table';
import { timeColumn } from '../table/table-rows';
import { DAY_MS } from '../time/duration';
import { isoToMs } from '../time/iso';

export interface FollowState {
  version: 1;
  /** The recent query the tail started with (times resolved), replyWithContinuationToken true. */
  request: RecentQueryRequest;
  format: RecentFormat;
  /** The current continuation token (replaced by every step). Secret-like: never saved in a notebook. */
  token?: string;
  /** ISO 8601: when the current token was issued (tokens live 24 hours). */
  issuedAt?: string;
  /** ISO 8601: the newest measurement time seen so far. */
  lastTime?: string;
  /** Row keys (`datasourceId|epochMs`) of the rows at lastTime, to drop them if a fresh query returns them again. */
  boundaryKeys: string[];
  /** Rows delivered over the whole tail. */
  rowsSeen: number;
}

export const TOKEN_LIFETIME_MS = DAY_MS;

/** Keys of the rows of a table, `datasourceId|epochMs`; undefined entries when the table has no time column. */
export function rowKey(table: Table, row: number): string | undefined {
  const t = timeColumn(table);
  if (!t) return undefined;
  const ds = findColumn(table, 'datasourceId');
  const id = ds && 'codes' in ds && ds.codes[row] >= 0 ? String(ds.dict[ds.codes[row]]) : '';
  return `${id}|${t.values[row]}`;
}

/** Newest time in the table and the keys of the rows at that time. */
export function boundaryOf(table: Table): { lastMs: number; keys: string[] } | undefined {
  const t = timeColumn(table);
  if (!t || table.rowCount === 0) return undefined;
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < table.rowCount; i++) if (t.values[i] > last) last = t.values[i];
  if (!Number.isFinite(last)) return undefined;
  const keys: string[] = [];
  for (let i = 0; i < table.rowCount; i++) if (t.values[i] === last) keys.push(rowKey(table, i) as string);
  return { lastMs: last, keys };
}

/** Advances lastTime/boundaryKeys past a table of new rows. */
export function advanceBoundary(state: FollowState, table: Table): Pick<FollowState, 'lastTime' | 'boundaryKeys'> {
  const b = boundaryOf(table);
  if (!b) return { lastTime: state.lastTime, boundaryKeys: state.boundaryKeys };
  const prev = state.lastTime ? isoToMs(state.lastTime) : Number.NEGATIVE_INFINITY;
  if (b.lastMs < prev) return { lastTime: state.lastTime, boundaryKeys: state.boundaryKeys };
  const keys = b.lastMs === prev ? [...new Set([...state.boundaryKeys, ...b.keys])] : b.keys;
  return { lastTime: new Date(b.lastMs).toISOString(), boundaryKeys: keys };
}

/** Whether two requests ask for the same tail (a changed cell starts a new tail). */
export function sameTail(a: RecentQueryRequest, b: RecentQueryRequest): boolean {
  const strip = ({ startTime: _s, ...rest }: RecentQueryRequest) => JSON.stringify(rest, Object.keys(rest).sort());
  return strip(a) === strip(b);
}

/** Reads a state saved as JSON (a --state file); undefined when it is not one. */
export function parseFollowState(text: string): FollowState | undefined {
  try {
    const s = JSON.parse(text) as FollowState;
    if (s && s.version === 1 && s.request && typeof s.request.org === 'string' && Array.isArray(s.boundaryKeys)) {
      return s;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

export function serializeFollowState(state: FollowState): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}
