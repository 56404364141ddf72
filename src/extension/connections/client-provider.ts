// One MeasurementsClient per connection (and key), built on demand: the local emulator is started on
// first use, other connections need their key from SecretStorage. Every request is logged to the
// "Measurements" channel through the client's logger.
import { MeasurementsClient } from '../../core/api/client';
import type { RequestLog } from '../log/request-log';
import { type Connection, isLocalEmulator } from './connection';
import type { ConnectionStore } from './connection-store';
import type { LocalEmulator } from './local-emulator';

export interface ConnectedClient {
  /** The connection with its effective base URL and org (for the emulator: where it runs). */
  connection: Connection;
  client: MeasurementsClient;
}

export class MissingKeyError extends Error {
  constructor(readonly connection: Connection) {
    super(`No API key is set for the connection "${connection.name}". Run "Measurements: Set API Key".`);
  }
}

export class ClientProvider {
  private readonly cache = new Map<string, { key: string | undefined; client: ConnectedClient }>();

  constructor(
    private readonly connections: ConnectionStore,
    private readonly emulator: LocalEmulator,
    private readonly log: RequestLog,
  ) {
    connections.onDidChange(() => this.cache.clear());
  }

  /** A client for the connection (the active one by default). Throws MissingKeyError without a key. */
  async forConnection(connection: Connection = this.connections.active()): Promise<ConnectedClient> {
    if (isLocalEmulator(connection)) {
      const emu = await this.emulator.start();
      this.log.addSecret(emu.apiKey);
      return this.cached(connection.id, emu.apiKey, () => ({
        connection: { ...connection, baseUrl: emu.url, org: emu.org },
        client: this.create(connection.name, emu.url, emu.apiKey),
      }));
    }
    const key = await this.connections.keys.get(connection.id);
    if (!key) throw new MissingKeyError(connection);
    this.log.addSecret(key);
    return this.cached(connection.id, key, () => ({
      connection,
      client: this.create(connection.name, connection.baseUrl, key),
    }));
  }

  /** A client without a key (Test Connection's first step). */
  anonymous(connection: Connection, baseUrl = connection.baseUrl): MeasurementsClient {
    return this.create(connection.name, baseUrl, undefined);
  }

  private cached(id: string, key: string | undefined, make: () => ConnectedClient): ConnectedClient {
    const hit = this.cache.get(id);
    if (hit && hit.key === key) return hit.client;
    const client = make();
    this.cache.set(id, { key, client });
    return client;
  }

  private create(name: string, baseUrl: string, apiKey: string | undefined): MeasurementsClient {
    return new MeasurementsClient({ baseUrl, apiKey, log: (e) => this.log.request(name, e) });
  }
}
