// Run Recent Query (a short form; the result opens as a table) and New Measurement Notebook.
import * as vscode from 'vscode';
import {
  type DatasourceInfo,
  OUTPUT_FREQUENCIES,
  type OutputFrequency,
  RECENT_FORMATS,
  type RecentFormat,
  type RecentQueryRequest,
} from '../../core/api/types';
import { connectionResultInfo } from '../../core/run/outputs';
import type { ExtensionServices } from '../services';
import { pickMany, pickOne } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';

const TITLE = 'Run Recent Query';

export function registerQueryCommands(s: ExtensionServices): vscode.Disposable[] {
  return [
    registerCommand('measurements.runRecentQuery', () => runRecentQuery(s)),
    registerCommand('measurements.newNotebook', () => newNotebook(s)),
  ];
}

type ConnectedClient = Awaited<ReturnType<ExtensionServices['clients']['forConnection']>>;

async function runRecentQuery(s: ExtensionServices) {
  const connected = await s.clients.forConnection();
  const { connection, client } = connected;
  const asked = await askRecentQuery(connected);
  if (!asked) return undefined;
  const { req, datasources } = asked;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Running recent query…', cancellable: true },
    (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return client.recentQuery(req, { signal: abort.signal });
    },
  );
  // Its datasources' names and line styles from the connection's list, as a notebook output of the same result.
  const title = `Recent ${req.outputFrequency} · ${connection.name}`;
  return s.tables.show(title, result.table, { title, ...connectionResultInfo(result.table, datasources) });
}

/**
 * The three steps of Run Recent Query: datasources, output frequency, format (undefined when cancelled); with the
 * connection's datasource list they were picked from.
 */
async function askRecentQuery({
  connection,
  client,
}: ConnectedClient): Promise<{ req: RecentQueryRequest; datasources: DatasourceInfo[] } | undefined> {
  const list = await client.listDatasources(connection.org);
  const all = { label: '$(list-flat) All datasources', description: 'allDatasources: true' };
  const items = list.datasources.map((d) => ({
    label: d.datasourceId,
    description: d.orgAnnotations?.name ?? '',
    detail: d.sourceType,
  }));
  const picked = await pickMany([all, ...items], {
    title: `${TITLE} (${connection.name}, org ${connection.org})`,
    step: 1,
    totalSteps: 3,
    placeholder: 'Datasources: tick some, or type to filter and press Enter for one',
    atLeastOne: true,
  });
  if (!picked || picked.length === 0) return undefined;
  const freq = await pickOne(
    OUTPUT_FREQUENCIES.map((f) => ({ label: f })),
    {
      title: TITLE,
      step: 2,
      totalSteps: 3,
      placeholder: 'outputFrequency (minute: the last hour; hour: 24 h; day: 48 h)',
    },
  );
  if (!freq) return undefined;
  const format = await pickOne(
    RECENT_FORMATS.map((f) => ({ label: f, description: f === 'json-long' ? 'default' : undefined })),
    { title: TITLE, step: 3, totalSteps: 3, placeholder: 'format (both end as the same table)' },
  );
  if (!format) return undefined;
  const req: RecentQueryRequest = {
    org: connection.org,
    outputFrequency: freq.label as OutputFrequency,
    format: format.label as RecentFormat,
    ...(picked.includes(all) ? { allDatasources: true } : { datasourceIds: picked.map((p) => p.label) }),
  };
  return { req, datasources: list.datasources };
}

async function newNotebook(s: ExtensionServices): Promise<vscode.NotebookDocument> {
  const cell = new vscode.NotebookCellData(
    vscode.NotebookCellKind.Code,
    '# PM2.5 NowCast of every datasource over the last 6 hours\nrecent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast\nstartTime: -6h\n',
    'measq',
  );
  const intro = new vscode.NotebookCellData(
    vscode.NotebookCellKind.Markup,
    `# Measurements\nConnection: **${s.connections.active().name}**. Run a cell with Shift+Enter.`,
    'markdown',
  );
  const doc = await vscode.workspace.openNotebookDocument('measnb', new vscode.NotebookData([intro, cell]));
  await vscode.window.showNotebookDocument(doc);
  return doc;
}
