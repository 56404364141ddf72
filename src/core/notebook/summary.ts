// What a saved output keeps when it is over the size limit: row count, columns, size, and where
// the full result is (or how to get it back).
import { csvShape } from '../table/csv-shape';
import { itemText, jsonItem, MIME, type NotebookOutput, textItem } from './model';

export interface OutputSummary {
  rowCount?: number;
  columns?: string[];
  originalBytes: number;
  limitBytes: number;
  fullResultPath?: string;
  fullResultId?: string;
  message: string;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function summarizeOutput(output: NotebookOutput, limitBytes: number): NotebookOutput {
  const meta = output.metadata ?? {};
  const itemBytes = output.items.reduce((n, i) => n + i.data.byteLength, 0);
  // A progressive output's item holds only the first rows: the summary names the whole result's size.
  const originalBytes = typeof meta.resultBytes === 'number' ? Math.max(itemBytes, meta.resultBytes) : itemBytes;
  let { rowCount, columns } = meta;
  const csv = output.items.find((i) => i.mime === MIME.csv);
  if ((rowCount === undefined || columns === undefined) && csv) {
    const shape = csvShape(itemText(csv));
    rowCount ??= shape.rowCount;
    columns ??= shape.columns;
  }
  const what =
    rowCount !== undefined
      ? `${rowCount} row${rowCount === 1 ? '' : 's'}${columns ? ` × ${columns.length} column${columns.length === 1 ? '' : 's'}` : ''}`
      : 'This output';
  const where = meta.fullResultPath
    ? `The full result is in ${meta.fullResultPath}.`
    : meta.fullResultId
      ? "The full result is kept in the extension's result storage on the machine that ran the cell; run the cell again to see it here."
      : 'Run the cell again to see the full result.';
  const message = `${what} (${formatBytes(originalBytes)}) — over the ${formatBytes(limitBytes)} limit for outputs saved in the notebook, so only this summary was saved. ${where}`;
  const summary: OutputSummary = {
    rowCount,
    columns,
    originalBytes,
    limitBytes,
    fullResultPath: meta.fullResultPath,
    fullResultId: meta.fullResultId,
    message,
  };
  return {
    items: [textItem(MIME.text, message), jsonItem(MIME.summary, summary)],
    metadata: { ...meta, rowCount, columns, truncated: true, originalBytes },
  };
}
