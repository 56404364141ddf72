// How a cell's result becomes a notebook output, in the shape the extension's controller writes: the
// renderer's table item (every row) plus a text/csv fallback (a text line instead above csvMaxRows),
// with rowCount, columns and the renderer's `measnb` info (title, notes) in the metadata.
// Used by `measnb run`; the metadata survives when the serializer cuts an output to its summary.

import { errorOutput, MIME, type NotebookOutput, type OutputMetadata, textItem } from '../notebook/model';
import type { NotebookZone } from '../notebook/time-zone';
import { diagnosticLine } from '../query/diagnostics';
import { tableToCsv } from '../table/csv-export';
import { encodeTable } from '../table/wire';
import type { RunResult } from './run-result';

/** Same default as the extension's measurements.notebook.csvFallbackMaxRows. */
export const DEFAULT_CSV_FALLBACK_MAX_ROWS = 20_000;

export interface ResultOutputOptions {
  csvMaxRows?: number;
  fullResultPath?: string;
  /** The notebook's zone: the renderer shows and counts the times in it (ResultInfo.timeZone). */
  timeZone?: NotebookZone;
}

/** The renderer's header line of a result, e.g. "recent · 120 rows × 14 columns". */
export function resultTitle(result: RunResult, reportKind?: string): string {
  return `${result.verb}${reportKind ? ` ${reportKind}` : ''} · ${result.summary}`;
}

/** The caption of a result's row order (table-rows ROW_ORDER), shown under the output's toolbar. */
export function rowOrderNote(result: RunResult): string[] {
  return result.rowOrder ? [`Rows ${result.rowOrder} (by time); click a column header to sort.`] : [];
}

/** The note naming the parameter values a result used, e.g. `parameters: site=DABC1234`. */
export function parametersNote(result: RunResult): string | undefined {
  return result.parameters ? `parameters: ${result.parameters}` : undefined;
}

export function resultNotes(result: RunResult): string[] {
  const notes: string[] = [...rowOrderNote(result)];
  const values = parametersNote(result);
  if (values) notes.push(values);
  if (result.notice) notes.push(result.notice);
  for (const w of result.warnings) notes.push(`warning: ${diagnosticLine(w)}`);
  const files = result.report?.files ?? [];
  if (files.length) notes.push(`report ${result.report?.record.reportId} files: ${files.join(', ')}`);
  return notes;
}

export function resultOutput(result: RunResult, options: ResultOutputOptions = {}): NotebookOutput {
  const { table } = result;
  const csvMaxRows = options.csvMaxRows ?? DEFAULT_CSV_FALLBACK_MAX_ROWS;
  const reportKind = result.report?.record.report ? String(result.report.record.report) : undefined;
  const metadata: OutputMetadata = {
    rowCount: table.rowCount,
    columns: table.columns.map((c) => c.name),
    measnb: {
      title: resultTitle(result, reportKind),
      notes: resultNotes(result),
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    },
  };
  if (options.fullResultPath) metadata.fullResultPath = options.fullResultPath;
  if (result.report && table.columns.length === 0) {
    // A report created without waiting: nothing to tabulate yet.
    return { items: [textItem(MIME.text, result.summary)], metadata };
  }
  const fallback =
    table.rowCount <= csvMaxRows
      ? textItem(MIME.csv, tableToCsv(table))
      : textItem(
          MIME.text,
          `${table.rowCount.toLocaleString('en-US')} rows × ${table.columns.length} columns: shown by the Measurements table renderer; too many rows for a text/csv copy (more than ${csvMaxRows}).`,
        );
  return { items: [{ mime: MIME.table, data: encodeTable(table) }, fallback], metadata };
}

/** The output of a cell that failed: VS Code's error MIME, one clear message. */
export function failureOutput(e: unknown): NotebookOutput {
  const err = e instanceof Error ? e : new Error(String(e));
  return errorOutput(err.name || 'Error', err.message);
}
