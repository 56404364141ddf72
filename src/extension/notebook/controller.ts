// Runs measq cells against the notebook's connection: execution order, timing, cancellation (the
// request is aborted; rows that arrived are kept and marked partial), readable error outputs.
// follow cells keep their cursor in workspace state; `every` polls until cancelled; report cells show
// live progress, then their files as a table, and join the Reports view.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { followEvery } from '../../core/follow/every';
import { MIME } from '../../core/notebook';
import { chartChoiceOf, type ResultInfo } from '../../core/notebook/renderer-protocol';
import type { NotebookZone } from '../../core/notebook/time-zone';
import { type Diagnostic, type ParsedCell, parseCell } from '../../core/query';
import type { ParamValues } from '../../core/query/params';
import type { RunCellOptions, RunResult } from '../../core/run/index.node';
import { resultTitle, runCell } from '../../core/run/index.node';
import { connectionResultInfoWithin } from '../../core/run/outputs';
import { headRowCount, sliceRows } from '../../core/table/row-chunks';
import type { Table } from '../../core/table/table';
import { decodeTable, encodedTableBytes } from '../../core/table/wire';
import { serviceKindOf } from '../connections/connection';
import type { ReportObservation, ReportPolls } from '../reports/report-watcher';
import type { ExtensionServices } from '../services';
import { isTrusted, offerTrust, restrictedMessage } from '../trust';
import { CellWriter, fileName, type RenderedTable } from './cell-writer';
import type { FollowStore } from './follow-store';
import type { NotebookConnections } from './notebook-connection';
import { withZone, zoneOfNotebook } from './notebook-time-zone';
import { type ReportRef, tableOutput } from './outputs';
import { ProgressiveResults, restKeyOf } from './progressive-results';
import { ResultStore } from './result-store';
import { runParamValues } from './run-with-params';
import { NOTEBOOK_TYPE } from './serializer';
import { csvFallbackMaxRows, outputHeadBytes, savedOutputLimitBytes } from './settings';
import type { SqlSessions } from './sql-sessions';

export { progressText } from './cell-writer';

export const CONTROLLER_ID = 'measnb-controller';
/** How long a result's output waits for the connection's datasources (reference sites) before it shows without. */
const REFERENCE_LOOKUP_MS = 3000;

/** A table output the controller is handing to the workbench (its clock's time; tests and the benchmark). */
export interface TableHandOver {
  cell: vscode.NotebookCell;
  atMs: number;
  itemBytes: number;
  rowCount: number;
}

interface ControllerDeps {
  services: ExtensionServices;
  connections: NotebookConnections;
  follow: FollowStore;
  /** The core's one cell executor (tests may wrap it). */
  run?: typeof runCell;
  /** Where report files and over-limit full results go. */
  storageUri: vscode.Uri;
  /** The notebooks' SQL sessions (named results, the engine of sql cells). */
  sql: SqlSessions;
  /** The Reports view's watcher: it observes the reports cells poll, so each report has one poller. */
  reportPolls?: ReportPolls;
}

export class MeasnbController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  private order = 0;
  /** The parameter values of a Run with Parameters… under way, by notebook (else a run uses the defaults). */
  private readonly runValues = new WeakMap<vscode.NotebookDocument, ParamValues>();
  /** Cells running now (their outputs are not relabelled under them). */
  private readonly runningCells = new Set<vscode.NotebookCell>();
  /** Full results of over-limit outputs, one file per cell. */
  readonly results: ResultStore;
  /** The rows of progressive outputs (items with only the first rows), for the renderer's rows-requests. */
  readonly progressive: ProgressiveResults;
  private readonly handOver = new vscode.EventEmitter<TableHandOver>();
  /** Fires as a table output is handed to the workbench (before its full-result file is written). */
  readonly onDidHandOverTable = this.handOver.event;

  constructor(private readonly deps: ControllerDeps) {
    this.results = new ResultStore(vscode.Uri.joinPath(deps.storageUri, 'results'), (cell) => this.cellId(cell));
    this.progressive = new ProgressiveResults((cell) => this.results.fileOfCell(cell));
    this.controller = vscode.notebooks.createNotebookController(CONTROLLER_ID, NOTEBOOK_TYPE, 'Measurements');
    this.controller.supportedLanguages = ['measq'];
    this.controller.supportsExecutionOrder = true;
    this.controller.description = "Runs measq cells against the notebook's connection";
    this.controller.executeHandler = (cells, notebook) => this.execute(cells, notebook, this.runValues.get(notebook));
  }

  /** The services' clock: relative times, execution times, follow waits (host tests set it). */
  private get clock() {
    return this.deps.services.clock;
  }

  /**
   * Runs cells with the notebook's parameter values: its params cell's defaults unless `params` (Run with
   * Parameters…) gives this run's.
   */
  private async execute(
    cells: vscode.NotebookCell[],
    notebook: vscode.NotebookDocument,
    params: ParamValues | undefined,
  ): Promise<void> {
    // Restricted Mode: no cell runs, and the outputs saved in the notebook stay as they are.
    if (!isTrusted()) return void offerTrust(restrictedMessage('Running cells'));
    const values = params ?? runParamValues(notebook);
    for (const cell of cells) await this.runCell(cell, notebook, values);
  }

  /**
   * Run All with these parameter values (Run with Parameters…): VS Code's own Run All (it asks for the kernel
   * when none is selected yet), whose run takes the values instead of the defaults.
   */
  async runAll(notebook: vscode.NotebookDocument, params: ParamValues): Promise<void> {
    this.runValues.set(notebook, params);
    try {
      await vscode.commands.executeCommand('notebook.execute', notebook.uri);
    } finally {
      this.runValues.delete(notebook);
    }
  }

  private async cellId(cell: vscode.NotebookCell): Promise<string> {
    const existing = cell.metadata?.id;
    // A copied cell keeps its original's id: it gets its own before it shares a result file or follow state.
    const shared = cell.notebook.getCells().some((c) => c.index !== cell.index && c.metadata?.id === existing);
    if (typeof existing === 'string' && existing && !shared) return existing;
    const id = `c${this.clock.nowMs().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const edit = new vscode.WorkspaceEdit();
    edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, id })]);
    await vscode.workspace.applyEdit(edit);
    return id;
  }

  /**
   * The notebook's table outputs told its new zone (ResultInfo.timeZone): each is handed over again with the
   * same items, and the cell keeps its execution order, timing and success. Cells running now are left alone.
   */
  async relabelOutputs(notebook: vscode.NotebookDocument, zone: NotebookZone): Promise<void> {
    for (const cell of notebook.getCells()) {
      const tables = cell.outputs.filter((o) => o.items.some((i) => i.mime === MIME.table));
      if (!tables.length || this.runningCells.has(cell)) continue;
      const summary = cell.executionSummary;
      let exec: vscode.NotebookCellExecution;
      try {
        exec = this.controller.createNotebookCellExecution(cell);
      } catch {
        return; // another kernel is selected: the outputs take the zone when their cells run again
      }
      exec.executionOrder = summary?.executionOrder;
      exec.start(summary?.timing?.startTime);
      await exec.replaceOutput(
        cell.outputs.map((o) => {
          if (!tables.includes(o)) return o;
          const info = (o.metadata?.measnb ?? {}) as ResultInfo;
          return new vscode.NotebookCellOutput(o.items, { ...o.metadata, measnb: withZone(info, zone) });
        }),
      );
      exec.end(summary?.success, summary?.timing?.endTime);
    }
  }

  private async runCell(
    cell: vscode.NotebookCell,
    notebook: vscode.NotebookDocument,
    params: ParamValues,
  ): Promise<void> {
    this.runningCells.add(cell);
    const exec = this.controller.createNotebookCellExecution(cell);
    exec.executionOrder = ++this.order;
    exec.start(this.clock.nowMs());
    const abort = new AbortController();
    const sub = exec.token.onCancellationRequested(() => abort.abort());
    let success = false;
    try {
      success = await this.runInto(exec, cell, notebook, abort.signal, params);
    } finally {
      sub.dispose();
      this.runningCells.delete(cell);
      exec.end(success, this.clock.nowMs());
    }
  }

  private async runInto(
    exec: vscode.NotebookCellExecution,
    cell: vscode.NotebookCell,
    notebook: vscode.NotebookDocument,
    signal: AbortSignal,
    params: ParamValues,
  ): Promise<boolean> {
    // What the metric catalogue does not know blocks only the emulator's cells; a real service decides.
    const service = serviceKindOf(this.deps.connections.connectionFor(notebook));
    const parsed = parseCell(cell.document.getText(), { now: this.clock.now(), service, params });
    const isFollow = parsed.cell?.verb === 'follow';
    // follow appends to what the cell already shows; other verbs replace it.
    const out = new CellWriter(
      exec,
      (t, info, report) => this.output(t, info, cell, report),
      isFollow ? await this.previousTable(cell) : undefined,
    );
    if (!parsed.cell) {
      await out.diagnostics(parsed.diagnostics);
      return false;
    }
    try {
      const given = { cell: parsed.cell, warnings: parsed.diagnostics, params };
      const step = await this.stepper(given, cell, notebook, signal, out);
      if (isFollow) return await this.runFollow(parsed.cell, notebook, step, out, signal);
      const outcome = await step();
      await out.result(outcome, resultTitle(outcome, parsed.cell.reportKind));
      return true;
    } catch (err) {
      await out.failure(err, signal.aborted);
      return false;
    }
  }

  /** One run of the cell through the core (a follow cell: one step, its cursor kept in workspace state). */
  private async stepper(
    { cell: parsed, warnings, params }: { cell: ParsedCell; warnings: Diagnostic[]; params: ParamValues },
    cell: vscode.NotebookCell,
    notebook: vscode.NotebookDocument,
    signal: AbortSignal,
    out: CellWriter,
  ): Promise<() => Promise<RunResult>> {
    const { client, org, connection } = await this.deps.connections.clientFor(notebook);
    const downloadDir = vscode.Uri.joinPath(this.deps.storageUri, 'reports').fsPath;
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(downloadDir));
    const cellId = parsed.verb === 'follow' ? await this.cellId(cell) : '';
    const run = this.deps.run ?? runCell;
    let polled: ReportObservation | undefined;
    const options = (): RunCellOptions => ({
      client,
      org,
      signal,
      now: this.clock.now(),
      warnings,
      followState: cellId ? this.deps.follow.get(notebook.uri, cellId) : undefined,
      downloadDir,
      sql: this.deps.sql.for(notebook),
      params,
      baseDir: notebook.uri.scheme === 'file' ? path.dirname(notebook.uri.fsPath) : undefined,
      timeZone: zoneOfNotebook(notebook).name,
      onProgress: (p) => {
        if (p.kind === 'report-created') {
          // Observed before it is tracked: the Reports view's watcher never starts a second poller.
          polled = this.deps.reportPolls?.observe(connection.id, p.reportId);
          void this.trackCreated(p.reportId, parsed, connection.id);
        }
        if (p.kind === 'report-status' && p.record) void polled?.seen(p.record);
        out.progress(p);
      },
    });
    return async () => {
      let outcome: RunResult;
      try {
        outcome = await run(parsed, options());
        if (outcome.report) await this.trackFinished(outcome.report, connection.id);
      } finally {
        // The cell's poller is done: a report still open (the cell was cancelled) is the watcher's again.
        polled?.end();
      }
      let report: ReportRef | undefined;
      if (outcome.report) report = { connectionId: connection.id, reportId: outcome.report.record.reportId };
      if (outcome.followState) await this.deps.follow.set(notebook.uri, cellId, outcome.followState);
      out.noteOutcome(outcome, report);
      return outcome;
    };
  }

  /** A follow cell: one step, or with `every` the core's follow loop until cancelled. */
  private async runFollow(
    parsed: ParsedCell,
    notebook: vscode.NotebookDocument,
    step: () => Promise<RunResult>,
    out: CellWriter,
    signal: AbortSignal,
  ): Promise<boolean> {
    let title: string = parsed.verb;
    const end = await followEvery({
      clock: this.clock,
      signal,
      everyMs: parsed.every?.ms,
      step,
      deliver: async (outcome, nextAt) => {
        title = resultTitle(outcome, parsed.reportKind);
        const shown = await out.followStep(outcome, title, this.clock.now(), nextAt);
        // A named follow is, to sql cells, everything the cell shows (not only this step's rows).
        if (parsed.name) this.deps.sql.for(notebook).hold(parsed.name, { kind: 'table', table: shown });
      },
      onTransientError: (e, retryAt) => void out.followRetry(e, title, retryAt),
    });
    if (end.cancelled) await out.followStopped(title);
    return true;
  }

  /** A report shows in the Reports view as soon as it exists (its watcher then follows its status). */
  private async trackCreated(reportId: string, cell: ParsedCell, connectionId: string): Promise<void> {
    await this.deps.services.reports.track(
      {
        reportId,
        reportStatus: 'in-progress',
        message: 'in-progress',
        report: cell.reportKind ?? '',
        urls: [],
        query: {},
      },
      connectionId,
      'cell',
    );
  }

  /** A finished report in the Reports view, its files known there as downloaded (where this cell put them). */
  private async trackFinished(r: NonNullable<RunResult['report']>, connectionId: string): Promise<void> {
    const reports = this.deps.services.reports;
    await reports.track(r.record, connectionId, 'cell');
    await reports.update(connectionId, r.record.reportId, (t) => ({
      ...t,
      files: t.files.map((f) => {
        const local = r.files.find((p) => fileName(p) === f.name);
        return local ? { ...f, localPath: local } : f;
      }),
    }));
  }

  /**
   * The table output. A result over the saved-output limit also goes to the cell's one full-result file,
   * written after the output is handed over (its path is known before). A result over the head size
   * (measurements.notebook.outputHeadMB) is a progressive output: the item holds its first rows, the rest
   * is asked for by the renderer (progressive-results), and the full-result file is written for it too.
   */
  private async output(
    table: Table,
    info: ResultInfo,
    cell: vscode.NotebookCell,
    report?: ReportRef,
  ): Promise<RenderedTable> {
    const bytes = encodedTableBytes(table);
    const headRows = headRowCount(table, outputHeadBytes());
    const progressive = headRows < table.rowCount;
    const file = progressive || bytes > savedOutputLimitBytes() ? await this.results.target(cell) : undefined;
    const fromDirectory = await this.referenceSites(table, cell.notebook);
    // The chart starts on the cell's last choice and tells it back under the cell's id (chart-choice.ts).
    const chart = chartChoiceOf(cell.metadata?.chart);
    const cellInfo: ResultInfo = { ...info, cellId: await this.cellId(cell), ...(chart ? { chart } : {}) };
    let withRefs: ResultInfo = withZone(
      fromDirectory ? { ...cellInfo, ...fromDirectory } : cellInfo,
      zoneOfNotebook(cell.notebook),
    );
    if (progressive) {
      const key = this.progressive.hold(table);
      withRefs = { ...withRefs, rest: { key, totalRows: table.rowCount, headRows } };
    }
    const output = tableOutput(table, {
      info: withRefs,
      csvMaxRows: csvFallbackMaxRows(),
      fullResultId: file && this.results.idOf(file),
      report,
      head: progressive ? { rows: sliceRows(table, 0, headRows), resultBytes: bytes } : undefined,
    });
    const itemBytes = output.items[0]?.data.byteLength ?? 0;
    this.handOver.fire({ cell, atMs: this.clock.nowMs(), itemBytes, rowCount: table.rowCount });
    return { output, afterShown: file ? () => this.results.writeTo(file, table) : undefined };
  }

  /** What a follow cell showed: the held result of a progressive output, else the table in its item. */
  private async previousTable(cell: vscode.NotebookCell): Promise<Table | undefined> {
    for (const output of cell.outputs) {
      const key = restKeyOf(output);
      const held = key ? await this.progressive.table(key) : undefined;
      if (held) return held;
    }
    return previousTable(cell);
  }

  /**
   * The result's datasource names and, without a sourceType column (json-long), its reference sites, from the
   * connection's datasources (kept for a while); undefined when that is not known in time.
   */
  private referenceSites(table: Table, notebook: vscode.NotebookDocument): Promise<ResultInfo | undefined> {
    // Unknown in time: the renderer falls back to a sourceType column.
    const list = () => this.deps.connections.datasources(notebook).list();
    return connectionResultInfoWithin(table, list, REFERENCE_LOOKUP_MS);
  }

  dispose(): void {
    this.results.dispose();
    this.handOver.dispose();
    this.progressive.dispose();
    this.controller.dispose();
  }
}

function previousTable(cell: vscode.NotebookCell): Table | undefined {
  for (const output of cell.outputs) {
    const item = output.items.find((i) => i.mime === MIME.table);
    if (!item) continue;
    try {
      return decodeTable(item.data);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
