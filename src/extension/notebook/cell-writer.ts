// The outputs of one running cell: one small writer per kind of output (diagnostics, progress line, the
// result table with its summary notes, a follow step, a stopped follow, a failure), as SPARQL Notebook's
// writers do. The controller orchestrates; this decides what the cell shows. Output changes go one after
// the other, so a progress line never overtakes the result.
import type * as vscode from 'vscode';
import { CellError, MeasurementsError } from '../../core/api/errors';
import type { ResultInfo } from '../../core/notebook/renderer-protocol';
import type { Diagnostic } from '../../core/query';
import { parametersNote, type RunProgress, type RunResult, rowOrderNote } from '../../core/run/index.node';
import { warningNote } from '../../core/run/outputs';
import type { Table } from '../../core/table/table';
import { concatTables } from '../../core/table/table-rows';
import { formatDuration } from '../../core/time/duration';
import { diagnosticsOutput, errorOutput, type ReportRef, textOutput } from './outputs';

/** A table output, and what is done once it is handed over (writing the cell's full-result file). */
export interface RenderedTable {
  output: vscode.NotebookCellOutput;
  afterShown?: () => Promise<void>;
}

/** Makes the table output (the controller's: it knows the saved-output limit and the full-result file). */
type RenderTable = (table: Table, info: ResultInfo, report?: ReportRef) => Promise<RenderedTable>;

/** The last part of a path (a downloaded file's name). */
export function fileName(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}

const fmtTime = (d: Date) =>
  d
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace('T', ' ');

const count = (n: number) => n.toLocaleString('en-US');

/** The live line of a running cell: for reports the status, the time elapsed and the next check. */
export function progressText(p: RunProgress): string {
  switch (p.kind) {
    case 'report-created':
      return `Report ${p.reportId} created: in-progress`;
    case 'report-status': {
      const next = p.nextCheckMs !== undefined ? ` · next check in ${formatDuration(p.nextCheckMs)}` : '';
      return `Report ${p.reportId}: ${p.status} · ${formatDuration(p.elapsedMs)} elapsed${next}`;
    }
    case 'download':
      return `Report ${p.reportId}: downloading file ${p.index + 1} of ${p.total} (${fileName(p.file)})`;
    default:
      return p.message;
  }
}

export class CellWriter {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly notes: string[] = [];
  /** The parameter values the cell used (parameters: …), shown first. */
  private values: string | undefined;
  /** Rows a follow cell added in this run. */
  private newThisRun = 0;
  /** The report a report cell made: its files are opened and revealed from the cell's status bar. */
  private report: ReportRef | undefined;

  constructor(
    private readonly exec: vscode.NotebookCellExecution,
    private readonly render: RenderTable,
    /** What the cell shows (a follow cell starts from what it showed before: it appends). */
    private shown: Table | undefined,
  ) {}

  /** Everything the cell shows now (a follow cell: its earlier rows and this run's). */
  table(): Table | undefined {
    return this.shown;
  }

  private replace(outputs: vscode.NotebookCellOutput[]): Promise<unknown> {
    this.queue = this.queue.then(() => this.exec.replaceOutput(outputs)).catch(() => undefined);
    return this.queue;
  }

  private async writeTable(info: ResultInfo): Promise<void> {
    if (!this.shown) return;
    const rendered = await this.render(this.shown, info, this.report);
    await this.replace([rendered.output]);
    await rendered.afterShown?.();
  }

  async diagnostics(diagnostics: Diagnostic[], title?: string): Promise<void> {
    await this.replace([diagnosticsOutput(diagnostics, title)]);
  }

  /** A progress line, until there is a table to show. */
  progress(p: RunProgress): void {
    if (!this.shown) void this.replace([textOutput(progressText(p))]);
  }

  /** The parameter values line, when the cell used parameters. */
  private valuesNote(): string[] {
    return this.values ? [this.values] : [];
  }

  /** Notes and warnings of a step, and the report it made, for what follows. */
  noteOutcome(outcome: RunResult, report: ReportRef | undefined): void {
    if (report) this.report = report;
    this.values = parametersNote(outcome) ?? this.values;
    if (outcome.notice) this.notes.push(outcome.notice);
    // A follow's every step carries the cell's warnings: each is noted once.
    for (const w of outcome.warnings) {
      const note = warningNote(w);
      if (!this.notes.includes(note)) this.notes.push(note);
    }
  }

  /** The result of a cell that is not a follow: its table and summary (with a report's files named). */
  async result(outcome: RunResult, title: string): Promise<void> {
    this.shown = outcome.table;
    const files = outcome.report?.files ?? [];
    // File names only (their folder is a long path in the editor's storage): Open and Reveal are in the
    // cell's status bar and in the Reports view.
    const fileNote = files.length
      ? [
          `report ${outcome.report?.record.reportId} files: ${files.map(fileName).join(', ')} (Open and Reveal below the cell)`,
        ]
      : [];
    // The values used first (parameters: …), then the row order, the notes and warnings, the files.
    await this.writeTable({
      title,
      notes: [...this.valuesNote(), ...rowOrderNote(outcome), ...this.notes, ...fileNote],
    });
  }

  /** A follow step: its new rows appended to what the cell shows, and when the next check comes. */
  async followStep(outcome: RunResult, title: string, at: Date, nextAt: Date | undefined): Promise<Table> {
    this.newThisRun += outcome.table.rowCount;
    this.shown = this.shown && this.shown.rowCount > 0 ? concatTables([this.shown, outcome.table]) : outcome.table;
    const line = `${count(outcome.table.rowCount)} new rows at ${fmtTime(at)}`;
    const next = nextAt ? `; next check at ${fmtTime(nextAt)}` : '';
    await this.writeTable({ title, notes: [...this.valuesNote(), ...this.notes, `follow: ${line}${next}`] });
    return this.shown;
  }

  /** A transient error a follow rides out (it tries again at `retryAt`). */
  async followRetry(error: unknown, title: string, retryAt: Date): Promise<void> {
    const why = `follow: ${(error as Error).message} (trying again at ${fmtTime(retryAt)})`;
    await this.writeTable({ title, notes: [...this.valuesNote(), ...this.notes, why] });
  }

  /** A follow cancelled between steps: everything that arrived stays. */
  async followStopped(title: string): Promise<void> {
    const partial = `follow stopped (cancelled); ${count(this.newThisRun)} new rows arrived in this run`;
    await this.writeTable({ title, notes: [...this.valuesNote(), ...this.notes], partial });
  }

  /** A failed (or cancelled) run: the rows that arrived are kept and marked partial, then the error. */
  async failure(err: unknown, cancelledBySignal: boolean): Promise<void> {
    if (err instanceof CellError) {
      const sqlFailed = err.diagnostics.some((d) => d.code === 'sql-error');
      await this.diagnostics(err.diagnostics, sqlFailed ? 'DuckDB could not run the SQL' : undefined);
      return;
    }
    const cancelled = cancelledBySignal || (err instanceof MeasurementsError && err.code === 'CANCELLED');
    const outputs: vscode.NotebookCellOutput[] = [];
    let rendered: RenderedTable | undefined;
    if (this.shown && this.shown.rowCount > 0) {
      const reason = cancelled ? 'the run was cancelled' : `the run failed (${(err as Error).message})`;
      rendered = await this.render(this.shown, {
        notes: [...this.valuesNote(), ...this.notes],
        partial: `${reason}; the rows that arrived are kept`,
      });
      outputs.push(rendered.output);
    }
    outputs.push(
      errorOutput(
        cancelled ? new MeasurementsError('CANCELLED', 'The run was cancelled; the request was aborted.') : err,
      ),
    );
    await this.replace(outputs);
    await rendered?.afterShown?.();
  }
}
