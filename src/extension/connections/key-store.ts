// API keys in SecretStorage, keyed by connection id. A list of the ids that have a key is kept in
// global state (SecretStorage cannot be listed). A key is deleted only when the user removes its
// connection (Remove Connection), never because a settings file changed: settings may come from a
// workspace or a branch checkout.
import type * as vscode from 'vscode';

const SECRET_PREFIX = 'measurements.apiKey.';
const INDEX_KEY = 'measurements.keyedConnections';

export class KeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  static secretName(connectionId: string): string {
    return `${SECRET_PREFIX}${connectionId}`;
  }

  async get(connectionId: string): Promise<string | undefined> {
    return this.secrets.get(KeyStore.secretName(connectionId));
  }

  async set(connectionId: string, key: string): Promise<void> {
    await this.secrets.store(KeyStore.secretName(connectionId), key);
    const ids = new Set(this.ids());
    ids.add(connectionId);
    await this.state.update(INDEX_KEY, [...ids]);
  }

  async delete(connectionId: string): Promise<void> {
    await this.secrets.delete(KeyStore.secretName(connectionId));
    await this.state.update(
      INDEX_KEY,
      this.ids().filter((id) => id !== connectionId),
    );
  }

  ids(): string[] {
    return this.state.get<string[]>(INDEX_KEY, []);
  }
}
