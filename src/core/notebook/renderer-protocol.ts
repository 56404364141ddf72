// The contract between the renderer and the extension host: MIME type, output metadata, messages.
// Platform-neutral (no DOM, no node): imported by the renderer, the extension's save handler and table panels.

import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../api/types';
import { type ResamplePeriod, resamplePeriodOf } from '../aq/resample';
import type { DayBoundary } from '../time/zone';
export const RENDERER_ID = 'measnb.table-renderer';

/** Output metadata (NotebookCellOutput.metadata.measnb) that the renderer shows next to the rows. */
export interface ResultInfo {
  /** e.g. "recent · 3 datasources · hour". */
  title?: string;
  /** Set when the run was cancelled or failed mid-way: the rows are what arrived before that. */
  partial?: string;
  /** Set when the rows in this output are fewer than the result's (saved-output bound). */
  truncated?: { totalRows: number; shownRows: number; fullResultPath?: string; reason: string };
  /** Free notes shown under the toolbar (e.g. "follow: 12 new rows"). */
  notes?: string[];
  /**
   * Datasource ids of the rows that are reference sites (sourceType REFERENCE_SITE), as the connection's
   * datasources say: set for results without a sourceType column (json-long), so that Collocation knows
   * the reference. Read from a saved notebook too: the renderer uses only strings that name its rows.
   */
  referenceSites?: string[];
  /**
   * Datasource names by id (the connection's datasources; only ids of the rows, bounded): the Map's hover and
   * the Collocation choices name them. Read from a saved notebook too: the renderer keeps only strings.
   */
  datasourceNames?: Record<string, string>;
  /**
   * Each datasource's line style slot (core/aq/line-styles `connectionStyleSlots`: the connection's whole sorted
   * datasource list placed, only ids of the rows), so a datasource has one colour in every result of the notebook.
   * Read from a saved notebook too: the renderer and exports use it only when valid (`styleSlotsOf`), else as without.
   */
  datasourceStyles?: Record<string, number>;
  /**
   * Set when the output item holds only the result's first rows (a progressive output): the renderer shows
   * them at once and asks the host for the rest (rows-request) under this opaque key.
   */
  rest?: RestOfRows;
  /**
   * The notebook's time zone (an IANA name) and day boundary: the times are shown in it and the views' days,
   * hours of day and weekdays are its. Read from a saved notebook too: a bad name is UTC (core/time/zone zoneOrUtc).
   */
  timeZone?: { name: string; dayBoundary: DayBoundary };
  /** The cell's id (cell metadata `id`): the renderer names it when it tells the host the chart's choice. */
  cellId?: string;
  /** The chart's last choice for this cell (cell metadata `chart`): the chart starts on it, exports draw it. */
  chart?: ChartChoice;
}

/**
 * What the chart of a cell's output shows, by column name: its metric and the column its lines are split
 * by ("" for one line). Kept in the cell's metadata (`chart`), so the notebook's exports draw the same chart.
 */
export interface ChartChoice {
  metric?: string;
  linesBy?: string;
  /** Raw values, or hourly / daily means in the notebook's zone (core/aq/resample); absent = raw. */
  resample?: ResamplePeriod;
  /** Up to two more metrics drawn in panels under the first, by column name. */
  also?: string[];
  /** With one more metric: both in one panel, the second on a right axis (absent = stacked panels). */
  twoAxes?: boolean;
}

/** A chart choice read from a file or a message: strings of at most 200 characters; anything else dropped. */
export function chartChoiceOf(value: unknown): ChartChoice | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const ok = (s: unknown): s is string => typeof s === 'string' && s.length <= 200;
  const out: ChartChoice = {};
  if (ok(v.metric)) out.metric = v.metric;
  if (ok(v.linesBy)) out.linesBy = v.linesBy;
  if (Array.isArray(v.also) && v.also.length && v.also.length <= 2 && v.also.every(ok)) out.also = v.also;
  if (v.twoAxes === true) out.twoAxes = true;
  if (v.resample !== undefined && resamplePeriodOf(v.resample) !== 'raw') out.resample = resamplePeriodOf(v.resample);
  return Object.keys(out).length ? out : undefined;
}

/** The rows of a progressive output that are not in its item: `key` names the result to the host. */
export interface RestOfRows {
  key: string;
  totalRows: number;
  headRows: number;
}

export type SaveFormat = 'csv' | 'parquet' | 'json';

export type RendererToHost = SaveToHost | RowsRequest | ChartChanged | SummaryRequest | ImageSave;

/** The formats a view's image is saved in: PNG (rasterised from the SVG in the renderer) and the SVG itself. */
export type ImageFormat = 'png' | 'svg';

/**
 * A view's image to save (the host shows a save dialog, then writes the bytes through the one writer): the
 * file's bytes in base64 (renderer messaging crosses JSON), at most MAX_IMAGE_BYTES once decoded.
 */
export interface ImageSave {
  type: 'image-save';
  requestId: string;
  format: ImageFormat;
  suggestedName: string;
  base64: string;
}

/** An image bigger than this is refused by the host (a 2× PNG of a view is well under 1 MiB). */
export const MAX_IMAGE_BYTES = 32 * 1024 * 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Why these bytes are not an image of this format (PNG signature; an SVG document), else undefined. */
export function imageProblem(format: unknown, bytes: Uint8Array): string | undefined {
  if (format !== 'png' && format !== 'svg') return `unknown image format ${String(format).slice(0, 20)}`;
  if (bytes.length > MAX_IMAGE_BYTES) return `the image is over ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`;
  if (format === 'png') return PNG_SIGNATURE.every((b, i) => bytes[i] === b) ? undefined : 'not a PNG image';
  const head = new TextDecoder().decode(bytes.subarray(0, 200)).trimStart();
  return head.startsWith('<svg') || head.startsWith('<?xml') ? undefined : 'not an SVG image';
}

/** The user chose another metric or "Lines by" in a cell's chart: the host keeps it in the cell's metadata. */
export interface ChartChanged {
  type: 'chart';
  cellId: string;
  chart: ChartChoice;
}

export type SaveToHost =
  | { type: 'save-request'; requestId: string; format: SaveFormat; suggestedName: string; rowCount: number }
  | { type: 'save-chunk'; requestId: string; index: number; total: number; base64: string };

/** Rows [start, start + maxRows) of a progressive output's result. */
export interface RowsRequest {
  type: 'rows-request';
  requestId: string;
  key: string;
  start: number;
  maxRows: number;
}

/**
 * Rows of a progressive output: `base64` is the wire format (core/table/wire) of rows [start, start +
 * rowCount), dictionaries holding only what those rows use. Base64 text, because renderer messaging
 * goes through JSON between the extension host and the workbench (a Uint8Array would arrive as an
 * object of numbers). `rows-unavailable`: the host has the result neither in memory nor in its file.
 */
export type RowsReply =
  | {
      type: 'rows-chunk';
      requestId: string;
      key: string;
      start: number;
      rowCount: number;
      totalRows: number;
      base64: string;
    }
  | { type: 'rows-unavailable'; requestId: string; key: string; message: string };

/** Wire bytes per rows-chunk (before base64): big enough that a message's fixed cost is small. */
export const ROWS_CHUNK_BYTES = 4 * 1024 * 1024;

/** The user switched a table between its rows and its chart (the Getting Started walkthrough listens). */
export type ViewChanged = { type: 'view'; view: 'table' | 'chart' };

export type HostToRenderer =
  | { type: 'save-send'; requestId: string }
  | { type: 'save-cancelled'; requestId: string }
  | { type: 'save-done'; requestId: string; path: string; rowCount: number }
  | { type: 'save-failed'; requestId: string; message: string }
  | { type: 'image-saved'; requestId: string; path: string }
  | RowsReply
  | SummaryReply;

/** Chunk size for sending a table to the host (base64 text per message). */
export const SAVE_CHUNK_BYTES = 4 * 1024 * 1024;

/** Table panels ("Open as Table", "Run Recent Query"): the page loads the renderer bundle, says it is
 * ready, receives the table in the wire format (core/table/wire), and says when it is on screen. Saving
 * uses the same save-* messages as notebook outputs. */
export type PanelToHost =
  | { type: 'panel-ready' }
  | { type: 'panel-shown'; view: 'renderer'; rowCount: number; columnCount: number }
  | { type: 'panel-failed'; message: string }
  | RendererToHost;

/**
 * `data`: the table in the wire format, as an ArrayBuffer (webviews transfer those without JSON).
 * `panel-info`: new info for the table shown (e.g. a file's row count, once counted). `panel-error`: the
 * table cannot be shown (e.g. a malformed file); the page says so instead of staying blank.
 */
export type HostToPanel =
  | { type: 'panel-table'; title: string; data: ArrayBuffer; info?: ResultInfo }
  | { type: 'panel-info'; info: ResultInfo }
  | { type: 'panel-error'; message: string }
  | HostToRenderer;

/**
 * What the Summary view summarises, by column name (renderer/model/aq-views `summaryPlan`): the column that
 * splits the rows into datasources, the time column, the result's frequency (periods with a value, expected
 * periods) and each metric column with the column whose QC marks its values invalid (`assessment`: the value
 * `invalid`; `flags`: a flag of severity I).
 */
export interface SummaryPlan {
  groupColumn?: string;
  timeColumn?: string;
  frequency: OutputFrequency;
  metrics: Array<{ column: string; qc?: { column: string; kind: 'assessment' | 'flags' } }>;
}

/** One datasource × metric of a full-data Summary, before rounding (null: no value, JSON has no NaN). */
export interface SummaryCell {
  group: string;
  metric: string;
  count: number;
  /** Periods of the result's frequency with a value (the count without a time column). */
  withValue: number;
  min: number | null;
  mean: number | null;
  median: number | null;
  p98: number | null;
  max: number | null;
  /** Rows whose QC marks the metric's value invalid. */
  invalid: number;
}

/** The Summary of every row of a file or result, computed by the host (DuckDB): small, sent as JSON. */
export interface FullSummary {
  /** The rows the numbers cover: every row of the data. */
  rows: number;
  /** The first and last time (ms) of any row; null without times. */
  from: number | null;
  to: number | null;
  cells: SummaryCell[];
}

/**
 * The renderer asks for the Summary of all the rows of the data it holds part of: a file opened as a table (its
 * panel knows the file), or a notebook output, named by its `key` (RestOfRows.key: an id the host made, never a path).
 */
export interface SummaryRequest {
  type: 'summary-request';
  requestId: string;
  plan: SummaryPlan;
  key?: string;
}

export type SummaryReply =
  | { type: 'summary-result'; requestId: string; summary: FullSummary }
  | { type: 'summary-failed'; requestId: string; message: string };

/** The form of the keys the host gives progressive outputs (extension/notebook/progressive-results `hold`). */
const REST_KEY = /^r[0-9a-z]{1,40}$/;

/** Whether a value from a message has the form of a key the host gives results (no path, no other text). */
export function isRestKey(value: unknown): value is string {
  return typeof value === 'string' && REST_KEY.test(value);
}

/**
 * A notebook output's summary-request checked (hostile input): its key of the host's form and its plan; else
 * why not (the reply's message). Whether the host knows the key is the host's to say.
 */
export function notebookSummaryRequestOf(
  m: unknown,
): { requestId: string; key: string; plan: SummaryPlan } | { requestId: string; refused: string } {
  const v = (m && typeof m === 'object' ? m : {}) as Record<string, unknown>;
  const requestId = String(v.requestId).slice(0, 100);
  if (!isRestKey(v.key)) return { requestId, refused: 'the request names no result of this notebook' };
  const plan = summaryPlanOf(v.plan);
  if (!plan) return { requestId, refused: 'the request names no columns to summarise' };
  return { requestId, key: v.key, plan };
}

/** Metric columns a Summary request may name (a wide result has a few hundred at most). */
const MAX_SUMMARY_METRICS = 1000;

/** A Summary plan from a message (hostile input): names of at most 300 characters, known kinds; else undefined. */
export function summaryPlanOf(value: unknown): SummaryPlan | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const name = (s: unknown) => typeof s === 'string' && s.length > 0 && s.length <= 300;
  const optional = (s: unknown) => s === undefined || name(s);
  if (!optional(v.groupColumn) || !optional(v.timeColumn)) return undefined;
  if (!(OUTPUT_FREQUENCIES as readonly unknown[]).includes(v.frequency)) return undefined;
  if (!Array.isArray(v.metrics) || v.metrics.length > MAX_SUMMARY_METRICS) return undefined;
  const metrics: SummaryPlan['metrics'] = [];
  for (const m of v.metrics as unknown[]) {
    const e = (m ?? {}) as Record<string, unknown>;
    if (!name(e.column)) return undefined;
    const qc = e.qc as Record<string, unknown> | undefined;
    if (qc !== undefined && (!qc || !name(qc.column) || (qc.kind !== 'assessment' && qc.kind !== 'flags')))
      return undefined;
    metrics.push({
      column: e.column as string,
      ...(qc ? { qc: { column: qc.column as string, kind: qc.kind as 'assessment' | 'flags' } } : {}),
    });
  }
  return {
    groupColumn: v.groupColumn as string | undefined,
    timeColumn: v.timeColumn as string | undefined,
    frequency: v.frequency as OutputFrequency,
    metrics,
  };
}
