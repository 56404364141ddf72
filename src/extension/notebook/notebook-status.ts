// What the notebook's status bar items (its connection, its time zone) share: the item itself, shown while
// a .measnb is active and labelled anew when another one becomes active or its metadata changes, and the
// notebook their pick command changes.
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from './serializer';

/** The measurements notebook in the active editor, or undefined. */
function activeMeasurementsNotebook(): vscode.NotebookDocument | undefined {
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  return notebook?.notebookType === NOTEBOOK_TYPE ? notebook : undefined;
}

/** Calls update when another notebook becomes active or the active one's metadata changes. */
function onActiveNotebookChange(update: () => void): vscode.Disposable[] {
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

interface StatusItemOptions {
  id: string;
  /** The item's name in the status bar's menu. */
  name: string;
  /** Run on click (with no arguments: the active notebook). */
  command: string;
  priority: number;
  /** The item's text and tooltip for the active notebook. */
  label: (notebook: vscode.NotebookDocument) => { text: string; tooltip: string };
}

/** A status bar item on the right, shown while a measurements notebook is active. */
export class NotebookStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly options: StatusItemOptions) {
    this.item = vscode.window.createStatusBarItem(options.id, vscode.StatusBarAlignment.Right, options.priority);
    this.item.name = options.name;
    this.item.command = options.command;
    this.subs = onActiveNotebookChange(() => this.update());
    this.update();
  }

  /** Shows the active notebook's label, or hides the item when no measurements notebook is active. */
  update(): void {
    const notebook = activeMeasurementsNotebook();
    if (!notebook) {
      this.item.hide();
      return;
    }
    const { text, tooltip } = this.options.label(notebook);
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subs) s.dispose();
  }
}
