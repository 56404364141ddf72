// Types of the client's calls, platform-neutral: code that only passes them along (follow, the report
// poller) stays neutral; the client itself is node-only (client.node.ts).

import type { JsonLongBody, RecentFormat } from '../api/types';
import type { Table } from '../table/table';

export interface CallOptions {
  signal?: AbortSignal;
  /** Budget for the whole call, retries and body included. */
  timeoutMs?: number;
}

export interface RecentResult {
  table: Table;
  /** The new token (x-service-continuation-token), when the reply carried one. */
  continuationToken?: string;
  format: RecentFormat;
  /** json-long: the service's echo of the request. */
  request?: Record<string, unknown>;
  /** The json-long reply as received; `keepBody: false` drops it (it can be far bigger than the table). */
  body?: JsonLongBody;
}
