// Tables in webview panels ("Open as Table", "Run Recent Query"): the same renderer bundle as notebook
// outputs (dist/renderer.js, showPanel), the table sent in the binary wire format, saving through the
// extension host like a notebook output.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostToPanel, PanelToHost, ResultInfo } from '../../core/notebook/renderer-protocol';
import { writeParquet } from '../../core/table/parquet';
import type { Table } from '../../core/table/table';
import { encodeTable } from '../../core/table/wire';
import { defaultSaveFolder, SaveSession } from '../notebook/save-handler';
import { tablePageHtml } from './table-page';

export interface PanelShown {
  view: 'renderer';
  rowCount: number;
  columnCount: number;
}

export interface ShownTable {
  panel: vscode.WebviewPanel;
  /** Resolves once the renderer has the table on screen (rejects when the page reports a failure). */
  shown: Promise<PanelShown>;
}

export class TablePanels {
  readonly open = new Set<vscode.WebviewPanel>();

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(title: string, table: Table, info: ResultInfo = { title }): ShownTable {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel('measurements.table', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [dist],
    });
    this.open.add(panel);
    panel.onDidDispose(() => this.open.delete(panel));
    panel.webview.html = tablePageHtml({
      cspSource: panel.webview.cspSource,
      nonce: randomBytes(16).toString('base64url'),
      title,
      rendererUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'renderer.js')).toString(),
    });
    const post = (message: HostToPanel) => void panel.webview.postMessage(message);
    const saver = new SaveSession(writeParquet, () => defaultSaveFolder());
    const shown = new Promise<PanelShown>((resolve, reject) => {
      panel.webview.onDidReceiveMessage(async (m: PanelToHost) => {
        if (m?.type === 'panel-ready') {
          const bytes = encodeTable(table);
          const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
          post({ type: 'panel-table', title, data, info });
        } else if (m?.type === 'panel-shown')
          resolve({ view: m.view, rowCount: m.rowCount, columnCount: m.columnCount });
        else if (m?.type === 'panel-failed') reject(new Error(`The table panel failed: ${m.message}`));
        else if (saver.handles(m)) await saver.handle(m, post);
      });
    });
    shown.catch(() => undefined);
    return { panel, shown };
  }
}
