// One MeasurementsClient per connection (and key), built on demand: the local emulator is started on
// first use, other connections need their key from SecretStorage. Every request is logged to the
// "Measurements" channel through the client's logger, which also keeps the daily quota count: every
// report creation (from a command or a notebook cell) counts, and a 429 on it means none are left.

import { MissingKeyError, nextUtcMidnight } from '../../core/api/errors';
import { PATHS } from '../../core/api/paths';
import { MeasurementsClient, type RequestLogEntry } from '../../core/client/client.node';
import { nowDate, type WaitClock } from '../../core/time/clock';
import type { RequestLog } from '../log/request-log';
import type { QuotaTracker } from '../quota/quota-tracker';
import { requireTrust } from '../trust';
import { type Connection, isLocalEmulator } from './connection';
import type { ConnectionStore } from './connection-store';
import type { LocalEmulator } from './local-emulator';

export interface ConnectedClient {
  /** The connection with its effective base URL and org (for the emulator: where it runs). */
  connection: Connection;
  client: MeasurementsClient;
}

export class ClientProvider {
  private readonly cache = new Map<string, { key: string | undefined; baseUrl: string; client: ConnectedClient }>();

  constructor(
    private readonly connections: ConnectionStore,
    private readonly emulator: LocalEmulator,
    private readonly log: RequestLog,
    private readonly quota: QuotaTracker,
    /** The services' clock. */
    private readonly clock: WaitClock,
  ) {
    connections.onDidChange(() => this.cache.clear());
  }

  /**
   * A client for the connection (the active one by default). Throws MissingKeyError without a key, and
   * UntrustedWorkspaceError in Restricted Mode (no request is sent from an untrusted workspace).
   */
  async forConnection(connection: Connection = this.connections.active()): Promise<ConnectedClient> {
    requireTrust('Sending requests to the service');
    if (isLocalEmulator(connection)) {
      const emu = await this.emulator.start();
      this.log.addSecret(emu.apiKey);
      return this.cached(connection, emu.apiKey, () => ({
        connection: { ...connection, baseUrl: emu.url, org: emu.org },
        client: this.create(connection, emu.url, emu.apiKey, emu.org),
      }));
    }
    // The key goes only to the base URL of the user's own connection of that id, whatever was passed in.
    const own = this.connections.get(connection.id);
    if (!own) throw new Error(`"${connection.name}" is not one of your connections (Measurements: Add Connection).`);
    const key = await this.connections.keys.get(own.id);
    if (!key) throw new MissingKeyError(own.name);
    this.log.addSecret(key);
    return this.cached(own, key, () => ({
      connection: own,
      client: this.create(own, own.baseUrl, key, own.org),
    }));
  }

  /** A client without a key (Test Connection's first step). */
  anonymous(connection: Connection, baseUrl = connection.baseUrl): MeasurementsClient {
    return this.create(connection, baseUrl, undefined, connection.org);
  }

  private cached(connection: Connection, key: string | undefined, make: () => ConnectedClient): ConnectedClient {
    const hit = this.cache.get(connection.id);
    if (hit && hit.key === key && hit.baseUrl === connection.baseUrl) return hit.client;
    const client = make();
    this.cache.set(connection.id, { key, baseUrl: connection.baseUrl, client });
    return client;
  }

  private create(connection: Connection, baseUrl: string, apiKey: string | undefined, org: string): MeasurementsClient {
    return new MeasurementsClient({
      baseUrl,
      apiKey,
      clock: this.clock,
      log: (e) => {
        this.log.request(connection.name, e);
        this.countQuota(quotaKey(connection.id, org), e);
      },
    });
  }

  private countQuota(key: string, e: RequestLogEntry): void {
    if (e.method !== 'POST' || !e.path.endsWith(PATHS.reportRequests)) return;
    if (e.status !== undefined && e.status >= 200 && e.status < 300) void this.quota.recordCreated(key);
    if (e.status === 429) void this.quota.recordExhausted(key, nextUtcMidnight(nowDate(this.clock)));
  }
}

/** The quota is per org of a connection (the same org on two services is two quotas). */
export function quotaKey(connectionId: string, org: string): string {
  return `${connectionId}|${org}`;
}
