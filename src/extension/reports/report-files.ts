// Report files: download (with progress, cancellable) into the chosen or default folder, open in an
// editor, open as a table, reveal.
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DatasourceInfo } from '../../core/api/types';
import { confinedFolder, reportFolderName } from '../../core/io/local-paths.node';
import { downloadReportFiles } from '../../core/reports/download.node';
import { reportRequestFromRecord } from '../../core/reports/request-echo';
import { formatOfName } from '../../core/table/file-format';
import type { ClientProvider } from '../connections/client-provider';
import type { ConnectionStore } from '../connections/connection-store';
import type { TableFileEditor } from '../table/table-editor';
import { requireTrust } from '../trust';
import type { ReportsStore } from './reports-store';
import type { TrackedFile, TrackedReport } from './tracked-report';

/** How long the connection's datasource list may take (a report's file opened as a table waits less: table-editor). */
const LIST_TIMEOUT_MS = 10_000;

export class ReportFiles {
  constructor(
    private readonly store: ReportsStore,
    private readonly clients: ClientProvider,
    private readonly connections: ConnectionStore,
    private readonly globalStorage: vscode.Uri,
  ) {}

  /**
   * Where a report's files go by default: the chosen folder (`root`) and the folders under it, the last
   * one named from the report id (one plain name, core reportFolderName). `measurements.downloadFolder`
   * from the user's settings may be anywhere; from a workspace's settings (a cloned repository) it must
   * stay inside the workspace folder. Without it: `.measurements/reports` in the first workspace folder,
   * else the extension's global storage.
   */
  defaultTarget(report: TrackedReport): { root: string; segments: string[] } {
    const name = reportFolderName(report.reportId);
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const setting = vscode.workspace.getConfiguration('measurements').inspect<string>('downloadFolder');
    const fromWorkspace = setting?.workspaceFolderValue || setting?.workspaceValue;
    if (fromWorkspace && ws) {
      const rel = path.normalize(fromWorkspace);
      if (path.isAbsolute(rel) || rel === '..' || rel.startsWith(`..${path.sep}`)) {
        throw new Error(
          `measurements.downloadFolder in the workspace settings (${fromWorkspace}) is outside the workspace; only your user settings may choose a folder elsewhere.`,
        );
      }
      return { root: ws, segments: [...rel.split(path.sep).filter((s) => s && s !== '.'), name] };
    }
    if (setting?.globalValue) return { root: path.resolve(ws ?? '', setting.globalValue), segments: [name] };
    if (ws) return { root: ws, segments: ['.measurements', 'reports', name] };
    return { root: this.globalStorage.fsPath, segments: ['reports', name] };
  }

  /** The default folder of a report's files (see defaultTarget). */
  defaultFolder(report: TrackedReport): string {
    const t = this.defaultTarget(report);
    return path.join(t.root, ...t.segments);
  }

  /**
   * Downloads the report's files (the core's downloadReportFiles: no key sent, gzip decoded, expired
   * links refreshed from the service first), with a cancellable progress notification naming the
   * folder. Every write is confined (core confinedFolder): into `folder` when the user picked one,
   * else into the default folder, never outside the chosen root (a planted symbolic link is refused).
   */
  async download(report: TrackedReport, options: { folder?: string } = {}): Promise<TrackedReport> {
    requireTrust('Downloading report files');
    const connection = this.connections.get(report.connectionId);
    if (!connection) throw new Error(`The connection of report ${report.reportId} no longer exists.`);
    const { client } = await this.clients.forConnection(connection);
    const target = options.folder ? { root: options.folder, segments: [] } : this.defaultTarget(report);
    const folder = await confinedFolder(target.root, target.segments);
    const done = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Downloading report ${report.reportId} into ${vscode.workspace.asRelativePath(folder, false)}`,
        cancellable: true,
      },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return downloadReportFiles(client, report.record, folder, {
          signal: abort.signal,
          onFile: (f) => {
            if (f.bytes === undefined) {
              progress.report({
                message: `${path.basename(f.path)} (${f.index + 1}/${f.total})`,
                increment: 100 / Math.max(1, f.total),
              });
            }
          },
        });
      },
    );
    return (
      (await this.store.update(report.connectionId, report.reportId, (t) => ({
        ...t,
        files: t.files.map((f, i) => (done[i] ? { ...f, localPath: done[i].path } : f)),
      }))) ?? report
    );
  }

  /** The local path of a file, downloading the report's files first when needed. */
  async ensureLocal(report: TrackedReport, file: TrackedFile): Promise<string> {
    if (file.localPath && fs.existsSync(file.localPath)) return file.localPath;
    const updated = await this.download(report);
    const local = updated.files.find((f) => f.url === file.url)?.localPath;
    if (!local) throw new Error(`${file.name} could not be downloaded.`);
    return local;
  }

  /** Opens a file the readable way: Parquet and csv.gz (binary) as a table, CSV as text (Open as Table is beside it). */
  async open(report: TrackedReport, file: TrackedFile): Promise<vscode.TextEditor | TableFileEditor> {
    const local = await this.ensureLocal(report, file);
    const format = formatOfName(local);
    if (format === 'parquet' || format === 'csv.gz') return this.openAsTable(local, report);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(local));
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  /**
   * A downloaded file in the Measurements Table editor, as any local table file opens: streamed, the first
   * measurements.tableFile.maxRows rows kept and the rest counted, whatever the file's size. Its datasources are
   * named and styled from the report's connection's list (the slots its notebook outputs and panels use).
   */
  async openAsTable(local: string, report: TrackedReport): Promise<TableFileEditor> {
    const uri = vscode.Uri.file(local);
    const datasources = () => this.datasourcesOf(report);
    const editor = await vscode.commands.executeCommand<TableFileEditor | undefined>(
      'measurements.openFileAsTable',
      uri,
      { datasources },
    );
    if (!editor) throw new Error(`${path.basename(local)} could not be opened as a table.`);
    return editor;
  }

  /** The datasource list of the report's connection and org (undefined when the connection is gone). */
  private async datasourcesOf(report: TrackedReport): Promise<DatasourceInfo[] | undefined> {
    const connection = this.connections.get(report.connectionId);
    if (!connection) return undefined;
    // The org the report was made for (its request as the service echoes it), else the connection's.
    const echoed = reportRequestFromRecord(report.record, connection.org);
    const org = 'request' in echoed ? echoed.request.org : connection.org;
    const { client } = await this.clients.forConnection(connection);
    return (await client.listDatasources(org, { timeoutMs: LIST_TIMEOUT_MS })).datasources;
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
