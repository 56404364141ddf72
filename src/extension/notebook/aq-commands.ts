// Air-quality commands on a cell's result or a table file: Apply PM2.5 Correction (inserts the `sql` cell that
// computes the corrected column, method and coefficients in its comments) and Regulatory Statistics (over every
// row, by the SQL engine: the notebook's session holds each named result whole; a file is read in place), shown
// as a small table labelled indicative. The formulas and the SQL text live in core/aq.
import * as vscode from 'vscode';
import {
  CORRECTIONS,
  type CorrectionFit,
  type CorrectionMethod,
  correctionCell,
  correctionColumns,
  fitDatesText,
  fitLinear,
  fitPairsSql,
  fitWithRh,
  parseFitDates,
} from '../../core/aq/corrections';
import { offsetText, oneDatasourceText, standardOffsetMinutes } from '../../core/aq/regulatory';
import { parseMetricLabel } from '../../core/metrics/labels';
import { LANGUAGE_ID } from '../../core/query';
import { parseCell } from '../../core/query/parse';
import type { SqlSession } from '../../core/sql/session.node';
import {
  type RunSql,
  type StatisticsOutcome,
  type StatisticsRequest,
  statisticsOf,
  timeColumnOf,
  withFileEngine,
} from '../../core/sql/statistics.node';
import { type Column, cellText, floatValues, isNumeric, type Table } from '../../core/table/table';
import { quoteIdent } from '../../core/text/sql-text';
import type { TablePanels } from '../table/table-panel';
import { pickOne } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';
import { NOTEBOOK_TYPE } from './serializer';
import type { SqlSessions } from './sql-sessions';

export const APPLY_CORRECTION_COMMAND = 'measurements.notebook.applyCorrection';
export const REGULATORY_STATISTICS_COMMAND = 'measurements.regulatoryStatistics';

/** What a test (or a script) passes instead of answering the quick picks. */
interface CorrectionArgs {
  cell?: vscode.NotebookCell;
  method?: CorrectionMethod;
  pmColumn?: string;
  rhColumn?: string;
  /** Empty: every datasource. */
  datasources?: string[];
  fit?: { sensor: string; reference: string; referenceColumn: string; fromMs?: number; toMs?: number };
}

interface StatisticsArgs {
  cell?: vscode.NotebookCell;
  file?: vscode.Uri;
  metric?: string;
  datasource?: string;
  year?: number;
  quarter?: number;
  timeZone?: string;
}

/** A code cell's named result in its notebook's session; a clear error when it has none yet. */
function namedResult(cell: vscode.NotebookCell, sql: SqlSessions, now: Date): { name: string; session: SqlSession } {
  if (cell.notebook.notebookType !== NOTEBOOK_TYPE || cell.kind !== vscode.NotebookCellKind.Code)
    throw new Error('Select a code cell of a Measurements notebook.');
  const name = parseCell(cell.document.getText(), { now }).cell?.name;
  if (!name) throw new Error("Name the cell's result first (e.g. `recent as pm`), run it, then try again.");
  const session = sql.for(cell.notebook);
  if (!session.get(name)) throw new Error(`Run the cell first: its result '${name}' is not held yet.`);
  return { name, session };
}

function selectedCell(arg: unknown): vscode.NotebookCell | undefined {
  if (arg && typeof arg === 'object' && 'notebook' in arg && 'document' in arg) return arg as vscode.NotebookCell;
  const editor = vscode.window.activeNotebookEditor;
  return editor?.notebook.cellCount ? editor.notebook.cellAt(editor.selection.start) : undefined;
}

const column = (t: Table, name: string): Column | undefined => t.columns.find((c) => c.name === name);
const textsOf = (t: Table, name: string) => {
  const c = column(t, name);
  return c ? Array.from({ length: t.rowCount }, (_, i) => cellText(c, i)) : [];
};

async function pick<T extends string>(items: readonly T[], title: string, describe?: (x: T) => string): Promise<T> {
  const picked = await vscode.window.showQuickPick(
    items.map((label) => ({ label, description: describe?.(label) })),
    { title },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.label as T;
}

/** The datasource ids of a result, from the engine (every row, not the rows a view holds). */
async function datasourcesOf(session: SqlSession, name: string): Promise<string[]> {
  const t = await session.query(`SELECT DISTINCT "datasourceId" AS ds FROM ${quoteIdent(name)} ORDER BY ds LIMIT 5000`);
  return textsOf(t, 'ds').filter((d) => d !== '');
}

/** The fit's coefficients over every paired row of the result (the chosen dates). */
async function fitOver(
  session: SqlSession,
  name: string,
  a: Required<Pick<CorrectionArgs, 'fit'>>['fit'],
  method: CorrectionMethod,
  pm: string,
  rh?: string,
): Promise<CorrectionFit & { fittedOn: string }> {
  const sql = fitPairsSql({
    from: quoteIdent(name),
    timeColumn: 'time',
    datasourceColumn: 'datasourceId',
    sensor: a.sensor,
    reference: a.reference,
    sensorColumn: pm,
    referenceColumn: a.referenceColumn,
    rhColumn: method === 'fitrh' ? rh : undefined,
    fromMs: a.fromMs,
    toMs: a.toMs,
  });
  const t = await session.query(sql);
  const values = (n: string) => {
    const c = column(t, n);
    return c && isNumeric(c) ? floatValues(c) : new Float64Array();
  };
  const fit =
    method === 'fitrh' ? fitWithRh(values('x'), values('rh'), values('y')) : fitLinear(values('x'), values('y'));
  if (!(fit.n >= 3) || !Number.isFinite(fit.b))
    throw new Error(`Too few paired rows to fit (${fit.n}) between ${a.sensor} and ${a.reference}.`);
  const dates = fitDatesText(a.fromMs, a.toMs);
  return {
    ...fit,
    fittedOn: `${a.sensor} (x: ${pm}) against reference ${a.reference} (y: ${a.referenceColumn}), ${dates}`,
  };
}

/** The dates a fit is made on, asked (empty: all dates). */
async function askFitDates(): Promise<{ fromMs?: number; toMs?: number }> {
  const text = await vscode.window.showInputBox({
    title: 'Fit on which dates? (UTC days)',
    prompt: 'YYYY-MM-DD..YYYY-MM-DD, both included; empty: every date of the result',
    validateInput: (v) => {
      const r = parseFitDates(v);
      return 'error' in r ? r.error : undefined;
    },
  });
  if (text === undefined) throw new vscode.CancellationError();
  const r = parseFitDates(text);
  return 'error' in r ? {} : r;
}

/** Asks for what the arguments leave out: method, columns, datasources, and a fit's pair. */
async function correctionChoices(args: CorrectionArgs, session: SqlSession, name: string) {
  const names = await session.columns(name);
  const cols = correctionColumns(names);
  if (!cols.pm.length) throw new Error(`'${name}' has no PM2.5 mass concentration column to correct.`);
  const method =
    args.method ??
    (await pick(Object.keys(CORRECTIONS) as CorrectionMethod[], 'Correction method', (m) => CORRECTIONS[m].label));
  const pmColumn = args.pmColumn ?? (await pick(cols.pm, 'PM2.5 column (the raw value where the method needs raw)'));
  const needsRh = CORRECTIONS[method].needsRh;
  if (needsRh && !cols.rh.length && !args.rhColumn)
    throw new Error(`'${name}' has no relative humidity column: ${CORRECTIONS[method].label} needs one.`);
  const rhColumn = needsRh
    ? (args.rhColumn ?? (await pick(cols.rh, 'Relative humidity column (same datasource, same row)')))
    : undefined;
  const all = names.includes('datasourceId') ? await datasourcesOf(session, name) : [];
  const datasources =
    args.datasources ??
    (all.length
      ? ((await vscode.window.showQuickPick(all, {
          title: 'Apply to which datasources? (none picked: all)',
          canPickMany: true,
        })) ?? [])
      : []);
  let fit: (CorrectionFit & { fittedOn: string }) | undefined;
  if (method === 'fit' || method === 'fitrh') {
    if (!all.length) throw new Error(`A fit pairs a sensor with a reference: '${name}' has no datasourceId column.`);
    const pair = args.fit ?? {
      sensor: await pick(all, 'Fit on which sensor?'),
      reference: await pick(all, 'Against which reference?'),
      referenceColumn: await pick(
        cols.pm.filter((c) => !c.endsWith('.raw')).concat(cols.pm.filter((c) => c.endsWith('.raw'))),
        "The reference's PM2.5 column",
      ),
      ...(await askFitDates()),
    };
    fit = await fitOver(session, name, pair, method, pmColumn, rhColumn);
  }
  return { method, pmColumn, rhColumn, datasources, fit };
}

/** Inserts the correction cell after the result's cell; resolves with the inserted cell. */
async function applyCorrection(deps: AqDeps, arg?: unknown): Promise<vscode.NotebookCell | undefined> {
  const args: CorrectionArgs = arg && typeof arg === 'object' && !('document' in arg) ? (arg as CorrectionArgs) : {};
  const cell = args.cell ?? selectedCell(arg);
  if (!cell) throw new Error('Select the cell whose result to correct.');
  const { name, session } = namedResult(cell, deps.sql, deps.now());
  try {
    const c = await correctionChoices(args, session, name);
    const text = correctionCell({ ...c, input: { result: name } });
    const edit = new vscode.WorkspaceEdit();
    const at = cell.index + 1;
    edit.set(cell.notebook.uri, [
      vscode.NotebookEdit.insertCells(at, [
        new vscode.NotebookCellData(vscode.NotebookCellKind.Code, text, LANGUAGE_ID),
      ]),
    ]);
    await vscode.workspace.applyEdit(edit);
    return cell.notebook.cellAt(at);
  } catch (e) {
    if (e instanceof vscode.CancellationError) return undefined;
    throw e;
  }
}

/** The time zone statistics days are in: the notebook's (metadata `timeZone`), else the user setting, else UTC. */
function timeZoneFor(notebook?: vscode.NotebookDocument): string {
  const meta = notebook?.metadata?.timeZone;
  if (typeof meta === 'string' && meta) return meta;
  const setting = vscode.workspace.getConfiguration('measurements').get<unknown>('timeZone');
  return typeof setting === 'string' && setting ? setting : 'UTC';
}

/** What the data holds: its metric columns and years (from the engine, over every row). */
async function statisticsChoices(args: StatisticsArgs, run: (sql: string) => Promise<Table>, from: string) {
  const names = (await run(`SELECT * FROM ${from} LIMIT 0`)).columns.map((c) => c.name);
  const metrics = names.filter((n) => {
    const p = parseMetricLabel(n);
    return p && !p.index && (!p.field || p.field === 'value');
  });
  const metric =
    args.metric ??
    (await pick(
      metrics.map((m) => m.replace(/\.value$/, '')),
      'Metric',
    ));
  const ids = names.includes('datasourceId')
    ? textsOf(await run(`SELECT DISTINCT "datasourceId" AS ds FROM ${from} ORDER BY ds LIMIT 5000`), 'ds')
    : [];
  // One datasource (or none named): nothing to ask.
  const datasource = args.datasource ?? (ids.length > 1 ? await pickDatasource(ids) : ids[0]);
  // A report's startOfPeriod (ISO text in its Parquet) as instants, as the statistics read it.
  const time = `CAST(${quoteIdent(timeColumnOf(names))} AS TIMESTAMPTZ)`;
  const years = textsOf(await run(`SELECT DISTINCT year(${time})::VARCHAR AS y FROM ${from} ORDER BY y DESC`), 'y');
  const year = args.year ?? Number(await pick(years, 'Year'));
  const quarter =
    args.quarter ??
    (args.year !== undefined
      ? undefined
      : quarterOf(await pick(['Whole year', 'Q1', 'Q2', 'Q3', 'Q4'], 'Year or quarter')));
  return { metric, datasource, year, quarter };
}

/** The datasource the statistics are of: the core's reason, and the pick's own hint. */
async function pickDatasource(ids: readonly string[]): Promise<string> {
  const placeholder = `${oneDatasourceText(ids.slice(0, 5), ids.length > 5)} Pick one.`;
  const picked = await pickOne(
    ids.map((label) => ({ label })),
    { title: 'Datasource', placeholder },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.label;
}

const quarterOf = (label: string) => (label.startsWith('Q') ? Number(label.slice(1)) : undefined);

/** Runs the statistics over a cell's result (its session) or a file; shows the small table with its label. */
async function regulatoryStatistics(deps: AqDeps, arg?: unknown): Promise<StatisticsOutcome | undefined> {
  const args: StatisticsArgs =
    arg instanceof vscode.Uri ? { file: arg } : arg && typeof arg === 'object' && !('document' in arg) ? arg : {};
  const file = args.file ?? (args.cell ? undefined : activeTableFile());
  const over = async (run: RunSql, from: string, zone: string, source: string) => {
    const c = await statisticsChoices(args, run, from);
    return showStatistics(deps.tables, await statisticsOf(run, from, request(c, zone)), c, zone, source);
  };
  try {
    if (file) {
      const zone = args.timeZone ?? timeZoneFor();
      return await withFileEngine(file.fsPath, (run, from) => over(run, from, zone, file.path.split('/').pop() ?? ''));
    }
    const cell = args.cell ?? selectedCell(arg);
    if (!cell) throw new Error('Select a cell with a named result, or open a table file.');
    const { name, session } = namedResult(cell, deps.sql, deps.now());
    const zone = args.timeZone ?? timeZoneFor(cell.notebook);
    return await over((q) => session.query(q), quoteIdent(name), zone, `'${name}'`);
  } catch (e) {
    if (e instanceof vscode.CancellationError) return undefined;
    throw e;
  }
}

function request(
  c: { metric: string; datasource?: string; year: number; quarter?: number },
  zone: string,
): StatisticsRequest {
  return {
    metric: c.metric,
    datasource: c.datasource,
    period: { year: c.year, quarter: c.quarter, offsetMinutes: standardOffsetMinutes(zone, c.year) },
  };
}

function showStatistics(
  tables: TablePanels,
  out: StatisticsOutcome,
  c: { year: number; quarter?: number },
  zone: string,
  source: string,
): StatisticsOutcome {
  const offset = standardOffsetMinutes(zone, c.year);
  const title = `Regulatory statistics · ${out.valueColumn}${out.datasource ? ` · ${out.datasource}` : ''} · ${c.year}${c.quarter ? ` Q${c.quarter}` : ''}`;
  const notes = [
    ...out.notes,
    `every row of ${source}; days in local standard time of ${zone} (UTC${offsetText(offset)})`,
  ];
  tables.show(title, out.table, { title, notes });
  return out;
}

/** The file of the active Measurements Table editor (a custom editor's tab), if any. */
function activeTableFile(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputCustom && /\.(csv|csv\.gz|parquet)$/i.test(input.uri.path)) return input.uri;
  return undefined;
}

/** The notebooks' SQL sessions, the table panels, and the controller's clock (a cell's relative times). */
interface AqDeps {
  sql: SqlSessions;
  tables: TablePanels;
  now: () => Date;
}

export function registerAqCommands(deps: AqDeps): vscode.Disposable[] {
  return [
    registerCommand(APPLY_CORRECTION_COMMAND, (arg?: unknown) => applyCorrection(deps, arg)),
    registerCommand(REGULATORY_STATISTICS_COMMAND, (arg?: unknown) => regulatoryStatistics(deps, arg)),
  ];
}
