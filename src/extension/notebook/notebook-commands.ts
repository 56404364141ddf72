// Notebook commands: Export Notebook (HTML, Markdown, .ipynb with its saved results) in the notebook
// toolbar, and Copy Cell as curl / Python in each cell's menu. The writers live in the core.
import * as vscode from 'vscode';
import { EXPORT_EXTENSIONS, type ExportFormat, exportNotebook } from '../../core/notebook/export';
import { parseCell } from '../../core/query/parse';
import { requestSnippet, type SnippetLanguage } from '../../core/query/request-snippet';
import { resolveCell } from '../../core/query/resolve';
import { serviceKindOf } from '../connections/connection';
import { registerCommand } from '../ui/register-command';
import { isSqlCell } from './language';
import type { NotebookConnections } from './notebook-connection';
import { runParamValues } from './run-with-params';
import { fromNotebookData, NOTEBOOK_TYPE } from './serializer';
import { writeUri } from './write-uri';

export const EXPORT_COMMAND = 'measurements.notebook.export';
export const COPY_CURL_COMMAND = 'measurements.notebook.copyCellAsCurl';
export const COPY_PYTHON_COMMAND = 'measurements.notebook.copyCellAsPython';

/** Context key: the URIs of open sql cells; the Copy as curl / Python menu items hide on them (package.json). */
const SQL_CELLS_CONTEXT = 'measurements.sqlCells';

/**
 * Keeps SQL_CELLS_CONTEXT up to date as notebooks open, close and cells change (a sql cell runs in the
 * notebook's SQL engine: it has no request to copy). Read by the menus through `notebookCellResource`.
 */
export class SqlCellContext implements vscode.Disposable {
  private readonly sql = new Set<string>();
  private readonly subs: vscode.Disposable[];

  constructor() {
    this.subs = [
      vscode.workspace.onDidOpenNotebookDocument((nb) => this.update(nb.getCells())),
      vscode.workspace.onDidCloseNotebookDocument((nb) => this.update(nb.getCells(), true)),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        this.update(
          e.contentChanges.flatMap((c) => c.removedCells),
          true,
        );
        this.update([...e.contentChanges.flatMap((c) => c.addedCells), ...e.cellChanges.map((c) => c.cell)]);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme !== 'vscode-notebook-cell') return;
        const cell = vscode.workspace.notebookDocuments
          .flatMap((nb) => (nb.notebookType === NOTEBOOK_TYPE ? nb.getCells() : []))
          .find((c) => c.document === e.document);
        if (cell) this.update([cell]);
      }),
    ];
    this.update(vscode.workspace.notebookDocuments.flatMap((nb) => nb.getCells()));
  }

  /** The sql cells' URIs, as the context key holds them. */
  get uris(): string[] {
    return [...this.sql];
  }

  private update(cells: readonly vscode.NotebookCell[], closed = false): void {
    let changed = false;
    for (const cell of cells) {
      if (cell.notebook.notebookType !== NOTEBOOK_TYPE) continue;
      const uri = cell.document.uri.toString();
      const sql = !closed && cell.kind === vscode.NotebookCellKind.Code && isSqlCell(cell.document.getText());
      if (sql === this.sql.has(uri)) continue;
      if (sql) this.sql.add(uri);
      else this.sql.delete(uri);
      changed = true;
    }
    if (changed) void vscode.commands.executeCommand('setContext', SQL_CELLS_CONTEXT, this.uris);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

const FORMAT_PICKS: Array<vscode.QuickPickItem & { format: ExportFormat }> = [
  { label: 'HTML', description: 'one self-contained page: tables, static charts, no script', format: 'html' },
  { label: 'Markdown', description: 'cells, and tables of their first rows', format: 'md' },
  { label: 'Jupyter Notebook (.ipynb)', description: 'readable in Jupyter and on GitHub', format: 'ipynb' },
];

/** The notebook as the core model, with the outputs it shows now (saved or not). */
export function notebookOf(doc: vscode.NotebookDocument) {
  const data = new vscode.NotebookData(
    doc.getCells().map((c) => {
      const cell = new vscode.NotebookCellData(c.kind, c.document.getText(), c.document.languageId);
      cell.outputs = [...c.outputs];
      cell.metadata = c.metadata;
      cell.executionSummary = c.executionSummary;
      return cell;
    }),
  );
  data.metadata = doc.metadata;
  return fromNotebookData(data);
}

function activeMeasnb(uri?: vscode.Uri): vscode.NotebookDocument {
  const doc = uri
    ? vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString())
    : vscode.window.activeNotebookEditor?.notebook;
  if (!doc || doc.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a Measurements notebook (.measnb) first.');
  return doc;
}

interface ExportArgs {
  format?: ExportFormat;
  target?: vscode.Uri;
  maxRows?: number;
}

async function exportCommand(arg?: vscode.Uri | ExportArgs): Promise<vscode.Uri | undefined> {
  const args: ExportArgs = arg instanceof vscode.Uri || arg === undefined ? {} : arg;
  const doc = activeMeasnb(arg instanceof vscode.Uri ? arg : undefined);
  const format =
    args.format ??
    (await vscode.window.showQuickPick(FORMAT_PICKS, { title: 'Export Notebook with its Results' }))?.format;
  if (!format) return undefined;
  const name = doc.uri.path.split('/').pop() ?? 'notebook.measnb';
  const target =
    args.target ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(doc.uri, '..', name.replace(/\.measnb$/i, '') + EXPORT_EXTENSIONS[format]),
      filters: {
        [FORMAT_PICKS.find((p) => p.format === format)?.label ?? format]: [EXPORT_EXTENSIONS[format].slice(1)],
      },
    }));
  if (!target) return undefined;
  const text = exportNotebook(notebookOf(doc), format, { maxRows: args.maxRows, title: name });
  await writeUri(target, new TextEncoder().encode(text));
  if (!args.target) {
    void vscode.window.showInformationMessage(`Exported to ${target.path.split('/').pop()}.`, 'Open').then((a) => {
      if (a === 'Open') void vscode.commands.executeCommand('vscode.open', target);
    });
  }
  return target;
}

export function cellFrom(arg: unknown): vscode.NotebookCell {
  const cell =
    arg && typeof arg === 'object' && 'notebook' in arg && 'document' in arg
      ? (arg as vscode.NotebookCell)
      : (() => {
          const editor = vscode.window.activeNotebookEditor;
          return editor?.notebook.cellAt(editor.selection.start);
        })();
  if (!cell || cell.notebook.notebookType !== NOTEBOOK_TYPE || cell.kind !== vscode.NotebookCellKind.Code) {
    throw new Error('Select a query cell of a Measurements notebook first.');
  }
  return cell;
}

async function copyAsRequest(
  connections: NotebookConnections,
  now: () => Date,
  language: SnippetLanguage,
  arg: unknown,
) {
  const cell = cellFrom(arg);
  if (isSqlCell(cell.document.getText())) {
    throw new Error(
      "Copy as curl / Python is for query cells: a sql cell runs in the notebook's SQL engine over earlier results and sends no request.",
    );
  }
  const at = now();
  const connection = connections.connectionFor(cell.notebook);
  const params = runParamValues(cell.notebook);
  const parsed = parseCell(cell.document.getText(), { now: at, service: serviceKindOf(connection), params });
  if (!parsed.cell) throw new Error('This cell has errors; fix them first (see the Problems panel).');
  // The emulator's address is known once it runs; a real service's is the connection's base URL.
  const { connection: effective, org } = await connections.clientFor(cell.notebook).catch(() => ({
    connection,
    org: connection.org,
  }));
  const resolved = resolveCell(parsed.cell, { now: at, org });
  if (!resolved.resolved) throw new Error(resolved.diagnostics[0]?.message ?? 'This cell cannot be sent as it is.');
  const text = requestSnippet(resolved.resolved, effective.baseUrl, language);
  await vscode.env.clipboard.writeText(text);
  void vscode.window.showInformationMessage(
    `Copied as ${language === 'curl' ? 'curl' : 'Python (requests)'}, with the key read from $MEASUREMENTS_API_KEY.`,
  );
  return text;
}

/** `now` is the notebook controller's clock: a copied request resolves times as running the cell would. */
export function registerNotebookCommands(
  connections: NotebookConnections,
  now: () => Date,
  sqlCells: SqlCellContext,
): vscode.Disposable[] {
  return [
    sqlCells,
    registerCommand(EXPORT_COMMAND, exportCommand),
    registerCommand(COPY_CURL_COMMAND, (cell?: unknown) => copyAsRequest(connections, now, 'curl', cell)),
    registerCommand(COPY_PYTHON_COMMAND, (cell?: unknown) => copyAsRequest(connections, now, 'python', cell)),
  ];
}
