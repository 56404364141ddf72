// How a cell's result becomes notebook outputs: the renderer's table and CSV as the fallback, with the
// row count and columns in the metadata (kept even when the saved output is cut to a summary).
// One home, used by the CLI's `run` and by the notebook controller.
import { errorOutput, MIME, type NotebookOutput, type OutputMetadata, textItem } from '../notebook/model';
import { tableToCsv } from '../table/csv-export';
import { encodeTable } from '../table/wire';
import type { RunResult } from './run-cell';

export function resultOutputs(result: RunResult, extra: OutputMetadata = {}): NotebookOutput[] {
  const outputs: NotebookOutput[] = [];
  const notes = [result.notice, ...result.warnings.map((w) => `warning: line ${w.range.start.line + 1}: ${w.message}`)];
  const text = notes.filter(Boolean).join('\n');
  if (text) outputs.push({ items: [textItem(MIME.text, text)] });
  const metadata: OutputMetadata = {
    verb: result.verb,
    summary: result.summary,
    rowCount: result.table.rowCount,
    columns: result.table.columns.map((c) => c.name),
    ...extra,
  };
  if (result.report) {
    metadata.reportId = result.report.record.reportId;
    metadata.reportStatus = result.report.record.reportStatus;
    if (result.report.dir && metadata.fullResultPath === undefined) metadata.fullResultPath = result.report.dir;
  }
  if (result.report && result.table.columns.length === 0) {
    outputs.push({ items: [textItem(MIME.text, result.summary)], metadata });
    return outputs;
  }
  outputs.push({
    items: [{ mime: MIME.table, data: encodeTable(result.table) }, textItem(MIME.csv, tableToCsv(result.table))],
    metadata,
  });
  return outputs;
}

/** The output of a cell that failed: VS Code's error MIME, one clear message. */
export function failureOutput(e: unknown): NotebookOutput {
  const err = e instanceof Error ? e : new Error(String(e));
  return errorOutput(err.name || 'Error', err.message);
}
