// Keeps a chart's choice (metric, "Lines by") in its cell's metadata (`chart`) when the renderer says the user
// changed it: the notebook's exports draw that chart (core/notebook/export/svg-chart), and the next run's output
// starts on it (controller: ResultInfo.chart). The message is checked: a cell id of this notebook, names only.
import * as vscode from 'vscode';
import { type ChartChanged, chartChoiceOf, RENDERER_ID } from '../../core/notebook/renderer-protocol';

/** The cell of `notebook` whose metadata id is `cellId`, if exactly one has it. */
function cellById(notebook: vscode.NotebookDocument, cellId: string): vscode.NotebookCell | undefined {
  const cells = notebook.getCells().filter((c) => c.metadata?.id === cellId);
  return cells.length === 1 ? cells[0] : undefined;
}

async function keepChartChoice(notebook: vscode.NotebookDocument, message: unknown): Promise<boolean> {
  const m = message as Partial<ChartChanged> | undefined;
  if (m?.type !== 'chart' || typeof m.cellId !== 'string' || m.cellId.length > 64) return false;
  const chart = chartChoiceOf(m.chart);
  const cell = chart && cellById(notebook, m.cellId);
  if (!cell || !chart) return false;
  const now = chartChoiceOf(cell.metadata?.chart);
  if (now?.metric === chart.metric && now?.linesBy === chart.linesBy) return false;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, chart })]);
  return vscode.workspace.applyEdit(edit);
}

export function registerChartChoice(): vscode.Disposable {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  return messaging.onDidReceiveMessage(({ editor, message }) => void keepChartChoice(editor.notebook, message));
}
