// Runs measq cells against the notebook's connection: execution order, timing, cancellation (the
// request is aborted; rows that arrived are kept and marked partial), readable error outputs.
// follow cells keep their cursor in workspace state; `every` polls until cancelled; report cells show
// live progress, then their files as a table, and join the Reports view.
import * as vscode from 'vscode';
import { MeasurementsError } from '../../core/api/errors';
import { MIME } from '../../core/notebook';
import { type ParsedCell, parseCell } from '../../core/query';
import { CellError, type RunProgress, type RunResult, runCell } from '../../core/run';
import { concatTables } from '../../core/run/table-rows';
import type { Table } from '../../core/table/table';
import { decodeTable, encodeTable } from '../../core/table/wire';
import type { ResultInfo } from '../../renderer/protocol';
import type { ExtensionServices } from '../services';
import type { FollowStore } from './follow-store';
import type { NotebookConnections } from './notebook-connection';
import { diagnosticsOutput, errorOutput, tableOutput, textOutput } from './outputs';
import { ResultStore } from './result-store';
import { NOTEBOOK_TYPE } from './serializer';
import { csvFallbackMaxRows, savedOutputLimitBytes } from './settings';

export const CONTROLLER_ID = 'measnb-controller';

export interface ControllerDeps {
  services: ExtensionServices;
  connections: NotebookConnections;
  follow: FollowStore;
  /** The core's one cell executor (tests may wrap it). */
  run?: typeof runCell;
  /** Where report files and over-limit full results go. */
  storageUri: vscode.Uri;
  /** Waits between `every` polls; tests replace it (no real waiting in tests). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

const fmtTime = (d: Date) =>
  d
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace('T', ' ');
function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** The live line of a running cell: for reports the status, the time elapsed and the next check. */
export function progressText(p: RunProgress): string {
  switch (p.kind) {
    case 'report-created':
      return `Report ${p.reportId} created: in-progress`;
    case 'report-status': {
      const next = p.nextCheckMs !== undefined ? ` · next check in ${fmtDuration(p.nextCheckMs)}` : '';
      return `Report ${p.reportId}: ${p.status} · ${fmtDuration(p.elapsedMs)} elapsed${next}`;
    }
    case 'download':
      return `Report ${p.reportId}: downloading file ${p.index + 1} of ${p.total} (${p.file})`;
    default:
      return p.message;
  }
}

export class MeasnbController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  /** The clock relative times resolve against (tests align it with an emulator's controlled clock). */
  now: () => Date = () => new Date();
  private order = 0;
  /** Full results of over-limit outputs, one file per cell. */
  readonly results: ResultStore;

  constructor(private readonly deps: ControllerDeps) {
    this.results = new ResultStore(vscode.Uri.joinPath(deps.storageUri, 'results'), (cell) => this.cellId(cell));
    this.controller = vscode.notebooks.createNotebookController(CONTROLLER_ID, NOTEBOOK_TYPE, 'Measurements');
    this.controller.supportedLanguages = ['measq'];
    this.controller.supportsExecutionOrder = true;
    this.controller.description = "Runs measq cells against the notebook's connection";
    this.controller.executeHandler = (cells, notebook) => this.execute(cells, notebook);
  }

  private async execute(cells: vscode.NotebookCell[], notebook: vscode.NotebookDocument): Promise<void> {
    for (const cell of cells) await this.runCell(cell, notebook);
  }

  private async cellId(cell: vscode.NotebookCell): Promise<string> {
    const existing = cell.metadata?.id;
    if (typeof existing === 'string' && existing) return existing;
    const id = `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const edit = new vscode.WorkspaceEdit();
    edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, id })]);
    await vscode.workspace.applyEdit(edit);
    return id;
  }

  private async runCell(cell: vscode.NotebookCell, notebook: vscode.NotebookDocument): Promise<void> {
    const exec = this.controller.createNotebookCellExecution(cell);
    exec.executionOrder = ++this.order;
    exec.start(Date.now());
    const abort = new AbortController();
    const sub = exec.token.onCancellationRequested(() => abort.abort());
    let success = false;
    try {
      success = await this.runInto(exec, cell, notebook, abort.signal);
    } finally {
      sub.dispose();
      exec.end(success, Date.now());
    }
  }

  private async runInto(
    exec: vscode.NotebookCellExecution,
    cell: vscode.NotebookCell,
    notebook: vscode.NotebookDocument,
    signal: AbortSignal,
  ): Promise<boolean> {
    const text = cell.document.getText();
    const parsed = parseCell(text);
    if (!parsed.cell) {
      await exec.replaceOutput([diagnosticsOutput(parsed.diagnostics)]);
      return false;
    }
    const verb = parsed.cell.verb;
    const isFollow = verb === 'follow';
    const cellId = isFollow ? await this.cellId(cell) : '';
    // follow appends to what the cell already shows; other verbs replace it.
    let shown: Table | undefined = isFollow ? previousTable(cell) : undefined;
    let newThisRun = 0;
    const notes: string[] = [];
    // Output changes go one after the other: progress lines must not overtake the result.
    let queue: Promise<unknown> = Promise.resolve();
    const replace = (outputs: vscode.NotebookCellOutput[]) => {
      queue = queue.then(() => exec.replaceOutput(outputs)).catch(() => undefined);
      return queue;
    };
    const update = async (info: ResultInfo) => {
      if (shown) await replace([await this.output(shown, info, cell)]);
    };
    try {
      const { client, org, connection } = await this.deps.connections.clientFor(notebook);
      const downloadDir = vscode.Uri.joinPath(this.deps.storageUri, 'reports').fsPath;
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(downloadDir));
      const run = this.deps.run ?? runCell;
      for (;;) {
        const outcome: RunResult = await run(parsed.cell, {
          client,
          org,
          signal,
          now: this.now(),
          followState: isFollow ? this.deps.follow.get(notebook.uri, cellId) : undefined,
          downloadDir,
          onProgress: (p) => {
            if (p.kind === 'report-created') void this.trackCreated(p.reportId, parsed.cell!, connection.id);
            if (!shown) void replace([textOutput(progressText(p))]);
          },
        });
        const title = `${verb}${parsed.cell.reportKind ? ` ${parsed.cell.reportKind}` : ''} · ${outcome.summary}`;
        if (outcome.report) await this.deps.services.reports.track(outcome.report.record, connection.id);
        if (outcome.followState) await this.deps.follow.set(notebook.uri, cellId, outcome.followState);
        if (outcome.notice) notes.push(outcome.notice);
        for (const w of outcome.warnings) notes.push(`warning: line ${w.range.start.line + 1}: ${w.message}`);
        if (isFollow) {
          const everyMs = parsed.cell.every?.ms;
          newThisRun += outcome.table.rowCount;
          shown = shown && shown.rowCount > 0 ? concatTables([shown, outcome.table]) : outcome.table;
          const line = `${outcome.table.rowCount.toLocaleString('en-US')} new rows at ${fmtTime(this.now())}`;
          const next = everyMs ? `; next check at ${fmtTime(new Date(this.now().getTime() + everyMs))}` : '';
          await update({ title, notes: [...notes, `follow: ${line}${next}`] });
          if (!everyMs || signal.aborted) return true;
          await (this.deps.sleep ?? abortableSleep)(everyMs, signal);
          if (signal.aborted) {
            await update({
              title,
              notes,
              partial: `follow stopped (cancelled); ${newThisRun.toLocaleString('en-US')} new rows arrived in this run`,
            });
            return true;
          }
          continue;
        }
        shown = outcome.table;
        const files = outcome.report?.files ?? [];
        const fileNote = files.length ? [`report ${outcome.report?.record.reportId} files: ${files.join(', ')}`] : [];
        await update({ title, notes: [...notes, ...fileNote] });
        return true;
      }
    } catch (err) {
      if (err instanceof CellError) {
        await replace([diagnosticsOutput(err.diagnostics)]);
        return false;
      }
      const cancelled = signal.aborted || (err instanceof MeasurementsError && err.code === 'cancelled');
      const outputs: vscode.NotebookCellOutput[] = [];
      if (shown && shown.rowCount > 0) {
        const reason = cancelled ? 'the run was cancelled' : `the run failed (${(err as Error).message})`;
        outputs.push(await this.output(shown, { notes, partial: `${reason}; the rows that arrived are kept` }, cell));
      }
      outputs.push(
        errorOutput(
          cancelled ? new MeasurementsError('cancelled', 'The run was cancelled; the request was aborted.') : err,
        ),
      );
      await replace(outputs);
      return false;
    }
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
    );
  }

  /** The table output; a result over the saved-output limit also goes to the cell's one full-result file. */
  private async output(table: Table, info: ResultInfo, cell: vscode.NotebookCell): Promise<vscode.NotebookCellOutput> {
    let fullResultPath: string | undefined;
    if (encodeTable(table).byteLength > savedOutputLimitBytes()) {
      fullResultPath = (await this.results.write(cell, table)).fsPath;
    }
    return tableOutput(table, { info, csvMaxRows: csvFallbackMaxRows(), fullResultPath });
  }

  dispose(): void {
    this.results.dispose();
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
