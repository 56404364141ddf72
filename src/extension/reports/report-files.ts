// Report files: download (with progress, cancellable) into the chosen or default folder, open in an
// editor, open as a table, reveal. URLs are fetched without the key (the client's rule); expired links
// are refreshed from the service first.
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseCsvWide } from '../../core/table/csv-read';
import type { Table } from '../../core/table/table';
import type { ClientProvider } from '../connections/client-provider';
import type { ConnectionStore } from '../connections/connection-store';
import type { ReportsStore } from './reports-store';
import { type TrackedFile, type TrackedReport, withRecord } from './tracked-report';

/** The local name of a file: the URL's name without .gz (downloads are decompressed). */
export function localFileName(file: TrackedFile): string {
  return file.name.replace(/\.gz$/i, '');
}

export class ReportFiles {
  constructor(
    private readonly store: ReportsStore,
    private readonly clients: ClientProvider,
    private readonly connections: ConnectionStore,
    private readonly globalStorage: vscode.Uri,
  ) {}

  /** `measurements.downloadFolder`, else .measurements/reports in the first workspace folder, else global storage. */
  defaultFolder(report: TrackedReport): string {
    const configured = vscode.workspace.getConfiguration('measurements').get<string>('downloadFolder');
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const base = configured
      ? path.resolve(ws ?? '', configured)
      : ws
        ? path.join(ws, '.measurements', 'reports')
        : path.join(this.globalStorage.fsPath, 'reports');
    return path.join(base, report.reportId);
  }

  /** Downloads every file of the report that is not yet on disk (all of them with `force`). */
  async download(report: TrackedReport, options: { folder?: string; force?: boolean } = {}): Promise<TrackedReport> {
    const connection = this.connections.get(report.connectionId);
    if (!connection) throw new Error(`The connection of report ${report.reportId} no longer exists.`);
    const { client } = await this.clients.forConnection(connection);
    let current = report;
    const expires = current.record.urlsExpireAt ? Date.parse(current.record.urlsExpireAt) : Number.NaN;
    if (!Number.isNaN(expires) && expires <= Date.now()) {
      // Expired links: ask the service for fresh ones before downloading.
      const record = await client.getReport(current.reportId);
      current =
        (await this.store.update(current.connectionId, current.reportId, (t) => withRecord(t, record, new Date()))) ??
        current;
    }
    if (current.files.length === 0) throw new Error(`Report ${current.reportId} has no files to download.`);
    const folder = options.folder ?? this.defaultFolder(current);
    fs.mkdirSync(folder, { recursive: true });
    const todo = current.files.filter((f) => options.force || !f.localPath || !fs.existsSync(f.localPath));
    const done = new Map<string, string>();
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Downloading report ${current.reportId}`,
        cancellable: true,
      },
      async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        for (const [i, f] of todo.entries()) {
          progress.report({
            message: `${f.name} (${i + 1}/${todo.length})`,
            increment: 100 / Math.max(1, todo.length),
          });
          const target = path.join(folder, localFileName(f));
          await client.downloadReportFile(f.url, target, { signal: abort.signal });
          done.set(f.name, target);
        }
      },
    );
    return (
      (await this.store.update(current.connectionId, current.reportId, (t) => ({
        ...t,
        files: t.files.map((f) => (done.has(f.name) ? { ...f, localPath: done.get(f.name) } : f)),
      }))) ?? current
    );
  }

  /** The local path of a file, downloading the report's files first when needed. */
  async ensureLocal(report: TrackedReport, file: TrackedFile): Promise<string> {
    if (file.localPath && fs.existsSync(file.localPath)) return file.localPath;
    const updated = await this.download(report);
    const local = updated.files.find((f) => f.name === file.name)?.localPath;
    if (!local) throw new Error(`${file.name} could not be downloaded.`);
    return local;
  }

  async open(report: TrackedReport, file: TrackedFile): Promise<vscode.TextEditor | undefined> {
    const local = await this.ensureLocal(report, file);
    if (/\.parquet$/i.test(local)) {
      // Binary: a table is the only readable view.
      await this.readTable(local);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(local));
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  async readTable(local: string): Promise<Table> {
    if (/\.parquet$/i.test(local)) {
      // TODO(core): readParquet lands in src/core/table; until then parquet files open in no table.
      throw new Error(`Reading Parquet files is not available yet (${path.basename(local)}); choose csv-wide.`);
    }
    return parseCsvWide(fs.createReadStream(local));
  }

  async reveal(local: string): Promise<void> {
    const uri = vscode.Uri.file(local);
    if (vscode.workspace.getWorkspaceFolder(uri)) {
      await vscode.commands.executeCommand('revealInExplorer', uri);
    } else {
      await vscode.commands.executeCommand('revealFileInOS', uri);
    }
  }
}
