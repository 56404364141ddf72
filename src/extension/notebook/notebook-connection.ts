// Each notebook runs against one connection, named in its metadata (never its key). Shown in the status
// bar while a .measnb is active and switchable from there or the notebook toolbar.
import * as vscode from 'vscode';
import { DatasourceDirectory } from '../../core/api/datasource-directory';
import type { Clock } from '../../core/time/clock';
import type { ConnectedClient } from '../connections/client-provider';
import type { Connection } from '../connections/connection';
import type { ConnectionStore } from '../connections/connection-store';
import type { ExtensionServices } from '../services';
import { registerCommand } from '../ui/register-command';
import { NotebookStatusItem, notebookToChange } from './notebook-status';

const SELECT_CONNECTION_COMMAND = 'measurements.notebook.selectConnection';
/** Connections (with org) whose datasources are kept for completion and hover; the oldest goes first. */
const MAX_DIRECTORIES = 8;
const LOOKUP_TIMEOUT_MS = 10_000;

export class NotebookConnections implements vscode.Disposable {
  private readonly status: NotebookStatusItem;
  private readonly subs: vscode.Disposable[] = [];
  private readonly directories = new Map<string, DatasourceDirectory>();

  constructor(
    private readonly services: ExtensionServices,
    private readonly clock: Clock,
  ) {
    this.status = new NotebookStatusItem({
      id: 'measurements.notebookConnection',
      name: 'Measurements notebook connection',
      command: SELECT_CONNECTION_COMMAND,
      priority: 100,
      label: (notebook) => {
        const c = this.connectionFor(notebook);
        return {
          text: `$(plug) ${c.name}`,
          tooltip: `Measurements notebook connection: ${c.name} (${c.baseUrl}). Click to change.`,
        };
      },
    });
    this.subs.push(
      services.connections.onDidChange(() => {
        // A connection added, changed or removed (URL, org, key): nothing fetched through it is trusted.
        this.directories.clear();
        this.status.update();
      }),
      registerCommand(SELECT_CONNECTION_COMMAND, (uri?: vscode.Uri) => this.pick(uri)),
    );
  }

  /** The notebook's connection: the one its metadata names, else the active connection. */
  connectionFor(notebook: vscode.NotebookDocument): Connection {
    return notebookConnection(notebook, this.services.connections);
  }

  /** A client for the notebook; the notebook's org (metadata) wins over the connection's. */
  clientFor(notebook: vscode.NotebookDocument): Promise<ConnectedClient & { org: string }> {
    return this.clientOf(this.connectionFor(notebook), orgOf(notebook));
  }

  private async clientOf(connection: Connection, org: string): Promise<ConnectedClient & { org: string }> {
    const connected = await this.services.clients.forConnection(connection);
    return { ...connected, org: org || connected.connection.org };
  }

  /**
   * The datasources of the notebook's connection and org, for completion and hover: the list and each
   * datasource in detail, fetched once and kept for a while (core/api/datasource-directory).
   */
  datasources(notebook: vscode.NotebookDocument): DatasourceDirectory {
    const connection = this.connectionFor(notebook);
    const org = orgOf(notebook);
    const key = `${connection.id}\n${org}`;
    const hit = this.directories.get(key);
    if (hit) return hit;
    while (this.directories.size >= MAX_DIRECTORIES) {
      const oldest = this.directories.keys().next().value;
      if (oldest === undefined) break;
      this.directories.delete(oldest);
    }
    const client = () => this.clientOf(connection, org);
    const directory = new DatasourceDirectory(
      {
        list: async () => {
          const c = await client();
          return (await c.client.listDatasources(c.org, { timeoutMs: LOOKUP_TIMEOUT_MS })).datasources;
        },
        detail: async (id) => {
          const c = await client();
          return c.client.getDatasource(c.org, id, { timeoutMs: LOOKUP_TIMEOUT_MS });
        },
      },
      this.clock,
    );
    this.directories.set(key, directory);
    return directory;
  }

  private async pick(uri?: vscode.Uri): Promise<void> {
    const notebook = notebookToChange(uri);
    if (!notebook) return;
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
    this.status.update();
  }

  dispose(): void {
    this.status.dispose();
    for (const s of this.subs) s.dispose();
  }
}

/** The notebook's connection: the one its metadata names, else the active connection. */
export function notebookConnection(notebook: vscode.NotebookDocument, connections: ConnectionStore): Connection {
  const name = notebook.metadata?.connection;
  const all = connections.list();
  const named = typeof name === 'string' ? all.find((c) => c.name === name || c.id === name) : undefined;
  return named ?? connections.active();
}

/** The org a notebook names in its metadata ('' when it uses its connection's). */
export function orgOf(notebook: vscode.NotebookDocument): string {
  const org = notebook.metadata?.org;
  return typeof org === 'string' ? org : '';
}

export async function setNotebookConnection(notebook: vscode.NotebookDocument, connection: Connection): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const metadata: Record<string, unknown> = { ...notebook.metadata, connection: connection.name };
  // The org belongs to the connection; a notebook that named another org keeps it only for the same connection.
  delete metadata.org;
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata(metadata)]);
  await vscode.workspace.applyEdit(edit);
}
