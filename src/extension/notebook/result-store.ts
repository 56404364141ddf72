// Full results of outputs too big to save in the notebook: one Parquet file per cell output (a re-run
// or a follow poll replaces it), deleted when the cell's outputs are cleared or the cell is deleted,
// and the whole folder capped (measurements.notebook.resultStorageLimitMB; oldest files go first).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeParquetInTurns } from '../../core/table/parquet';
import type { Table } from '../../core/table/table';
import { NOTEBOOK_TYPE } from './serializer';
import { resultStorageLimitBytes } from './settings';
import { writeUri } from './write-uri';

/** A file-name-safe key of a notebook: a short FNV-1a hash of its URI (no path text in names). */
function notebookKey(uri: vscode.Uri): string {
  let h = 0x811c9dc5;
  for (const ch of uri.toString()) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A file of the store: `<notebook key>-<cell id>.parquet`; its name without `.parquet` is the result's id. */
const STORE_FILE = /^([0-9a-f]{8}-[A-Za-z0-9_-]{1,64})\.parquet$/;

export class ResultStore implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly dir: vscode.Uri,
    /** The cell's stable id (kept in its metadata, so it survives a reload). */
    private readonly cellKey: (cell: vscode.NotebookCell) => Promise<string>,
    private readonly limitBytes: () => number = resultStorageLimitBytes,
  ) {
    this.subscription = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType !== NOTEBOOK_TYPE) return;
      for (const c of e.cellChanges) if (c.outputs?.length === 0) void this.forget(c.cell);
      for (const change of e.contentChanges) for (const cell of change.removedCells) void this.forget(cell);
    });
  }

  /** The file of a cell's full result; its id comes from the cell's own metadata, checked before use. */
  private fileOf(notebook: vscode.Uri, id: string): vscode.Uri {
    if (!SAFE_ID.test(id)) throw new Error(`cell id ${JSON.stringify(id.slice(0, 80))} is not a plain id`);
    return vscode.Uri.joinPath(this.dir, `${notebookKey(notebook)}-${id}.parquet`);
  }

  /** Where the cell's full result goes (giving the cell an id if it has none); nothing is written. */
  async target(cell: vscode.NotebookCell): Promise<vscode.Uri> {
    return this.fileOf(cell.notebook.uri, await this.cellKey(cell));
  }

  /**
   * The cell's full-result file (it may not exist: another machine, cleared): the one its output names by id
   * (output metadata fullResultId, this notebook's only), else the one of the cell's own id.
   */
  fileOfCell(cell: vscode.NotebookCell): vscode.Uri | undefined {
    for (const o of cell.outputs) {
      const named = this.resolve(cell.notebook.uri, o.metadata?.fullResultId);
      if (named) return named;
    }
    const id = cell.metadata?.id;
    return typeof id === 'string' && SAFE_ID.test(id) ? this.fileOf(cell.notebook.uri, id) : undefined;
  }

  /** The opaque id saved in the notebook for a full-result file of this store (no folder, no home path). */
  idOf(file: vscode.Uri): string {
    return path.basename(file.path).replace(/\.parquet$/, '');
  }

  /** The file of a saved full-result id: only a file of this store that belongs to `notebook`. */
  resolve(notebook: vscode.Uri, id: unknown): vscode.Uri | undefined {
    if (typeof id !== 'string' || !STORE_FILE.test(`${id}.parquet`)) return undefined;
    return id.startsWith(`${notebookKey(notebook)}-`) ? vscode.Uri.joinPath(this.dir, `${id}.parquet`) : undefined;
  }

  /**
   * An old notebook's absolute full-result path, read back: its id when it names a file directly in this
   * store; any other path is not trusted (undefined: the reader drops it).
   */
  adoptFullResultPath(fsPath: string): string | undefined {
    if (!path.isAbsolute(fsPath) || path.dirname(path.resolve(fsPath)) !== path.resolve(this.dir.fsPath))
      return undefined;
    return STORE_FILE.exec(path.basename(fsPath))?.[1];
  }

  async write(cell: vscode.NotebookCell, table: Table): Promise<vscode.Uri> {
    const uri = await this.target(cell);
    await this.writeTo(uri, table);
    return uri;
  }

  /** Writes a full result to its file (from target), then keeps the folder within its limit. */
  async writeTo(uri: vscode.Uri, table: Table): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.dir);
    // One row group at a time: the extension host's thread is free between groups (a million rows are
    // seconds of encoding, after the output was handed over and while its rows are asked for).
    await writeUri(uri, await writeParquetInTurns(table), this.dir);
    await this.enforceLimit(uri);
  }

  async forget(cell: vscode.NotebookCell): Promise<void> {
    const id = cell.metadata?.id;
    if (typeof id !== 'string' || !SAFE_ID.test(id)) return;
    // A copy not yet run still carries its original's id: the file is the original's, and it stays.
    const uri = cell.document.uri.toString();
    if (cell.notebook.getCells().some((c) => c.document.uri.toString() !== uri && c.metadata?.id === id)) return;
    await vscode.workspace.fs.delete(this.fileOf(cell.notebook.uri, id)).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Deletes the oldest files until the folder fits the limit; the file just written always stays. */
  private async enforceLimit(keep: vscode.Uri): Promise<void> {
    const entries = await vscode.workspace.fs.readDirectory(this.dir);
    const files: Array<{ uri: vscode.Uri; size: number; mtime: number }> = [];
    for (const [name, type] of entries) {
      if (type !== vscode.FileType.File || !name.endsWith('.parquet')) continue;
      const uri = vscode.Uri.joinPath(this.dir, name);
      const stat = await vscode.workspace.fs.stat(uri);
      files.push({ uri, size: stat.size, mtime: stat.mtime });
    }
    let total = files.reduce((n, f) => n + f.size, 0);
    const limit = this.limitBytes();
    for (const f of files.sort((a, b) => a.mtime - b.mtime)) {
      if (total <= limit) break;
      if (f.uri.toString() === keep.toString()) continue;
      await vscode.workspace.fs.delete(f.uri);
      total -= f.size;
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
