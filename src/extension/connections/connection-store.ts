// Connections: the built-in local emulator plus those in the `measurements.connections` setting.
// Keys go through KeyStore (SecretStorage) only; removing a connection deletes its key first.
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
    this.sub = vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration(`${SECTION}.connections`)) {
        await this.keys.prune(this.list().map((c) => c.id));
      }
      if (e.affectsConfiguration(`${SECTION}.connections`) || e.affectsConfiguration(`${SECTION}.activeConnection`)) {
        this.changed.fire();
      }
    });
  }

  /** The local emulator's entry; its URL and org are known once it runs. */
  localEmulator(): Connection {
    return { id: LOCAL_EMULATOR_ID, name: LOCAL_EMULATOR_NAME, baseUrl: 'http://127.0.0.1', org: 'demo-org' };
  }

  configured(): Connection[] {
    const raw = vscode.workspace.getConfiguration(SECTION).get<unknown[]>('connections', []);
    return raw.filter(isConnection);
  }

  list(): Connection[] {
    return [this.localEmulator(), ...this.configured()];
  }

  get(id: string): Connection | undefined {
    return this.list().find((c) => c.id === id);
  }

  activeId(): string {
    const id = vscode.workspace.getConfiguration(SECTION).get<string>('activeConnection') || LOCAL_EMULATOR_ID;
    return this.get(id) ? id : LOCAL_EMULATOR_ID;
  }

  active(): Connection {
    return this.get(this.activeId()) ?? this.localEmulator();
  }

  async select(id: string): Promise<void> {
    if (!this.get(id)) throw new Error(`No connection with id ${id}`);
    await vscode.workspace.getConfiguration(SECTION).update('activeConnection', id, vscode.ConfigurationTarget.Global);
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
    if (this.activeId() === id || vscode.workspace.getConfiguration(SECTION).get('activeConnection') === id) {
      await this.select(LOCAL_EMULATOR_ID);
    }
  }

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
