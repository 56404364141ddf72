// Each notebook runs against one connection, named in its metadata (never its key). Shown in the status
// bar while a .measnb is active and switchable from there or the notebook toolbar.
import * as vscode from 'vscode';
import type { DatasourceSuggestion } from '../../core/query';
import type { ConnectedClient } from '../connections/client-provider';
import type { Connection } from '../connections/connection';
import type { ExtensionServices } from '../services';
import { registerCommand } from '../ui/register-command';
import { NOTEBOOK_TYPE } from './serializer';

export const SELECT_CONNECTION_COMMAND = 'measurements.notebook.selectConnection';
const DATASOURCE_CACHE_MS = 5 * 60_000;

export class NotebookConnections implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'measurements.notebookConnection',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly subs: vscode.Disposable[] = [];
  private readonly datasourceCache = new Map<string, { at: number; list: Promise<DatasourceSuggestion[]> }>();

  constructor(private readonly services: ExtensionServices) {
    this.item.name = 'Measurements notebook connection';
    this.item.command = SELECT_CONNECTION_COMMAND;
    this.subs.push(
      vscode.window.onDidChangeActiveNotebookEditor(() => this.update()),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.metadata && e.notebook === vscode.window.activeNotebookEditor?.notebook) this.update();
      }),
      services.connections.onDidChange(() => {
        this.datasourceCache.clear();
        this.update();
      }),
      registerCommand(SELECT_CONNECTION_COMMAND, (uri?: vscode.Uri) => this.pick(uri)),
    );
    this.update();
  }

  /** The notebook's connection: the one its metadata names, else the active connection. */
  connectionFor(notebook: vscode.NotebookDocument): Connection {
    const name = notebook.metadata?.connection;
    const all = this.services.connections.list();
    const named = typeof name === 'string' ? all.find((c) => c.name === name || c.id === name) : undefined;
    return named ?? this.services.connections.active();
  }

  /** A client for the notebook; the notebook's org (metadata) wins over the connection's. */
  async clientFor(notebook: vscode.NotebookDocument): Promise<ConnectedClient & { org: string }> {
    const connected = await this.services.clients.forConnection(this.connectionFor(notebook));
    const org =
      typeof notebook.metadata?.org === 'string' && notebook.metadata.org
        ? notebook.metadata.org
        : connected.connection.org;
    return { ...connected, org };
  }

  /** Datasource ids for completion, fetched from the connection once and cached. */
  datasources(notebook: vscode.NotebookDocument): Promise<DatasourceSuggestion[]> {
    const connection = this.connectionFor(notebook);
    const hit = this.datasourceCache.get(connection.id);
    if (hit && Date.now() - hit.at < DATASOURCE_CACHE_MS) return hit.list;
    const list = this.clientFor(notebook).then(async ({ client, org }) => {
      const reply = await client.listDatasources(org, { timeoutMs: 10_000 });
      return reply.datasources.map((d) => ({
        id: d.datasourceId,
        name: d.orgAnnotations?.name,
        sourceType: d.sourceType,
      }));
    });
    list.catch(() => this.datasourceCache.delete(connection.id));
    this.datasourceCache.set(connection.id, { at: Date.now(), list });
    return list;
  }

  private update(): void {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    if (notebook?.notebookType !== NOTEBOOK_TYPE) {
      this.item.hide();
      return;
    }
    const c = this.connectionFor(notebook);
    this.item.text = `$(plug) ${c.name}`;
    this.item.tooltip = `Measurements notebook connection: ${c.name} (${c.baseUrl}). Click to change.`;
    this.item.show();
  }

  private async pick(uri?: vscode.Uri): Promise<void> {
    const notebook =
      (uri && vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString())) ??
      vscode.window.activeNotebookEditor?.notebook;
    if (!notebook || notebook.notebookType !== NOTEBOOK_TYPE) {
      void vscode.window.showInformationMessage('Open a measurements notebook (.measnb) first.');
      return;
    }
    const current = this.connectionFor(notebook);
    const picked = await vscode.window.showQuickPick(
      this.services.connections.list().map((c) => ({
        label: c.name,
        description: c.id === current.id ? `${c.baseUrl} (current)` : c.baseUrl,
        detail: c.org ? `org ${c.org}` : undefined,
        connection: c,
      })),
      { title: 'Connection for this notebook', placeHolder: 'Cells of this notebook run against…' },
    );
    if (!picked) return;
    await setNotebookConnection(notebook, picked.connection);
    this.update();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subs) s.dispose();
  }
}

export async function setNotebookConnection(notebook: vscode.NotebookDocument, connection: Connection): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const metadata: Record<string, unknown> = { ...notebook.metadata, connection: connection.name };
  // The org belongs to the connection; a notebook that named another org keeps it only for the same connection.
  delete metadata.org;
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata(metadata)]);
  await vscode.workspace.applyEdit(edit);
}
