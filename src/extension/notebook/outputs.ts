// Cell outputs: a result is the renderer's table item (every row, or a progressive output's first rows)
// plus a text/csv fallback for other viewers; errors become VS Code error items with a readable message.
import * as vscode from 'vscode';
import { MIME, type OutputMetadata } from '../../core/notebook';
import type { ResultInfo } from '../../core/notebook/renderer-protocol';
import { type Diagnostic, diagnosticLine } from '../../core/query';
import { describeFailure, type FailureKind } from '../../core/run/describe-failure.node';
import { tableToCsv } from '../../core/table/csv-export';
import type { Table } from '../../core/table/table';
import { encodeTable } from '../../core/table/wire';

export interface TableOutputOptions {
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
  const items = [new vscode.NotebookCellOutputItem(encodeTable(options.head?.rows ?? table), MIME.table)];
  if (table.rowCount <= options.csvMaxRows) {
    items.push(vscode.NotebookCellOutputItem.text(tableToCsv(table), MIME.csv));
  } else {
    items.push(
      vscode.NotebookCellOutputItem.text(
        `${table.rowCount.toLocaleString('en-US')} rows × ${table.columns.length} columns: shown by the Measurements table renderer; ` +
          `too many rows for a text/csv copy (measurements.notebook.csvFallbackMaxRows = ${options.csvMaxRows}).`,
        MIME.text,
      ),
    );
  }
  const metadata: OutputMetadata = {
    rowCount: table.rowCount,
    columns: table.columns.map((c) => c.name),
    measnb: options.info,
  };
  if (options.fullResultId) metadata.fullResultId = options.fullResultId;
  if (options.report) metadata.report = options.report;
  if (options.head) metadata.resultBytes = options.head.resultBytes;
  return new vscode.NotebookCellOutput(items, metadata);
}

export function textOutput(text: string): vscode.NotebookCellOutput {
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(text, MIME.text)]);
}

/** What the extension adds to core's description of a failure: where to act on it. */
const ACTION_HINT: Partial<Record<FailureKind, string>> = {
  auth: 'Check the API key of this notebook\'s connection ("Measurements: Set API Key").',
};

/** A readable message for any failure (core's describeFailure), with what to do about it in the editor. */
export function describeError(err: unknown, now?: Date): { name: string; message: string; kind: FailureKind } {
  const f = describeFailure(err, { now });
  const hint = ACTION_HINT[f.kind];
  return { name: f.title, message: [...f.lines, ...(hint ? [hint] : [])].join('\n'), kind: f.kind };
}

export function errorOutput(err: unknown): vscode.NotebookCellOutput {
  const { name, message } = describeError(err);
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name, message, stack: undefined })]);
}

/** The cell's diagnostics as one error output (nothing was sent). */
export function diagnosticsOutput(
  diagnostics: readonly Diagnostic[],
  name = 'The cell has errors; nothing was sent',
): vscode.NotebookCellOutput {
  const lines = diagnostics.filter((d) => d.severity === 'error').map((d) => diagnosticLine(d));
  return new vscode.NotebookCellOutput([
    vscode.NotebookCellOutputItem.error({
      name,
      message: lines.join('\n'),
      stack: undefined,
    }),
  ]);
}
