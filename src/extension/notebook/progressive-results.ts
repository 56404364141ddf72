// The rows of progressive outputs (items holding only a result's first rows): the host answers the
// renderer's rows-requests from the Table it still holds (the last few results), else from the cell's
// full-result file (Parquet, result-store), read back once; when neither is there it says so. The Summary of
// such an output's every row (summary-request) comes from the same places, computed by DuckDB
// (core/sql/summary.node): the held result, else the file read in place.
import * as vscode from 'vscode';
import {
  type FullSummary,
  notebookSummaryRequestOf,
  type RestOfRows,
  type RowsReply,
  type RowsRequest,
  type SummaryPlan,
  type SummaryReply,
} from '../../core/notebook/renderer-protocol';
import { fileSummary, tableSummary } from '../../core/sql/summary.node';
import { readParquet } from '../../core/table/parquet';
import { sliceRows } from '../../core/table/row-chunks';
import type { Table } from '../../core/table/table';
import { encodeTable } from '../../core/table/wire';

/** Full-data Summaries kept (a few outputs' Summaries, each a small object). */
const KEPT_SUMMARIES = 8;

/** The most rows one reply carries, whatever a request asks for. */
const MAX_ROWS_PER_REPLY = 1_000_000;

/** The key of a progressive output, from its metadata (measnb.rest.key). */
export function restKeyOf(output: vscode.NotebookCellOutput): string | undefined {
  const rest = (output.metadata as { measnb?: { rest?: Partial<RestOfRows> } } | undefined)?.measnb?.rest;
  return typeof rest?.key === 'string' ? rest.key : undefined;
}

export class ProgressiveResults implements vscode.Disposable {
  /** Results by key, oldest first (a Map keeps insertion order); a file read back is a promise meanwhile. */
  private readonly held = new Map<string, Promise<Table | undefined>>();
  /** Full-data Summaries by result key and plan, oldest first. */
  private readonly summaries = new Map<string, Promise<FullSummary | undefined>>();
  private seq = 0;
  private readonly answered = new vscode.EventEmitter<{ request: RowsRequest; reply: RowsReply }>();
  /** Each rows-request answered (tests follow the renderer's requests so). */
  readonly onDidAnswer = this.answered.event;

  constructor(
    /** The full-result file of a cell, if it has one (it may not exist). */
    private readonly fileOfCell: (cell: vscode.NotebookCell) => vscode.Uri | undefined,
    private readonly keep = 3,
  ) {}

  /** Keeps a result for its output's rows-requests; returns its key (opaque: no path, no cell text). */
  hold(table: Table): string {
    const key = `r${(++this.seq).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    this.held.set(key, Promise.resolve(table));
    this.dropOldest();
    return key;
  }

  /** The result of a key while it is held (follow cells append to what the cell showed). */
  async table(key: string): Promise<Table | undefined> {
    return await this.held.get(key);
  }

  /** The reply to a rows-request from a renderer showing `notebook`. */
  async rows(notebook: vscode.NotebookDocument, m: RowsRequest): Promise<RowsReply> {
    const reply = await this.answer(notebook, m);
    this.answered.fire({ request: m, reply });
    return reply;
  }

  private async answer(notebook: vscode.NotebookDocument, m: RowsRequest): Promise<RowsReply> {
    const base = { requestId: String(m.requestId), key: String(m.key) };
    try {
      const table = await this.find(notebook, base.key);
      if (!table) {
        const message =
          'the result is no longer in memory and its full-result file is not on this machine (run the cell again)';
        return { type: 'rows-unavailable', ...base, message };
      }
      const start = Math.max(0, Math.floor(Number(m.start)) || 0);
      const count = Math.min(MAX_ROWS_PER_REPLY, Math.max(1, Math.floor(Number(m.maxRows)) || 1));
      const slice = sliceRows(table, start, start + count);
      const bytes = encodeTable(slice);
      const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
      return { type: 'rows-chunk', ...base, start, rowCount: slice.rowCount, totalRows: table.rowCount, base64 };
    } catch (err) {
      return { type: 'rows-unavailable', ...base, message: (err as Error).message };
    }
  }

  /**
   * The reply to a summary-request from a renderer showing `notebook`: the Summary of every row of the result
   * its key names (a key the host gave: held, or in an output of this notebook; never a path from the webview).
   */
  async summary(notebook: vscode.NotebookDocument, m: unknown): Promise<SummaryReply> {
    const asked = notebookSummaryRequestOf(m);
    const { requestId } = asked;
    if ('refused' in asked) return { type: 'summary-failed', requestId, message: asked.refused };
    try {
      const summary = await this.summaryOnce(notebook, asked.key, asked.plan);
      if (summary) return { type: 'summary-result', requestId, summary };
      const message =
        'the result is neither in memory nor in its full-result file on this machine (run the cell again)';
      return { type: 'summary-failed', requestId, message };
    } catch (err) {
      return { type: 'summary-failed', requestId, message: (err as Error).message };
    }
  }

  /**
   * One computation per result and plan (a view drawn again, a filter cleared, asks again): the last few kept;
   * a failure is not kept.
   */
  private summaryOnce(
    notebook: vscode.NotebookDocument,
    key: string,
    plan: SummaryPlan,
  ): Promise<FullSummary | undefined> {
    const id = `${key}\n${JSON.stringify(plan)}`;
    let p = this.summaries.get(id);
    if (!p) {
      p = this.summaryOf(notebook, key, plan);
      this.summaries.set(id, p);
      while (this.summaries.size > KEPT_SUMMARIES) this.summaries.delete(this.summaries.keys().next().value as string);
      const drop = () => this.summaries.get(id) === p && this.summaries.delete(id);
      p.then((s) => s ?? drop(), drop);
    }
    return p;
  }

  private async summaryOf(
    notebook: vscode.NotebookDocument,
    key: string,
    plan: SummaryPlan,
  ): Promise<FullSummary | undefined> {
    const held = await this.held.get(key);
    if (held) return tableSummary(held, plan);
    const cell = this.cellOf(notebook, key);
    const file = cell && this.fileOfCell(cell);
    if (file?.scheme !== 'file') return undefined;
    const exists = await vscode.workspace.fs.stat(file).then(
      () => true,
      () => false,
    );
    return exists ? fileSummary(file.fsPath, plan) : undefined;
  }

  /** The cell of `notebook` whose output has this key. */
  private cellOf(notebook: vscode.NotebookDocument, key: string): vscode.NotebookCell | undefined {
    return notebook.getCells().find((c) => c.outputs.some((o) => restKeyOf(o) === key));
  }

  /** Keeps the newest `keep` results (a Map iterates oldest first). */
  private dropOldest(): void {
    while (this.held.size > this.keep) this.held.delete(this.held.keys().next().value as string);
  }

  dispose(): void {
    this.held.clear();
    this.summaries.clear();
    this.answered.dispose();
  }

  /** The held result, else the full-result file of the notebook's cell whose output has this key. */
  private find(notebook: vscode.NotebookDocument, key: string): Promise<Table | undefined> {
    const held = this.held.get(key);
    if (held) return held;
    const cell = this.cellOf(notebook, key);
    const file = cell && this.fileOfCell(cell);
    if (!file) return Promise.resolve(undefined);
    const read = readBack(file);
    this.held.set(key, read);
    this.dropOldest();
    const drop = () => this.held.get(key) === read && this.held.delete(key);
    read.then((t) => t ?? drop(), drop);
    return read;
  }
}

async function readBack(file: vscode.Uri): Promise<Table | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(file);
  } catch {
    return undefined;
  }
  return await readParquet(bytes);
}
