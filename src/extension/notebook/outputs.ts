// Cell outputs: core's one builder (core/run/outputs.ts: the renderer's table item and a text/csv
// fallback, the same items `measnb run` writes) wrapped in VS Code's types; errors become VS Code error
// items with a readable message.
import * as vscode from 'vscode';
import { errorOutput as coreErrorOutput, type NotebookOutput, type OutputMetadata } from '../../core/notebook';
import type { ResultInfo } from '../../core/notebook/renderer-protocol';
import { type Diagnostic, diagnosticLine } from '../../core/query';
import { describeFailure, type FailureKind } from '../../core/run/describe-failure.node';
import { tableOutput as coreTableOutput, textOutput as coreTextOutput } from '../../core/run/outputs';
import type { Table } from '../../core/table/table';

interface TableOutputOptions {
  info?: ResultInfo;
  /** No CSV fallback above this many rows (a text line says so instead). */
  csvMaxRows: number;
  /** The result store's id of the full-result file (never its path: that holds the user's home folder). */
  fullResultId?: string;
  /** The report a report cell made (ids only, no paths): its files' Open/Reveal in the cell status bar. */
  report?: ReportRef;
  /** A progressive output: the item holds these first rows; resultBytes is the whole result's wire size. */
  head?: { rows: Table; resultBytes: number };
}

/** Core's plain output (the one builder, core/run/outputs.ts) as VS Code's: the same items and metadata. */
function cellOutput(output: NotebookOutput): vscode.NotebookCellOutput {
  const items = output.items.map((i) => new vscode.NotebookCellOutputItem(i.data, i.mime));
  return new vscode.NotebookCellOutput(items, output.metadata);
}

export interface ReportRef {
  connectionId: string;
  reportId: string;
}

/** The report of an output, if it names one (read from a notebook: checked, ids only). */
export function reportOfOutput(output: vscode.NotebookCellOutput): ReportRef | undefined {
  const r = (output.metadata as { report?: Partial<ReportRef> } | undefined)?.report;
  return r && typeof r.connectionId === 'string' && typeof r.reportId === 'string'
    ? { connectionId: r.connectionId, reportId: r.reportId }
    : undefined;
}

export function tableOutput(table: Table, options: TableOutputOptions): vscode.NotebookCellOutput {
  const metadata: OutputMetadata = {};
  if (options.fullResultId) metadata.fullResultId = options.fullResultId;
  if (options.report) metadata.report = options.report;
  const { csvMaxRows, info, head } = options;
  return cellOutput(coreTableOutput(table, { csvMaxRows, info, head, metadata }));
}

export function textOutput(text: string): vscode.NotebookCellOutput {
  return cellOutput(coreTextOutput(text));
}

/** What the extension adds to core's description of a failure: where to act on it. */
const ACTION_HINT: Partial<Record<FailureKind, string>> = {
  auth: 'Check the API key of this notebook\'s connection ("Measurements: Set API Key").',
};

/** A readable message for any failure (core's describeFailure), with what to do about it in the editor. */
function describeError(err: unknown, now?: Date): { name: string; message: string; kind: FailureKind } {
  const f = describeFailure(err, { now });
  const hint = ACTION_HINT[f.kind];
  return { name: f.title, message: [...f.lines, ...(hint ? [hint] : [])].join('\n'), kind: f.kind };
}

export function errorOutput(err: unknown): vscode.NotebookCellOutput {
  const { name, message } = describeError(err);
  return cellOutput(coreErrorOutput(name, message));
}

/** The cell's diagnostics as one error output (nothing was sent). */
export function diagnosticsOutput(
  diagnostics: readonly Diagnostic[],
  name = 'The cell has errors; nothing was sent',
): vscode.NotebookCellOutput {
  const lines = diagnostics.filter((d) => d.severity === 'error').map((d) => diagnosticLine(d));
  return cellOutput(coreErrorOutput(name, lines.join('\n')));
}
