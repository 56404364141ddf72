// The Getting Started walkthrough (package.json `contributes.walkthroughs`): the commands that open the
// tour and the other bundled examples, and the context keys that complete its steps when the user really does
// each thing.
import * as vscode from 'vscode';
import { RENDERER_ID, type ViewChanged } from '../core/notebook/renderer-protocol';
import { NOTEBOOK_TYPE } from './notebook/serializer';
import { writeUri } from './notebook/write-uri';
import type { ReportsStore } from './reports/reports-store';
import { registerCommand } from './ui/register-command';

/** Context keys named by the walkthrough's `completionEvents` (`onContext:<key>`). */
const WALKTHROUGH_CONTEXT = {
  tourOpened: 'measurements.walkthrough.tourOpened',
  cellRan: 'measurements.walkthrough.cellRan',
  chartShown: 'measurements.walkthrough.chartShown',
  reportCreated: 'measurements.walkthrough.reportCreated',
} as const;

const TOUR = 'tour.measnb';

/** The bundled examples the Open Example command opens (by name: nothing from outside this list is read). */
const BUNDLED_EXAMPLES = {
  'air-quality': 'Air quality: Chart, Summary, Exceedances, Profiles, Collocation, Map',
  'compare-data-versions': 'Two data versions of one metric in one chart (a sql cell)',
  corrections: "A PM2.5 correction (EPA's US-wide, Barkjohn 2021) as a sql cell, the method recorded",
  datasources: 'The datasources of the connection',
  follow: 'Follow new measurements',
  'monthly-report': 'A monthly report with parameters (Run with Parameters…)',
  quickstart: 'Quick start',
  recent: 'Recent measurements with quality control',
  report: 'A historical report',
  sql: 'sql cells over earlier results',
  tour: 'The tour: one cell per verb',
} as const;
type ExampleName = keyof typeof BUNDLED_EXAMPLES;

function isExampleName(name: unknown): name is ExampleName {
  return typeof name === 'string' && Object.hasOwn(BUNDLED_EXAMPLES, name);
}

const setKey = (key: string) => void vscode.commands.executeCommand('setContext', key, true);

const isTour = (nb: vscode.NotebookDocument) => nb.notebookType === NOTEBOOK_TYPE && nb.uri.path.endsWith(`/${TOUR}`);

/** Where the extension and the notebooks it opens stand: the bundled examples, and a per-user copy of them. */
interface ExampleFolders {
  extensionUri: vscode.Uri;
  /** The extension's global storage: its `examples/` folder holds the user's copy of the bundled examples. */
  storageUri: vscode.Uri;
}

/**
 * The user's copy of the bundled examples (global storage, `examples/`): the ones missing there are copied
 * from the extension, so a notebook opened from it has the others beside it (the tour's relative links open
 * them) and saves there (the extension's folder is never written). A copy already there is kept (the user's
 * edits stay).
 */
async function examplesCopy({ extensionUri, storageUri }: ExampleFolders): Promise<vscode.Uri> {
  const folder = vscode.Uri.joinPath(storageUri, 'examples');
  await vscode.workspace.fs.createDirectory(folder);
  for (const name of Object.keys(BUNDLED_EXAMPLES)) {
    const target = vscode.Uri.joinPath(folder, `${name}.measnb`);
    const there = await vscode.workspace.fs.stat(target).then(
      () => true,
      () => false,
    );
    if (there) continue;
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'examples', `${name}.measnb`));
    await writeUri(target, bytes, folder);
  }
  return folder;
}

/**
 * Opens the workspace's copy of a bundled example (e.g. tour.measnb) when there is one; otherwise the user's
 * copy in the extension's global storage (all the examples side by side, see examplesCopy). `file` is always
 * a name of BUNDLED_EXAMPLES plus .measnb, never a path from outside.
 */
async function openBundled(folders: ExampleFolders, file: string): Promise<vscode.NotebookDocument> {
  const [inWorkspace] = await vscode.workspace.findFiles(`**/${file}`, '**/node_modules/**', 1);
  const uri = inWorkspace ?? vscode.Uri.joinPath(await examplesCopy(folders), file);
  const doc = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(doc);
  return doc;
}

async function openTour(folders: ExampleFolders): Promise<vscode.NotebookDocument> {
  const doc = await openBundled(folders, TOUR);
  setKey(WALKTHROUGH_CONTEXT.tourOpened);
  return doc;
}

/**
 * Opens a bundled example by name (e.g. "air-quality"); without one, asks.
 * A name not in BUNDLED_EXAMPLES is refused (nothing is read).
 */
async function openExample(folders: ExampleFolders, name?: unknown): Promise<vscode.NotebookDocument | undefined> {
  let pick: ExampleName | undefined;
  if (name === undefined) {
    const items = Object.entries(BUNDLED_EXAMPLES).map(([label, detail]) => ({ label, detail }));
    const chosen = await vscode.window.showQuickPick(items, { placeHolder: 'Open a bundled example notebook' });
    pick = chosen?.label as ExampleName | undefined;
  } else if (isExampleName(name)) pick = name;
  else {
    void vscode.window.showErrorMessage(
      `There is no bundled example named ${JSON.stringify(String(name)).slice(0, 80)}: ${Object.keys(BUNDLED_EXAMPLES).join(', ')}.`,
    );
    return undefined;
  }
  if (!pick) return undefined;
  return pick === 'tour' ? openTour(folders) : openBundled(folders, `${pick}.measnb`);
}

export function registerWalkthrough(folders: ExampleFolders, reports: ReportsStore): vscode.Disposable[] {
  if (vscode.workspace.notebookDocuments.some(isTour)) setKey(WALKTHROUGH_CONTEXT.tourOpened);
  if (reports.all().length > 0) setKey(WALKTHROUGH_CONTEXT.reportCreated);
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  return [
    registerCommand('measurements.openTour', () => openTour(folders)),
    registerCommand('measurements.openExample', (name?: unknown) => openExample(folders, name)),
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
