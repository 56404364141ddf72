// What the notebook's status bar items (its connection, its time zone) share: the .measnb notebook they
// show, when to show it again, and the notebook their pick command changes.
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from './serializer';

/** The measurements notebook in the active editor, or undefined. */
export function activeMeasurementsNotebook(): vscode.NotebookDocument | undefined {
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  return notebook?.notebookType === NOTEBOOK_TYPE ? notebook : undefined;
}

/** Calls update when another notebook becomes active or the active one's metadata changes. */
export function onActiveNotebookChange(update: () => void): vscode.Disposable[] {
  return [
    vscode.window.onDidChangeActiveNotebookEditor(update),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.metadata && e.notebook === vscode.window.activeNotebookEditor?.notebook) update();
    }),
  ];
}

/** The notebook a pick command changes: the one `uri` names, else the active one; none (said so) when not a .measnb. */
export function notebookToChange(uri?: vscode.Uri): vscode.NotebookDocument | undefined {
  const notebook =
    (uri && vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString())) ??
    vscode.window.activeNotebookEditor?.notebook;
  if (notebook?.notebookType === NOTEBOOK_TYPE) return notebook;
  void vscode.window.showInformationMessage('Open a measurements notebook (.measnb) first.');
  return undefined;
}
