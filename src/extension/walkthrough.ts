// The Getting Started walkthrough (package.json `contributes.walkthroughs`): the command that opens the
// tour, and the context keys that complete its steps when the user really does each thing.
import * as vscode from 'vscode';
import { RENDERER_ID, type ViewChanged } from '../core/notebook/renderer-protocol';
import { MeasnbSerializer, NOTEBOOK_TYPE } from './notebook/serializer';
import type { ReportsStore } from './reports/reports-store';
import { registerCommand } from './ui/register-command';

/** Context keys named by the walkthrough's `completionEvents` (`onContext:<key>`). */
export const WALKTHROUGH_CONTEXT = {
  tourOpened: 'measurements.walkthrough.tourOpened',
  cellRan: 'measurements.walkthrough.cellRan',
  chartShown: 'measurements.walkthrough.chartShown',
  reportCreated: 'measurements.walkthrough.reportCreated',
} as const;

const TOUR = 'tour.measnb';

const setKey = (key: string) => void vscode.commands.executeCommand('setContext', key, true);

const isTour = (nb: vscode.NotebookDocument) => nb.notebookType === NOTEBOOK_TYPE && nb.uri.path.endsWith(`/${TOUR}`);

/**
 * Opens the workspace's tour.measnb when there is one; otherwise an untitled copy of the tour shipped
 * with the extension (saved wherever the user likes; the extension's own folder is never written).
 */
async function openTour(extensionUri: vscode.Uri): Promise<vscode.NotebookDocument> {
  const [inWorkspace] = await vscode.workspace.findFiles(`**/${TOUR}`, '**/node_modules/**', 1);
  let doc: vscode.NotebookDocument;
  if (inWorkspace) doc = await vscode.workspace.openNotebookDocument(inWorkspace);
  else {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'examples', TOUR));
    doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, new MeasnbSerializer().deserializeNotebook(bytes));
  }
  await vscode.window.showNotebookDocument(doc);
  setKey(WALKTHROUGH_CONTEXT.tourOpened);
  return doc;
}

export function registerWalkthrough(extensionUri: vscode.Uri, reports: ReportsStore): vscode.Disposable[] {
  if (vscode.workspace.notebookDocuments.some(isTour)) setKey(WALKTHROUGH_CONTEXT.tourOpened);
  if (reports.all().length > 0) setKey(WALKTHROUGH_CONTEXT.reportCreated);
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  return [
    registerCommand('measurements.openTour', () => openTour(extensionUri)),
    vscode.workspace.onDidOpenNotebookDocument((nb) => {
      if (isTour(nb)) setKey(WALKTHROUGH_CONTEXT.tourOpened);
    }),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType !== NOTEBOOK_TYPE) return;
      if (e.cellChanges.some((c) => c.executionSummary?.success === true)) setKey(WALKTHROUGH_CONTEXT.cellRan);
    }),
    messaging.onDidReceiveMessage(({ message }) => {
      const m = message as Partial<ViewChanged> | undefined;
      if (m?.type === 'view' && m.view === 'chart') setKey(WALKTHROUGH_CONTEXT.chartShown);
    }),
    reports.onDidAdd(() => setKey(WALKTHROUGH_CONTEXT.reportCreated)),
  ];
}
