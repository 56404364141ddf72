// The in-memory notebook of a .measnb file: close to VS Code's NotebookData so the extension's
// serializer is a thin mapping, and usable headless by the CLI.

export const NOTEBOOK_FORMAT = 'measnb';
export const NOTEBOOK_VERSION = 1;

/** MIME types our outputs use. */
export const MIME = {
  /** The renderer's compact columnar table (src/core/table encodeTable). */
  table: 'application/vnd.measnb.table',
  /** The fallback every viewer and the CLI understand. */
  csv: 'text/csv',
  text: 'text/plain',
  markdown: 'text/markdown',
  /** VS Code's error output ({ name, message, stack }). */
  error: 'application/vnd.code.notebook.error',
  stdout: 'application/vnd.code.notebook.stdout',
  stderr: 'application/vnd.code.notebook.stderr',
  /** What a saved output keeps when it was over the size limit. */
  summary: 'application/vnd.measnb.summary+json',
  /** A report record (JSON) shown beside a report cell's table. */
  report: 'application/vnd.measnb.report+json',
} as const;

export interface OutputItem {
  mime: string;
  data: Uint8Array;
}

/** Facts about a result that survive even when its data is too big to save. */
export interface OutputMetadata {
  rowCount?: number;
  columns?: string[];
  /** Where the complete result is, relative to the notebook's folder (`measnb run --out`: X.results/cell-2.parquet). */
  fullResultPath?: string;
  /** The extension's full result: an opaque id in its result store (no path), resolved when it is read. */
  fullResultId?: string;
  /** Set by the serializer when the items were replaced by a summary. */
  truncated?: boolean;
  /** Size of the items that were dropped. */
  originalBytes?: number;
  /** The whole result's table size when the table item holds only its first rows (a progressive output). */
  resultBytes?: number;
  [key: string]: unknown;
}

export interface NotebookOutput {
  items: OutputItem[];
  metadata?: OutputMetadata;
  /** Keys of the file this version does not know, kept so that nothing is lost on save. */
  extra?: Record<string, unknown>;
}

export interface CellExecution {
  order?: number;
  success?: boolean;
  /** Epoch milliseconds. */
  startTime?: number;
  endTime?: number;
}

export type CellKind = 'code' | 'markup';

export interface NotebookCell {
  kind: CellKind;
  /** `measq` for code cells, `markdown` for markup cells. */
  language: string;
  source: string;
  outputs: NotebookOutput[];
  metadata?: Record<string, unknown>;
  execution?: CellExecution;
  extra?: Record<string, unknown>;
}

export interface NotebookMetadata {
  /** Name of the connection the notebook runs against (never its key). */
  connection?: string;
  org?: string;
  /** The notebook's time zone (an IANA name) and day boundary (clock | standard): core/notebook/time-zone. */
  timeZone?: string;
  dayBoundary?: string;
  [key: string]: unknown;
}

export interface Notebook {
  metadata: NotebookMetadata;
  cells: NotebookCell[];
  extra?: Record<string, unknown>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function textItem(mime: string, text: string): OutputItem {
  return { mime, data: encoder.encode(text) };
}

export function jsonItem(mime: string, value: unknown): OutputItem {
  return textItem(mime, JSON.stringify(value));
}

export function itemText(item: OutputItem): string {
  return decoder.decode(item.data);
}

export function errorOutput(name: string, message: string): NotebookOutput {
  return { items: [jsonItem(MIME.error, { name, message })] };
}

export function codeCell(source: string, outputs: NotebookOutput[] = []): NotebookCell {
  return { kind: 'code', language: 'measq', source, outputs };
}

export function markdownCell(source: string): NotebookCell {
  return { kind: 'markup', language: 'markdown', source, outputs: [] };
}
