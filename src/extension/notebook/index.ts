// The notebook layer: the .measnb serializer, the measq controller, language features, the notebook's
// connection, and saving tables from the renderer. Called once from activate().
import * as vscode from 'vscode';
import { writeParquet } from '../../core/table/parquet';
import { serviceKindOf } from '../connections/connection';
import type { ReportPolls } from '../reports/report-watcher';
import type { ExtensionServices } from '../services';
import { registerAqCommands } from './aq-commands';
import { registerChartChoice } from './chart-choice';
import { MeasnbController } from './controller';
import { registerEvaluationExport } from './evaluation-export';
import { FollowStore } from './follow-store';
import { type DatasourceSource, registerLanguageFeatures, type ServiceSource } from './language';
import { registerNotebookCommands, SqlCellContext } from './notebook-commands';
import { NotebookConnections } from './notebook-connection';
import { NotebookTimeZones } from './notebook-time-zone';
import { registerQuickFixes } from './quick-fix';
import { registerRunWithParameters, runParamValues } from './run-with-params';
import { registerSaveHandler } from './save-handler';
import { MeasnbSerializer, NOTEBOOK_TYPE } from './serializer';
import { SqlSessions } from './sql-sessions';

export interface NotebookApi {
  controller: MeasnbController;
  connections: NotebookConnections;
  follow: FollowStore;
  /** Which cells the Copy as curl / Python menu items hide on (sql cells). */
  sqlCells: SqlCellContext;
}

export function registerNotebooks(
  context: vscode.ExtensionContext,
  services: ExtensionServices,
  /** The Reports view's watcher: it observes the reports report cells poll. */
  reportPolls?: ReportPolls,
): NotebookApi {
  const connections = new NotebookConnections(services, services.clock);
  const follow = new FollowStore(context.workspaceState);
  const storageUri = context.storageUri ?? context.globalStorageUri;
  const sql = new SqlSessions(storageUri);
  const sqlCells = new SqlCellContext();
  const controller = new MeasnbController({
    services,
    connections,
    follow,
    sql,
    storageUri,
    reportPolls,
  });
  const notebookOf = (doc: vscode.TextDocument) =>
    vscode.workspace.notebookDocuments.find((nb) => nb.getCells().some((c) => c.document === doc));
  const datasourcesOf: DatasourceSource = (doc) => {
    const nb = notebookOf(doc);
    return nb ? connections.datasources(nb) : undefined;
  };
  // Who a cell goes to (its notebook's connection): what the metric catalogue may refuse.
  const serviceOf: ServiceSource = (doc) => {
    const nb = notebookOf(doc);
    return serviceKindOf(nb ? connections.connectionFor(nb) : services.connections.active());
  };
  context.subscriptions.push(
    vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new MeasnbSerializer(controller.results), {
      transientOutputs: false,
      transientCellMetadata: { inputCollapsed: true, outputCollapsed: true },
    }),
    connections,
    new NotebookTimeZones((nb, zone) => controller.relabelOutputs(nb, zone)),
    controller,
    sql,
    registerSaveHandler(writeParquet, controller.progressive),
    registerChartChoice(),
    registerEvaluationExport(),
    ...registerNotebookCommands(connections, () => services.clock.now(), sqlCells),
    registerRunWithParameters(controller),
    ...registerAqCommands({ sql, tables: services.tables, now: () => services.clock.now() }),
    ...registerLanguageFeatures(services.clock, datasourcesOf, serviceOf, {
      notebookOf,
      sessionOf: (nb) => sql.for(nb),
    }),
    registerQuickFixes(services.clock, serviceOf, datasourcesOf, (doc) => {
      const nb = notebookOf(doc);
      return nb ? runParamValues(nb) : new Map();
    }),
  );
  return { controller, connections, follow, sqlCells };
}
