// followStep: one step of a tail. First a recent query with a continuation token; then the
// continuation endpoint, replacing the token each time; when the token is rejected (expired after
// 24 hours, or forged), a fresh recent query from the last time seen, minus the rows already seen.

import { isMeasurementsError } from '../api/errors';
import { CACHE_DEPTH_MS, type ContinuationRequest, type RecentFormat, type RecentQueryRequest } from '../api/types';
import type { CallOptions, RecentResult } from '../client/client-types';
import type { Table } from '../table/table';
import { rowsByTimeAscending, takeRows, timeColumn } from '../table/table-rows';
import { formatDuration } from '../time/duration';
import { isoToMs } from '../time/iso';
import { advanceBoundary, type FollowState, rowKey, sameTail, TOKEN_LIFETIME_MS } from './cursor';

/** The two client methods a tail needs (MeasurementsClient has them). */
export interface FollowClient {
  recentQuery(req: RecentQueryRequest, options?: CallOptions): Promise<RecentResult>;
  continueQuery(req: ContinuationRequest, options?: CallOptions & { format?: RecentFormat }): Promise<RecentResult>;
}

export interface FollowStepOptions {
  client: FollowClient;
  /** The cell's request as resolved now (replyWithContinuationToken is forced on). */
  request: RecentQueryRequest;
  state?: FollowState;
  now: Date;
  signal?: AbortSignal;
}

export type FollowMode = 'start' | 'continue' | 'restart';

export interface FollowStepResult {
  /** Only rows not delivered before, oldest first. */
  table: Table;
  state: FollowState;
  mode: FollowMode;
  /** Something the user should know (the token expired and the tail resumed, a possible gap). */
  notice?: string;
}

export async function followStep(options: FollowStepOptions): Promise<FollowStepResult> {
  const { client, now, signal, state } = options;
  const request: RecentQueryRequest = { ...options.request, replyWithContinuationToken: true };
  const format: RecentFormat = request.format ?? 'json-long';
  if (!state || !sameTail(state.request, request)) {
    const res = await client.recentQuery(request, { signal });
    const fresh: FollowState = { version: 1, request, format, boundaryKeys: [], rowsSeen: 0 };
    return finish(fresh, res, ordered(res.table), 'start', now);
  }
  const tokenAge = state.issuedAt ? now.getTime() - isoToMs(state.issuedAt) : Number.POSITIVE_INFINITY;
  if (state.token && tokenAge < TOKEN_LIFETIME_MS) {
    try {
      const res = await client.continueQuery(
        { org: state.request.org, continuationToken: state.token },
        { signal, format: state.format },
      );
      return finish(state, res, newRows(res.table, state), 'continue', now);
    } catch (e) {
      if (!isMeasurementsError(e, 'TOKEN_REJECTED')) throw e;
    }
  }
  return restart(client, state, now, signal);
}

async function restart(
  client: FollowClient,
  state: FollowState,
  now: Date,
  signal: AbortSignal | undefined,
): Promise<FollowStepResult> {
  const from = state.lastTime ?? state.request.startTime;
  const request: RecentQueryRequest = { ...state.request, replyWithContinuationToken: true };
  if (from) request.startTime = from;
  const res = await client.recentQuery(request, { signal });
  let notice = `The continuation token was no longer valid; resumed with a fresh query from ${from ?? 'the default start time'}.`;
  const depth = CACHE_DEPTH_MS[state.request.outputFrequency ?? 'minute'];
  if (from && now.getTime() - isoToMs(from) > depth) {
    notice += ` Measurements older than the cache (${formatDuration(depth)}) before ${new Date(now.getTime() - depth).toISOString()} may be missing; use a report for them.`;
  }
  const result = finish(state, res, newRows(res.table, state), 'restart', now);
  return { ...result, notice };
}

/** Rows of `table` not delivered before: newer than lastTime, or at lastTime and not among its rows. */
function newRows(table: Table, state: FollowState): Table {
  const t = timeColumn(table);
  if (!t || !state.lastTime) return ordered(table);
  const last = isoToMs(state.lastTime);
  const seen = new Set(state.boundaryKeys);
  const keep: number[] = [];
  for (const row of rowsByTimeAscending(table)) {
    const v = t.values[row];
    if (v > last || (v === last && !seen.has(rowKey(table, row) as string)) || Number.isNaN(v)) keep.push(row);
  }
  return keep.length === table.rowCount && isAscending(keep) ? table : takeRows(table, keep);
}

function ordered(table: Table): Table {
  const rows = rowsByTimeAscending(table);
  return isAscending(rows) ? table : takeRows(table, rows);
}

function isAscending(rows: ArrayLike<number>): boolean {
  for (let i = 0; i < rows.length; i++) if (rows[i] !== i) return false;
  return true;
}

function finish(state: FollowState, res: RecentResult, table: Table, mode: FollowMode, now: Date): FollowStepResult {
  const boundary = advanceBoundary(state, table);
  const next: FollowState = {
    ...state,
    ...boundary,
    // A reply without a token leaves the tail without one; the next step then restarts from lastTime.
    token: res.continuationToken,
    issuedAt: res.continuationToken ? now.toISOString() : state.issuedAt,
    rowsSeen: state.rowsSeen + table.rowCount,
  };
  if (!res.continuationToken) delete next.token;
  return { table, state: next, mode };
}
