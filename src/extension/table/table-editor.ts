// The Measurements Table editor: any local .csv, .csv.gz or .parquet file in the table panel page
// ("Open With… → Measurements Table", the Explorer's "Open as Measurements Table"). The file is streamed
// (core readTableFile): the first rows are shown as soon as they are read, the rest counted, with a
// cancellable progress notification; a file that cannot be read shows why, never a blank editor.
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { TableFileError } from '../../core/api/errors';
import type { DatasourceInfo } from '../../core/api/types';
import { MAX_KEPT_BYTES, MAX_KEPT_CELLS } from '../../core/io/limits';
import type { ResultInfo, SummaryPlan } from '../../core/notebook/renderer-protocol';
import { connectionResultInfoWithin } from '../../core/run/outputs';
import { readTableFile, type TableFileRead } from '../../core/sql/file-read.node';
import { fileSummary } from '../../core/sql/summary.node';
import { formatOfName, notATableFile } from '../../core/table/file-format';
import type { Table } from '../../core/table/table';
import { settingsZone, withZone } from '../notebook/notebook-time-zone';
import { registerCommand } from '../ui/register-command';
import type { TablePanels, TableView } from './table-panel';

/** The editor of .parquet and .csv.gz files (their default: they are not text) and of .csv files (an option). */
const TABLE_EDITOR_VIEW_TYPE = 'measurements.tableFile';
const CSV_TABLE_EDITOR_VIEW_TYPE = 'measurements.csvTable';
const DEFAULT_MAX_ROWS = 250_000;
/** Files from this size on are read with a progress notification (with Cancel); smaller ones in the status bar. */
const NOTIFY_BYTES = 16 * 1024 * 1024;
/**
 * A smaller file still being read after this long (a gzip expanding hundreds of times, a slow disk) gets the
 * notification with Cancel too.
 */
const LATE_NOTIFY_MS = 1500;

/** The most rows a file opened as a table keeps (measurements.tableFile.maxRows); the rest are counted. */
function tableFileMaxRows(): number {
  const n = vscode.workspace.getConfiguration('measurements.tableFile').get<number>('maxRows');
  return typeof n === 'number' && n >= 1 ? Math.floor(n) : DEFAULT_MAX_ROWS;
}

/** An opened file: its view, and the read (resolves when the rows are counted; rejects when it failed). */
export interface TableFileEditor {
  uri: vscode.Uri;
  view: TableView;
  loaded: Promise<TableFileRead>;
  /** Resolves when the first rows of a file longer than the limit are handed to the view (before the rest is counted). */
  firstRows: Promise<void>;
  /** Resolves when a notification with Cancel is shown for the read (at once for a big file, late for a slow small one). */
  cancelOffered: Promise<void>;
  /** What the view is told of the whole read: title, notices, and from a connection's list its datasources' names and styles. */
  info: Promise<ResultInfo>;
}

/** A connection's datasource list (a report's file opened from the Reports view: the report's connection and org). */
type DatasourceList = () => Promise<readonly DatasourceInfo[] | undefined>;

/**
 * How long a file's table waits, once read, for its connection's datasource list before it shows without (names and
 * line styles then from the file alone), as a notebook output waits.
 */
const DATASOURCES_WAIT_MS = 3000;

/** The tab title of a file opened as a table: "part-000.csv (table)". */
function tableTabTitle(fileName: string): string {
  return `${fileName} (table)`;
}

export class TableFileEditorProvider implements vscode.CustomReadonlyEditorProvider {
  private readonly opened = new vscode.EventEmitter<TableFileEditor>();
  /** Each editor as it opens (the command and the integration suite wait on it). */
  readonly onDidOpen = this.opened.event;

  /** The connection's datasource list of the next editor of a file (by URI), given by whoever opens it. */
  private readonly lists = new Map<string, DatasourceList>();

  constructor(private readonly tables: TablePanels) {}

  /**
   * The next editor of `uri` takes its datasources' names and line style slots from this list (asked for when it
   * opens), so that a datasource has the colour it has in the notebook outputs and panels of that connection.
   */
  withDatasources(uri: vscode.Uri, list: DatasourceList): void {
    this.lists.set(uri.toString(), list);
  }

  /** The list given for this editor, asked for now (read alongside the file); undefined when none was given. */
  private listFor(uri: vscode.Uri): Promise<readonly DatasourceInfo[] | undefined> | undefined {
    const list = this.lists.get(uri.toString());
    this.lists.delete(uri.toString());
    return (
      list &&
      Promise.resolve()
        .then(list)
        .catch(() => undefined)
    );
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): void {
    const name = path.basename(document.uri.path);
    // The tab says it is the table: the same file open as text beside it is a tab named by the file alone.
    panel.title = tableTabTitle(name);
    const abort = new AbortController();
    // The Summary of a file held in part: DuckDB over every row of it (core/sql/summary.node).
    const summarize = (plan: SummaryPlan) => fileSummary(document.uri.fsPath, plan, { signal: abort.signal });
    const view = this.tables.attach(panel, name, document.uri.scheme === 'file' ? { summarize } : {});
    let disposed = false;
    panel.onDidDispose(() => {
      disposed = true;
      abort.abort();
    });
    let handedOver: () => void = () => undefined;
    const firstRows = new Promise<void>((resolve) => {
      handedOver = resolve;
    });
    let offered: () => void = () => undefined;
    const cancelOffered = new Promise<void>((resolve) => {
      offered = resolve;
    });
    let told: (info: ResultInfo) => void = () => undefined;
    const info = new Promise<ResultInfo>((resolve) => {
      told = resolve;
    });
    const state: LoadState = { handedOver, offered, told, datasources: this.listFor(document.uri) };
    const loaded = this.load(document.uri, name, view, abort, state);
    loaded.catch((e: Error) => {
      if (disposed) return;
      if (!abort.signal.aborted) view.fail(e.message);
      else if (!state.early) view.fail(`Opening ${name} was cancelled. Reopen the file to read it again.`);
      // Cancelled while counting: the rows shown stay, with what is known.
      else
        view.setInfo({
          title: name,
          notes: [`First ${fmt(state.early.rowCount)} rows shown; counting the rest was cancelled.`],
        });
    });
    this.opened.fire({ uri: document.uri, view, loaded, firstRows, cancelOffered, info });
  }

  private load(
    uri: vscode.Uri,
    name: string,
    view: TableView,
    abort: AbortController,
    state: LoadState,
  ): Promise<TableFileRead> {
    if (uri.scheme !== 'file') {
      return Promise.reject(
        new Error(`${name} is not a local file (${uri.scheme}:); only local files open as a table.`),
      );
    }
    const maxRows = tableFileMaxRows();
    const task = async (
      progress: vscode.Progress<{ message?: string; increment?: number }>,
      token: vscode.CancellationToken,
    ) => {
      token?.onCancellationRequested(() => abort.abort());
      let shownAt = 0;
      const read = await readTableFile(uri.fsPath, {
        maxRows,
        signal: abort.signal,
        onProgress: (done, total) => {
          const pct = total ? Math.floor((done / total) * 100) : 0;
          if (pct <= shownAt) return;
          progress.report({ increment: pct - shownAt, message: `${state.early ? 'counting rows, ' : ''}${pct}%` });
          shownAt = pct;
        },
        onFirstRows: (table) => {
          state.early = table;
          view.setTable(table, {
            title: name,
            notes: [`First ${fmt(table.rowCount)} rows; counting the rest of the file…`],
          });
          state.handedOver();
        },
      });
      const info = await readInfo(name, read, maxRows, state);
      if (read.table === state.early) view.setInfo(info);
      else view.setTable(read.table, info);
      return read;
    };
    const title = `Opening ${name} as a table`;
    return fs.promises.stat(uri.fsPath).then((stat) => {
      // A big file: a notification with the progress and Cancel.
      if (stat.size >= NOTIFY_BYTES) {
        const notified = { location: vscode.ProgressLocation.Notification, title, cancellable: true };
        return vscode.window.withProgress(notified, (progress, token) => {
          state.offered();
          return task(progress, token);
        });
      }
      // A small one (read at once, as a rule): the status bar, and Cancel if it takes long after all.
      const read = vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, task);
      const timer = setTimeout(() => offerCancel(title, read, abort, state), LATE_NOTIFY_MS);
      const stop = () => clearTimeout(timer);
      read.then(stop, stop);
      return read;
    });
  }
}

/** What a load has shown so far: the first rows of a file longer than the limit, while the rest is counted. */
interface LoadState {
  early?: Table;
  /** Called once the first rows went to the view. */
  handedOver: () => void;
  /** Called when a notification with Cancel is shown. */
  offered: () => void;
  /** Called with what the view is told of the whole read. */
  told: (info: ResultInfo) => void;
  /** The connection's datasource list, asked for when the editor opened (a report's file). */
  datasources?: Promise<readonly DatasourceInfo[] | undefined>;
}

/** A notification with Cancel for a read already going (in the status bar), until it ends. */
function offerCancel(title: string, read: Thenable<unknown>, abort: AbortController, state: LoadState): void {
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (_progress, token) => {
      token.onCancellationRequested(() => abort.abort());
      state.offered();
      return Promise.resolve(read).then(
        () => undefined,
        () => undefined,
      );
    },
  );
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The notices of a file's table: the truncation (first N of M rows, and why) when it has more rows. */
function fileInfo(name: string, read: TableFileRead, maxRows: number): ResultInfo {
  // A file has no notebook: its times and days are in the settings' zone (measurements.timeZone).
  const info: ResultInfo = withZone({ title: name }, settingsZone());
  if (read.totalRows > read.table.rowCount) {
    info.truncated = {
      totalRows: read.totalRows,
      shownRows: read.table.rowCount,
      reason: read.sizeLimited
        ? `the first ${fmt(read.table.rowCount)} rows of the file: as many as a table keeps (${fmt(MAX_KEPT_CELLS)} cells, ${MAX_KEPT_BYTES / 1048576} MiB of text)`
        : `the first ${fmt(maxRows)} rows of the file (setting measurements.tableFile.maxRows)`,
    };
  }
  return info;
}

/**
 * What the view is told of a whole read (also to state.told): fileInfo, and the datasources' names and styles from
 * the connection's list when it is had in time.
 */
async function readInfo(name: string, read: TableFileRead, maxRows: number, state: LoadState): Promise<ResultInfo> {
  const listed = state.datasources;
  const fromList = listed && (await connectionResultInfoWithin(read.table, () => listed, DATASOURCES_WAIT_MS));
  const info = { ...fileInfo(name, read, maxRows), ...fromList };
  state.told(info);
  return info;
}

/**
 * Registers the editor and "Open as Measurements Table" (Explorer, editor title, palette). The command
 * resolves with the opened editor.
 */
export function registerTableEditor(tables: TablePanels): {
  provider: TableFileEditorProvider;
  disposables: vscode.Disposable[];
} {
  const provider = new TableFileEditorProvider(tables);
  const options = { webviewOptions: { retainContextWhenHidden: true }, supportsMultipleEditorsPerDocument: true };
  const disposables = [
    vscode.window.registerCustomEditorProvider(TABLE_EDITOR_VIEW_TYPE, provider, options),
    vscode.window.registerCustomEditorProvider(CSV_TABLE_EDITOR_VIEW_TYPE, provider, options),
    // `options.datasources`: the connection's list of a report's file (ReportFiles); the Explorer passes the
    // selected URIs there instead.
    registerCommand('measurements.openFileAsTable', async (arg?: vscode.Uri, options?: unknown) => {
      const uri = arg instanceof vscode.Uri ? arg : await pickFile();
      if (!uri) return undefined;
      const format = formatOfName(uri.path);
      if (!format) throw new TableFileError(notATableFile(path.basename(uri.path)));
      const list = (options as { datasources?: unknown } | undefined)?.datasources;
      if (typeof list === 'function') provider.withDatasources(uri, list as DatasourceList);
      const opened = new Promise<TableFileEditor>((resolve) => {
        const sub = provider.onDidOpen((e) => {
          if (e.uri.toString() === uri.toString()) {
            sub.dispose();
            resolve(e);
          }
        });
      });
      const viewType = format === 'csv' ? CSV_TABLE_EDITOR_VIEW_TYPE : TABLE_EDITOR_VIEW_TYPE;
      await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
      return opened;
    }),
  ];
  return { provider, disposables };
}

/** The active editor's file when it is a table file, else a file picked in the open dialog. */
async function pickFile(): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && formatOfName(active.path)) return active;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Open as Table',
    filters: { 'Measurement tables': ['csv', 'gz', 'parquet'] },
  });
  return picked?.[0];
}
