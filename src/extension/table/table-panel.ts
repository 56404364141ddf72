// Tables in webview panels ("Open as Table", "Run Recent Query").
import * as vscode from 'vscode';
import type { Table } from '../../core/table/table';
import { tablePageHtml } from './table-page';
import { tableToPayload } from './table-payload';

export interface ShownTable {
  panel: vscode.WebviewPanel;
  /** Resolves with the view the page used ('renderer' or 'plain') once the table is on screen. */
  shown: Promise<string>;
}

export class TablePanels {
  readonly open = new Set<vscode.WebviewPanel>();

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(title: string, table: Table): ShownTable {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel('measurements.table', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [dist],
    });
    this.open.add(panel);
    panel.onDidDispose(() => this.open.delete(panel));
    const nonce = Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
    panel.webview.html = tablePageHtml({
      cspSource: panel.webview.cspSource,
      nonce,
      title,
      rendererUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'renderer.js')).toString(),
    });
    const shown = new Promise<string>((resolve) => {
      panel.webview.onDidReceiveMessage((m: { type?: string; view?: string }) => {
        if (m?.type === 'ready') void panel.webview.postMessage({ type: 'table', title, table: tableToPayload(table) });
        if (m?.type === 'shown') resolve(m.view ?? 'unknown');
      });
    });
    return { panel, shown };
  }
}
