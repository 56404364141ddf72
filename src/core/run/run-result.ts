// The result of running a cell (platform-neutral: outputs and writers read it; run-cell.node.ts makes it).
import type { RecentFormat, RecentQueryRequest, ReportRecord, ReportRequest } from '../api/types';
import type { FollowMode, FollowState } from '../follow';
import type { ParsedCell } from '../query/cell';
import type { Diagnostic } from '../query/diagnostics';
import type { Table } from '../table/table';

export interface RunResult {
  verb: ParsedCell['verb'];
  /** The cell's `as <name>`, when it has one. */
  name?: string;
  table: Table;
  /** One line: "120 rows × 14 columns", "Report r-1 succeeded: 2 files, 3456 rows". */
  summary: string;
  /** What was sent (never holds the key; follow steps after the first send only org and a token). */
  request: RecentQueryRequest | ReportRequest | { org: string } | { sql: string } | Record<string, never>;
  format?: RecentFormat | 'csv-wide' | 'parquet-wide';
  report?: { record: ReportRecord; files: string[]; dir?: string };
  /** follow: the new cursor (keep it for the next run; never write it into the notebook). */
  followState?: FollowState;
  followMode?: FollowMode;
  /** Something to show beside the result (the token expired and the tail resumed, ...). */
  notice?: string;
  /** Warnings of the cell (errors never get this far). */
  warnings: Diagnostic[];
  /** The parameters the cell used and their values, e.g. `site=DABC1234, start=-7d (2026-11-19T16:00:00Z)`. */
  parameters?: string;
  /** The rows' order when the verb put them in one (time series: table-rows ROW_ORDER), for the caption. */
  rowOrder?: string;
  /** csvOut: the bytes written there. */
  csvBytes?: number;
}
