// What the extension's parts share (also handed to the notebook layer by registerNotebooks).
import type { SettableClock } from '../core/time/clock';
import type { ClientProvider } from './connections/client-provider';
import type { ConnectionStore } from './connections/connection-store';
import type { RequestLog } from './log/request-log';
import type { QuotaTracker } from './quota/quota-tracker';
import type { ReportsStore } from './reports/reports-store';
import type { TablePanels } from './table/table-panel';

export interface ExtensionServices {
  /** The one clock every wall-clock read and wait of the extension goes through (host tests set it). */
  clock: SettableClock;
  connections: ConnectionStore;
  /** clients.forConnection(connection?) → { connection (effective URL/org), client }. */
  clients: ClientProvider;
  log: RequestLog;
  quota: QuotaTracker;
  /** Reports shown in the Reports view; track(record, connectionId) adds one and polls it. */
  reports: ReportsStore;
  /** tables.show(title, table): a table in a webview panel. */
  tables: TablePanels;
}
