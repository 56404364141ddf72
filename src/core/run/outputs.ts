// How a cell's result becomes a notebook output, neutral and the same for `measnb run` and the
// extension (which only wraps these plain items in vscode.NotebookCellOutput): the renderer's table item
// (every row, or a progressive output's first rows) plus a text/csv fallback (a text line instead above
// csvMaxRows), with rowCount, columns and the renderer's `measnb` info (title, notes) in the metadata.
// The metadata survives when the serializer cuts an output to its summary.
import type { DatasourceInfo } from '../api/types';
import { resultDatasourceInfo } from '../aq/datasource-names';
import { errorOutput, MIME, type NotebookOutput, type OutputMetadata, textItem } from '../notebook/model';
import type { ResultInfo } from '../notebook/renderer-protocol';
import type { NotebookZone } from '../notebook/time-zone';
import { type Diagnostic, diagnosticLine } from '../query/diagnostics';
import { tableToCsv } from '../table/csv-export';
import { findColumn, isNumeric, type Table } from '../table/table';
import { encodeTable } from '../table/wire';
import { sleep } from '../time/clock';
import type { RunResult } from './run-result';

/** Same default as the extension's measurements.notebook.csvFallbackMaxRows. */
export const DEFAULT_CSV_FALLBACK_MAX_ROWS = 20_000;

/** The renderer's header line of a result, e.g. "recent · 120 rows × 14 columns" ("report hourly · …"). */
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

/** A cell's warning as a note above its table. */
export function warningNote(w: Diagnostic): string {
  return `warning: ${diagnosticLine(w)}`;
}

export function resultNotes(result: RunResult): string[] {
  const notes: string[] = [];
  const values = parametersNote(result);
  if (values) notes.push(values);
  notes.push(...rowOrderNote(result));
  if (result.notice) notes.push(result.notice);
  for (const w of result.warnings) notes.push(warningNote(w));
  const files = result.report?.files ?? [];
  if (files.length) notes.push(`report ${result.report?.record.reportId} files: ${files.join(', ')}`);
  return notes;
}

interface TableOutputOptions {
  /** No CSV fallback above this many rows (a text line says so instead); default DEFAULT_CSV_FALLBACK_MAX_ROWS. */
  csvMaxRows?: number;
  /** The renderer's title and notes. */
  info?: ResultInfo;
  /** A progressive output: the item holds these first rows; resultBytes is the whole result's wire size. */
  head?: { rows: Table; resultBytes: number };
  /** More metadata: where the full result is (fullResultPath, fullResultId), the report the cell made. */
  metadata?: OutputMetadata;
}

/** A table as a notebook output: the renderer's item and a text/csv fallback, with its metadata. */
export function tableOutput(table: Table, options: TableOutputOptions = {}): NotebookOutput {
  const csvMaxRows = options.csvMaxRows ?? DEFAULT_CSV_FALLBACK_MAX_ROWS;
  const fallback =
    table.rowCount <= csvMaxRows
      ? textItem(MIME.csv, tableToCsv(table))
      : textItem(
          MIME.text,
          `${table.rowCount.toLocaleString('en-US')} rows × ${table.columns.length} columns: shown by the Measurements table renderer; ` +
            `too many rows for a text/csv copy (more than ${csvMaxRows}: measurements.notebook.csvFallbackMaxRows).`,
        );
  const metadata: OutputMetadata = {
    rowCount: table.rowCount,
    columns: table.columns.map((c) => c.name),
    measnb: options.info,
    ...options.metadata,
  };
  if (options.head) metadata.resultBytes = options.head.resultBytes;
  return { items: [{ mime: MIME.table, data: encodeTable(options.head?.rows ?? table) }, fallback], metadata };
}

/** The text ids of a result's datasourceId column, or undefined (no such column, or numbers): the lines of its charts. */
export function resultDatasourceIds(table: Table): readonly string[] | undefined {
  const ids = findColumn(table, 'datasourceId');
  return !ids || isNumeric(ids) || ids.kind === 'qcFlags' ? undefined : ids.dict;
}

/**
 * What an output says of its result's datasources from the connection's datasource list (names, line style slots over
 * the whole list, reference sites: core/aq/datasource-names), the same for the extension's outputs and panels and
 * `measnb run`; undefined when the result has no datasource ids.
 */
export function connectionResultInfo(table: Table, list: readonly DatasourceInfo[]): Partial<ResultInfo> | undefined {
  const ids = resultDatasourceIds(table);
  return ids && resultDatasourceInfo(list, ids, !!findColumn(table, 'sourceType'));
}

/**
 * connectionResultInfo once the connection's list is had, the list asked for when the result was (`list` already
 * started): undefined when the result has no datasource ids, or the list fails or is not had within `ms` (the
 * table shows at once, with the result's own names and styles).
 */
export async function connectionResultInfoWithin(
  table: Table,
  list: () => Promise<readonly DatasourceInfo[] | undefined>,
  ms: number,
): Promise<Partial<ResultInfo> | undefined> {
  if (!resultDatasourceIds(table)) return undefined;
  const stop = new AbortController();
  const late = sleep(ms, stop.signal).then(
    () => undefined,
    () => undefined,
  );
  try {
    const had = await Promise.race([list(), late]);
    return had && connectionResultInfo(table, had);
  } catch {
    return undefined;
  } finally {
    stop.abort();
  }
}

export interface ResultOutputOptions {
  csvMaxRows?: number;
  fullResultPath?: string;
  /** The notebook's zone: the renderer shows and counts the times in it (ResultInfo.timeZone). */
  timeZone?: NotebookZone;
  /** The connection's datasource list, when known: the output's datasource names and line styles (connectionResultInfo). */
  datasources?: readonly DatasourceInfo[];
}

/** A headless run's result (`measnb run`): its table with the title and notes the extension shows. */
export function resultOutput(result: RunResult, options: ResultOutputOptions = {}): NotebookOutput {
  const { table } = result;
  const reportKind = result.report?.record.report ? String(result.report.record.report) : undefined;
  const info: ResultInfo = {
    title: resultTitle(result, reportKind),
    notes: resultNotes(result),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.datasources && connectionResultInfo(table, options.datasources)),
  };
  const metadata: OutputMetadata = options.fullResultPath ? { fullResultPath: options.fullResultPath } : {};
  if (result.report && table.columns.length === 0) {
    // A report created without waiting: nothing to tabulate yet.
    return {
      items: [textItem(MIME.text, result.summary)],
      metadata: { rowCount: 0, columns: [], measnb: info, ...metadata },
    };
  }
  return tableOutput(table, { csvMaxRows: options.csvMaxRows, info, metadata });
}

/** A line of text as an output (a progress line). */
export function textOutput(text: string): NotebookOutput {
  return { items: [textItem(MIME.text, text)] };
}

/** The output of a cell that failed: VS Code's error MIME, one clear message. */
export function failureOutput(e: unknown): NotebookOutput {
  const err = e instanceof Error ? e : new Error(String(e));
  return errorOutput(err.name || 'Error', err.message);
}
