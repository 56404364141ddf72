// Connections: the built-in local emulator plus those in the user's own `measurements.connections`
// setting. Where a key is sent is decided by the user only: the list is read from the user (global)
// settings alone, never from a workspace's (a cloned repository's .vscode/settings.json), even if VS
// Code hands such a value over; a workspace may at most pick one of the user's connections. Keys go
// through KeyStore (SecretStorage) only, and a key is deleted only by Remove Connection.
import * as vscode from 'vscode';
import {
  type Connection,
  isLocalEmulator,
  LOCAL_EMULATOR_ID,
  LOCAL_EMULATOR_NAME,
  newConnectionId,
} from './connection';
import type { KeyStore } from './key-store';

const SECTION = 'measurements';

export class ConnectionStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(readonly keys: KeyStore) {
    // No key is ever deleted here: a settings change may come from a workspace or a branch checkout.
    this.sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.connections`) || e.affectsConfiguration(`${SECTION}.activeConnection`)) {
        this.changed.fire();
      }
    });
  }

  /** The local emulator's entry; its URL and org are known once it runs. */
  localEmulator(): Connection {
    return { id: LOCAL_EMULATOR_ID, name: LOCAL_EMULATOR_NAME, baseUrl: 'http://127.0.0.1', org: 'demo-org' };
  }

  /** The user's connections: `measurements.connections` from the user settings only (first of an id wins). */
  configured(): Connection[] {
    const raw = vscode.workspace.getConfiguration(SECTION).inspect<unknown[]>('connections')?.globalValue;
    if (!Array.isArray(raw)) return [];
    const seen = new Set<string>([LOCAL_EMULATOR_ID]);
    return raw.filter((c): c is Connection => {
      if (!isConnection(c) || seen.has(c.id)) return false;
      seen.add(c.id);
      return true;
    });
  }

  list(): Connection[] {
    return [this.localEmulator(), ...this.configured()];
  }

  get(id: string): Connection | undefined {
    return this.list().find((c) => c.id === id);
  }

  /** One of the user's connections by id, else by name (a workspace or notebook knows names, not ids). */
  find(idOrName: string): Connection | undefined {
    const all = this.list();
    return all.find((c) => c.id === idOrName) ?? all.find((c) => c.name === idOrName);
  }

  /**
   * `measurements.activeConnection`: a workspace (folder) value may pick one of the user's connections
   * by id or name; a value naming none of them is passed over for the user's own choice.
   */
  activeId(): string {
    const v = vscode.workspace.getConfiguration(SECTION).inspect<string>('activeConnection');
    for (const pick of [v?.workspaceFolderValue, v?.workspaceValue, v?.globalValue]) {
      const c = typeof pick === 'string' && pick ? this.find(pick) : undefined;
      if (c) return c.id;
    }
    return LOCAL_EMULATOR_ID;
  }

  active(): Connection {
    return this.get(this.activeId()) ?? this.localEmulator();
  }

  async select(id: string): Promise<void> {
    if (!this.get(id)) throw new Error(`No connection with id ${id}`);
    const config = vscode.workspace.getConfiguration(SECTION);
    await config.update('activeConnection', id, vscode.ConfigurationTarget.Global);
    // A workspace's pick would still win over the user's: the user's choice here replaces it.
    const v = config.inspect<string>('activeConnection');
    if (v?.workspaceFolderValue !== undefined && v.workspaceFolderValue !== id) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      await vscode.workspace
        .getConfiguration(SECTION, folder)
        .update('activeConnection', id, vscode.ConfigurationTarget.WorkspaceFolder);
    }
    if (v?.workspaceValue !== undefined && v.workspaceValue !== id) {
      await config.update('activeConnection', id, vscode.ConfigurationTarget.Workspace);
    }
    this.changed.fire();
  }

  async add(c: Omit<Connection, 'id'>, apiKey?: string): Promise<Connection> {
    const conn: Connection = { id: newConnectionId(), name: c.name, baseUrl: c.baseUrl.trim(), org: c.org.trim() };
    if (apiKey) await this.keys.set(conn.id, apiKey);
    await this.write([...this.configured(), conn]);
    return conn;
  }

  async remove(id: string): Promise<void> {
    if (isLocalEmulator(id)) throw new Error('The local emulator connection is built in and cannot be removed.');
    await this.keys.delete(id);
    await this.write(this.configured().filter((c) => c.id !== id));
    const config = vscode.workspace.getConfiguration(SECTION);
    if (config.inspect<string>('activeConnection')?.globalValue === id) {
      await config.update('activeConnection', LOCAL_EMULATOR_ID, vscode.ConfigurationTarget.Global);
      this.changed.fire();
    }
  }

  /** Writes the user's list (user settings): only entries of the user's own list, never a workspace's. */
  private async write(list: Connection[]): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update('connections', list, vscode.ConfigurationTarget.Global);
    this.changed.fire();
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

function isConnection(x: unknown): x is Connection {
  const c = x as Partial<Connection> | null;
  return (
    !!c &&
    typeof c.id === 'string' &&
    typeof c.name === 'string' &&
    typeof c.baseUrl === 'string' &&
    typeof c.org === 'string'
  );
}
