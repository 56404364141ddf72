// runCell: the ONE place that executes a cell with a client (used by the CLI and the notebook controller).
import type { Writable } from 'node:stream';
import { CellError, EngineQueryError } from '../api/errors';
import type { MeasurementsClient } from '../client/client.node';
import { type FollowState, followStep } from '../follow';
import type { ParsedCell } from '../query/cell';
import type { Diagnostic } from '../query/diagnostics';
import type { ServiceKind } from '../query/metric-select';
import type { ParamValues } from '../query/params';
import { paramsCaption } from '../query/params';
import { parseCell } from '../query/parse';
import { type ResolvedCell, resolveCell } from '../query/resolve';
import { timeToMs } from '../query/time';
import type { SqlParam } from '../sql/engine.node';
import { engineErrorDiagnostic } from '../sql/errors';
import { unknownSqlParams } from '../sql/names';
import { sqlParamReferences } from '../sql/references';
import { filesFormat, type HeldResult, SqlSession } from '../sql/session.node';
import { emptyTable, type Table } from '../table/table';
import { inTimeOrder, ROW_ORDER, timeColumn } from '../table/table-rows';
import { datasourcesTable, paramsTable } from './datasources-table';
import { type ReportProgress, runReport } from './report-run.node';
import type { RunResult } from './run-result';

export type RunClient = Pick<
  MeasurementsClient,
  | 'clock'
  | 'recentQuery'
  | 'recentQueryCsv'
  | 'continueQuery'
  | 'createReport'
  | 'getReport'
  | 'listDatasources'
  | 'downloadReportFile'
>;

export type RunProgress = { kind: 'request'; message: string } | ReportProgress;

export interface RunCellOptions {
  client: RunClient;
  /** The connection's org (a cell's `org:` wins). */
  org?: string;
  /** Who answers (parseCell's `service`): for a real service (default) unknown metric labels are only warnings. */
  service?: ServiceKind;
  /** A cell the caller parsed (parse once): its warnings, which travel in the result as a text cell's do. */
  warnings?: Diagnostic[];
  /** The instant relative times are read at (the caller's Clock). */
  now: Date;
  signal?: AbortSignal;
  onProgress?: (p: RunProgress) => void;
  /** follow: the cursor of the previous run of this cell. */
  followState?: FollowState;
  /** report: where the files go (default: a new temporary directory). */
  downloadDir?: string;
  /** report: false = create it and return the record without waiting (default true). */
  wait?: boolean;
  /** The notebook's SQL session: named results are held there; sql cells run there (default: a new one). */
  sql?: SqlSession;
  /** sql: relative file paths are read from here (the notebook's folder). */
  baseDir?: string;
  /** sql: the notebook's time zone (IANA; default UTC), the engine's TimeZone. */
  timeZone?: string;
  /**
   * recent cells of format csv-wide: the reply's bytes go here unchanged (whole lines, retried until the
   * first byte is written) and the result's table stays empty.
   */
  csvOut?: Writable;
  /** With csvOut: an empty destination in its place, so a reply that broke after its first line is read again. */
  csvRestart?: () => Promise<Writable>;
  /** The notebook's parameter values for this run (`{{name}}` in query cells, `$name` in sql cells). */
  params?: ParamValues;
}

export type { RunResult } from './run-result';

export function tableSummary(table: Table): string {
  const r = table.rowCount;
  const c = table.columns.length;
  return `${r} row${r === 1 ? '' : 's'} × ${c} column${c === 1 ? '' : 's'}`;
}

/** Parses cell text for `service` (default real); throws CellError with the diagnostics when it has errors. */
export function parseCellOrThrow(
  text: string,
  now: Date,
  service?: ServiceKind,
  params?: ParamValues,
): { cell: ParsedCell; warnings: Diagnostic[] } {
  const parsed = parseCell(text, { now, service, params });
  if (!parsed.cell) throw new CellError(parsed.diagnostics);
  return { cell: parsed.cell, warnings: parsed.diagnostics };
}

export async function runCell(cell: ParsedCell | string, options: RunCellOptions): Promise<RunResult> {
  const { now } = options;
  let warnings: Diagnostic[] = options.warnings ?? [];
  if (typeof cell === 'string') ({ cell, warnings } = parseCellOrThrow(cell, now, options.service, options.params));
  const ran = await runParsed(cell, warnings, now, options);
  const used = cell.verb === 'sql' ? sqlParamNames(cell) : (cell.usedParams ?? []);
  const caption = options.params && paramsCaption(used, options.params, now);
  const result = caption ? { ...ran, parameters: caption } : ran;
  if (!cell.name) return result;
  options.sql?.hold(cell.name, heldResult(result));
  return { ...result, name: cell.name };
}

/** What a named result is to later sql cells: a finished report's files (read in place), else its table. */
function heldResult(result: RunResult): HeldResult {
  const files = result.report?.files ?? [];
  const format = files.length ? filesFormat(files) : undefined;
  if (format) return { kind: 'files', files, format };
  return { kind: 'table', table: result.table };
}

/** The `$name` parameters a sql cell's SQL names, once each. */
function sqlParamNames(cell: ParsedCell): string[] {
  return [...new Set(sqlParamReferences(cell.sql?.text ?? '').map((r) => r.name))];
}

/**
 * The values of a sql cell's `$name` parameters, to be bound; a name the notebook does not declare is the
 * cell's error (at its place) before the engine runs anything.
 */
function sqlParams(sql: { text: string; line: number }, options: RunCellOptions): Record<string, SqlParam> {
  const values = options.params ?? new Map();
  const unknown = unknownSqlParams(sql, values);
  if (unknown.length) throw new CellError(unknown);
  const out: Record<string, SqlParam> = {};
  for (const name of new Set(sqlParamReferences(sql.text).map((r) => r.name))) {
    const v = values.get(name);
    if (v) out[name] = v.type === 'time' ? { timestampMs: timeToMs(v.value, options.now) } : v.value;
  }
  return out;
}

async function runSql(
  sql: { text: string; line: number },
  warnings: Diagnostic[],
  options: RunCellOptions,
): Promise<RunResult> {
  const params = sqlParams(sql, options);
  const session = options.sql ?? new SqlSession();
  options.onProgress?.({ kind: 'request', message: 'Running the SQL…' });
  try {
    const table = await session.query(sql.text, {
      signal: options.signal,
      baseDir: options.baseDir,
      timeZone: options.timeZone,
      params,
    });
    return { verb: 'sql', table, summary: tableSummary(table), request: { sql: sql.text }, warnings };
  } catch (e) {
    if (e instanceof EngineQueryError) throw new CellError([engineErrorDiagnostic(e.engine, sql)]);
    throw e;
  } finally {
    if (!options.sql) session.dispose();
  }
}

async function runParsed(
  cell: ParsedCell,
  warnings: Diagnostic[],
  now: Date,
  options: RunCellOptions,
): Promise<RunResult> {
  const resolved = resolveCell(cell, { now, org: options.org });
  if (!resolved.resolved) throw new CellError(resolved.diagnostics);
  const r = resolved.resolved;
  switch (r.verb) {
    case 'sql':
      return runSql(r.sql, warnings, options);
    case 'datasources':
      return runDatasources(r.org, warnings, options);
    case 'params': {
      const table = paramsTable(cell.params ?? [], options.params ?? new Map(), now);
      return { verb: 'params', table, summary: tableSummary(table), request: {}, warnings };
    }
    case 'recent':
      return runRecent(r.request, warnings, options);
    case 'follow':
      return runFollow(r.request, warnings, now, options);
    case 'report': {
      const { client, signal, onProgress, downloadDir } = options;
      const out = await runReport(r.request, { client, signal, onProgress, downloadDir, wait: options.wait ?? true });
      const ordered = out.table && timeColumn(out.table) ? { table: inTimeOrder(out.table), rowOrder: ROW_ORDER } : {};
      return { verb: 'report', ...out, ...ordered, request: r.request, warnings };
    }
  }
}

type Resolved<V extends ResolvedCell['verb']> = Extract<ResolvedCell, { verb: V }>;

function progress(options: RunCellOptions, message: string): void {
  options.onProgress?.({ kind: 'request', message });
}

async function runDatasources(org: string, warnings: Diagnostic[], options: RunCellOptions): Promise<RunResult> {
  progress(options, `Listing the datasources of ${org}…`);
  const list = await options.client.listDatasources(org, { signal: options.signal });
  const table = datasourcesTable(list);
  return { verb: 'datasources', table, summary: tableSummary(table), request: { org }, warnings };
}

async function runRecent(
  request: Resolved<'recent'>['request'],
  warnings: Diagnostic[],
  options: RunCellOptions,
): Promise<RunResult> {
  const { client, signal } = options;
  progress(options, 'Running the recent query…');
  if (options.csvOut && request.format === 'csv-wide') {
    const { bytes } = await client.recentQueryCsv(request, options.csvOut, { signal, restart: options.csvRestart });
    const summary = `${bytes} bytes of CSV`;
    return { verb: 'recent', table: emptyTable(), summary, request, format: 'csv-wide', warnings, csvBytes: bytes };
  }
  const res = await client.recentQuery(request, { signal });
  // The reply comes newest first: shown in the one row order of time series (table-rows ROW_ORDER).
  const table = inTimeOrder(res.table);
  const rowOrder = timeColumn(table) ? ROW_ORDER : undefined;
  return { verb: 'recent', table, summary: tableSummary(table), rowOrder, request, format: res.format, warnings };
}

async function runFollow(
  request: Resolved<'follow'>['request'],
  warnings: Diagnostic[],
  now: Date,
  options: RunCellOptions,
): Promise<RunResult> {
  const { client, signal, followState } = options;
  progress(options, followState ? 'Fetching new measurements…' : 'Starting to follow…');
  const step = await followStep({ client, request, state: followState, now, signal });
  const n = step.table.rowCount;
  return {
    verb: 'follow',
    table: step.table,
    summary: `${n} new row${n === 1 ? '' : 's'} (${step.state.rowsSeen} since the start)`,
    rowOrder: ROW_ORDER,
    request,
    format: step.state.format,
    followState: step.state,
    followMode: step.mode,
    notice: step.notice,
    warnings,
  };
}
