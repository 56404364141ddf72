// Activation: builds the services and registers every part. Activation is lazy (the Reports view, a
// command, a .measnb notebook or the query language opens it); nothing here talks to the network.
import path from 'node:path';
import * as vscode from 'vscode';
import { pollDelayMs } from '../core/reports/schedule';
import { SettableClock } from '../core/time/clock';
import { registerArchiveCommands } from './commands/archive-commands';
import { registerCliCommand } from './commands/cli-command';
import { registerConnectionCommands } from './commands/connection-commands';
import { createReportFlow } from './commands/create-report';
import { registerQueryCommands } from './commands/query-commands';
import { registerReportActions } from './commands/report-actions';
import { registerReportCommands } from './commands/report-commands';
import { ClientProvider, quotaKey } from './connections/client-provider';
import { ConnectionStore } from './connections/connection-store';
import { KeyStore } from './connections/key-store';
import { LocalEmulator } from './connections/local-emulator';
import { RequestLog } from './log/request-log';
import { type NotebookApi, registerNotebooks } from './notebook/index';
import { QuotaStatusItem } from './quota/quota-status';
import { checkQuotaMark, QuotaTracker } from './quota/quota-tracker';
import { ReportCellStatus } from './reports/report-cell-status';
import { ReportFiles } from './reports/report-files';
import { notifyFinished, ReportWatcher } from './reports/report-watcher';
import { checkTrackedReport, ReportsStore } from './reports/reports-store';
import { ReportsTreeProvider, SHOW_ALL_CONNECTIONS, showAllConnections } from './reports/reports-tree';
import type { ExtensionServices } from './services';
import { SerialMemento } from './state/serial-memento';
import { SharedRecords } from './state/shared-records';
import { registerTableEditor, type TableFileEditorProvider } from './table/table-editor';
import { TablePanels } from './table/table-panel';
import { whenTrusted } from './trust';
import { onDidNotify } from './ui/notices';
import { onDidShowQuickInput } from './ui/quick-input';
import { registerCommand, setCommandErrorLog } from './ui/register-command';
import { registerWalkthrough } from './walkthrough';

/** What activate() returns: used by the integration suite (and by anyone scripting the extension). */
export interface MeasurementsApi {
  /** Milliseconds activate() took. */
  activationMs: number;
  services: ExtensionServices;
  watcher: ReportWatcher;
  notebooks: NotebookApi;
  tree: ReportsTreeProvider;
  /** Every quick pick / input box the extension shows (the suite answers them through the workbench). */
  onDidShowQuickInput: typeof onDidShowQuickInput;
  /** Notices (quota, finished reports) as they are shown. */
  onDidNotify: typeof onDidNotify;
  /** The Open/Reveal items of report cells' files. */
  reportCells: ReportCellStatus;
  /** The Measurements Table editor of local .csv/.csv.gz/.parquet files. */
  tableEditor: TableFileEditorProvider;
  /** The status bar item of the daily report quota. */
  quotaStatus: vscode.StatusBarItem;
  /** Where the "Measurements" log channel is written. */
  logUri: vscode.Uri;
  /** The global state the key index lives in (written one at a time); reports and quota are in SharedRecords. */
  globalState: SerialMemento;
  /** VS Code's own global state under it (what a reload reads back). */
  persistedState: vscode.Memento;
}

let emulator: LocalEmulator | undefined;
/** What deactivation waits for: the shared records' writes still queued. */
let pendingWrites: (() => Promise<unknown>) | undefined;

export function activate(context: vscode.ExtensionContext): MeasurementsApi {
  const started = performance.now();
  const log = new RequestLog();
  setCommandErrorLog((m) => log.error(m));
  const state = new SerialMemento(context.globalState);
  const services = createServices(context, log, state);
  const { connections, quota, reports } = services;
  pendingWrites = () => Promise.all([reports.flushed(), quota.flushed()]);
  const { quotaItem, tree, view, updateViewTitle, watcher, files, reportCells } = reportViews(
    services,
    context.globalStorageUri,
  );

  context.subscriptions.push(log, connections, quota, quotaItem, reports, reportCells, tree, view, watcher);
  context.subscriptions.push(
    connections.onDidChange(() => {
      updateViewTitle();
      quotaItem.update();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SHOW_ALL_CONNECTIONS)) updateViewTitle();
    }),
    registerCommand('measurements.showOutput', () => log.channel.show(true)),
    registerCommand('measurements.createReport', () => createReportFlow(services)),
    ...registerConnectionCommands(services),
    ...registerReportCommands(services, watcher, files),
    ...registerReportActions(services),
    ...registerQueryCommands(services),
    ...registerArchiveCommands(services),
    ...registerCliCommand(context),
    ...registerWalkthrough({ extensionUri: context.extensionUri, storageUri: context.globalStorageUri }, reports),
  );
  const tableEditor = registerTableEditor(services.tables);
  context.subscriptions.push(...tableEditor.disposables);
  const notebooks = registerNotebooks(context, services, watcher);
  // Polling sends requests (and may start the emulator): in Restricted Mode it waits for trust.
  context.subscriptions.push(whenTrusted(() => watcher.resume()));
  return {
    activationMs: performance.now() - started,
    services,
    watcher,
    notebooks,
    tree,
    reportCells,
    tableEditor: tableEditor.provider,
    onDidShowQuickInput,
    onDidNotify,
    quotaStatus: quotaItem.item,
    logUri: context.logUri,
    globalState: state,
    persistedState: context.globalState,
  };
}

/** The services every part of the extension shares: one clock, the connections, clients, reports, quota. */
function createServices(context: vscode.ExtensionContext, log: RequestLog, state: SerialMemento): ExtensionServices {
  const keys = new KeyStore(context.secrets, state);
  const connections = new ConnectionStore(keys);
  emulator = new LocalEmulator(
    context.extensionPath,
    path.join(context.globalStorageUri.fsPath, 'local-emulator', 'state.json'),
  );
  // Reports and quota marks: one record each in a folder every window shares (not global state, where
  // windows alive at once replace each other's writes).
  const shared = (name: string) => path.join(context.globalStorageUri.fsPath, 'shared', name);
  const clock = new SettableClock();
  const now = () => clock.now();
  const quota = new QuotaTracker(new SharedRecords(shared('quota'), checkQuotaMark), now);
  const clients = new ClientProvider(connections, emulator, log, quota, clock);
  const reports = new ReportsStore(new SharedRecords(shared('reports'), checkTrackedReport), now);
  void reports.adoptLegacy(state);
  void quota.tidy(state);
  const tables = new TablePanels(context.extensionUri);
  return { clock, connections, clients, log, quota, reports, tables };
}

/** The reports view and the quota status item, and what keeps reports up to date (watcher, files, cells). */
function reportViews(services: ExtensionServices, globalStorageUri: vscode.Uri) {
  const { clock, connections, clients, quota, reports } = services;
  const now = () => clock.now();
  const quotaItem = new QuotaStatusItem(
    quota,
    () => {
      const c = connections.active();
      return { key: quotaKey(c.id, c.org), org: c.org };
    },
    now,
  );
  const tree = new ReportsTreeProvider(reports, connections, now);
  tree.startAgeTicker();
  const view = vscode.window.createTreeView('measurements.reports', { treeDataProvider: tree, showCollapseAll: true });
  const updateViewTitle = () => {
    view.description = showAllConnections() ? 'all connections' : connections.active().name;
  };
  updateViewTitle();
  const watcher = new ReportWatcher(reports, clients, connections, clock, pollDelayMs, notifyFinished);
  const files = new ReportFiles(reports, clients, connections, globalStorageUri);
  const reportCells = new ReportCellStatus(reports);
  return { quotaItem, tree, view, updateViewTitle, watcher, files, reportCells };
}

export async function deactivate(): Promise<void> {
  await Promise.all([pendingWrites?.(), emulator?.stop()]);
}
