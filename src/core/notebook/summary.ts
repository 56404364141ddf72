// What a saved output keeps when it is over the size limit: row count, columns, size, and where
// the full result is (or how to get it back).
import { itemText, jsonItem, MIME, type NotebookOutput, textItem } from './model';

export interface OutputSummary {
  rowCount?: number;
  columns?: string[];
  originalBytes: number;
  limitBytes: number;
  fullResultPath?: string;
  message: string;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Splits one CSV header line (RFC 4180 quoting). */
export function csvHeaderColumns(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else if (ch !== '\r') cur += ch;
  }
  out.push(cur);
  return out;
}

/** Rows and columns of a CSV text: counts record ends outside quotes (no per-row work). */
function csvShape(text: string): { rowCount: number; columns: string[] } {
  let records = 0;
  let quoted = false;
  let headerEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) {
      records++;
      if (headerEnd < 0) headerEnd = i;
    }
  }
  if (text.length && !text.endsWith('\n')) records++;
  const header = headerEnd < 0 ? text : text.slice(0, headerEnd);
  return { rowCount: Math.max(0, records - 1), columns: header ? csvHeaderColumns(header) : [] };
}

export function summarizeOutput(output: NotebookOutput, limitBytes: number): NotebookOutput {
  const meta = output.metadata ?? {};
  const originalBytes = output.items.reduce((n, i) => n + i.data.byteLength, 0);
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
    : 'Run the cell again to see the full result.';
  const message = `${what} (${formatBytes(originalBytes)}) — over the ${formatBytes(limitBytes)} limit for outputs saved in the notebook, so only this summary was saved. ${where}`;
  const summary: OutputSummary = {
    rowCount,
    columns,
    originalBytes,
    limitBytes,
    fullResultPath: meta.fullResultPath,
    message,
  };
  return {
    items: [textItem(MIME.text, message), jsonItem(MIME.summary, summary)],
    metadata: { ...meta, rowCount, columns, truncated: true, originalBytes },
  };
}
