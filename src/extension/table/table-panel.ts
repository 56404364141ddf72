// Tables in webview panels ("Open as Table", "Run Recent Query", the Measurements Table editor): the same renderer bundle as notebook
// outputs (dist/renderer.js, showPanel), the table sent in the binary wire format, saving through the
// extension host like a notebook output.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  type FullSummary,
  type HostToPanel,
  type PanelToHost,
  type ResultInfo,
  type SummaryPlan,
  type SummaryRequest,
  summaryPlanOf,
} from '../../core/notebook/renderer-protocol';
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

interface ShownTable {
  panel: vscode.WebviewPanel;
  /** Resolves once the renderer has the table on screen (rejects when the page reports a failure). */
  shown: Promise<PanelShown>;
}

/** A table in a panel of its own, and what the page was told of it (title, notes, datasources' names and styles). */
export interface ShownPanel extends ShownTable {
  info: ResultInfo;
}

/** A table page in a webview (a panel or a custom editor): the table, its info or an error, sent once the page is ready. */
export interface TableView extends ShownTable {
  /** Shows a table (again: replaces the one shown). */
  setTable(table: Table, info: ResultInfo): void;
  /** New notices for the table shown (e.g. the rows counted). */
  setInfo(info: ResultInfo): void;
  /** Shows a clear message instead of a table. */
  fail(message: string): void;
}

interface AttachOptions {
  /** The Summary of every row of the data shown in part (a file: DuckDB over the whole of it). */
  summarize?: (plan: SummaryPlan) => Promise<FullSummary>;
}

/** Answers a page's summary-request: the plan checked (hostile input), the Summary of all rows, or why not. */
async function answerSummary(
  m: SummaryRequest,
  summarize: AttachOptions['summarize'],
  post: (message: HostToPanel) => void,
): Promise<void> {
  const requestId = String(m.requestId);
  const plan = summaryPlanOf(m.plan);
  if (!summarize || !plan) {
    const message = summarize ? 'the request names no columns to summarise' : 'this table is not from a file';
    return post({ type: 'summary-failed', requestId, message });
  }
  try {
    post({ type: 'summary-result', requestId, summary: await summarize(plan) });
  } catch (err) {
    post({ type: 'summary-failed', requestId, message: (err as Error).message });
  }
}

export class TablePanels {
  readonly open = new Set<vscode.WebviewPanel>();

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(title: string, table: Table, info: ResultInfo = { title }): ShownPanel {
    const panel = vscode.window.createWebviewPanel('measurements.table', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [this.dist()],
    });
    const view = this.attach(panel, title);
    view.setTable(table, info);
    return { panel: view.panel, shown: view.shown, info };
  }

  /**
   * Loads the renderer page into a webview panel (one of ours or a custom editor's) and returns what
   * sends it a table.
   */
  attach(panel: vscode.WebviewPanel, title: string, options: AttachOptions = {}): TableView {
    const dist = this.dist();
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    this.open.add(panel);
    panel.onDidDispose(() => this.open.delete(panel));
    panel.webview.html = tablePageHtml({
      cspSource: panel.webview.cspSource,
      nonce: randomBytes(16).toString('base64url'),
      title,
      rendererUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'renderer.js')).toString(),
    });
    // What the page shows (the table or an error, then newer info): sent when it is ready, and again if it
    // loads anew. Other messages (saving) go to the page that asked.
    // The table is encoded when sent (the bytes are not kept).
    let ready = false;
    let content: (() => HostToPanel) | undefined;
    let info: HostToPanel | undefined;
    const post = (message: HostToPanel) => void panel.webview.postMessage(message);
    const show = (message: () => HostToPanel, isInfo = false) => {
      if (isInfo) info = message();
      else [content, info] = [message, undefined];
      if (ready) post(isInfo ? info! : message());
    };
    const saver = new SaveSession(writeParquet, () => defaultSaveFolder());
    const shown = new Promise<PanelShown>((resolve, reject) => {
      panel.webview.onDidReceiveMessage(async (m: PanelToHost) => {
        if (m?.type === 'panel-ready') {
          ready = true;
          if (content) post(content());
          if (info) post(info);
        } else if (m?.type === 'panel-shown')
          resolve({ view: m.view, rowCount: m.rowCount, columnCount: m.columnCount });
        else if (m?.type === 'panel-failed') reject(new Error(`The table panel failed: ${m.message}`));
        else if (m?.type === 'summary-request') await answerSummary(m, options.summarize, post);
        else if (saver.handles(m)) await saver.handle(m, post);
      });
    });
    shown.catch(() => undefined);
    return {
      panel,
      shown,
      setTable(table, tableInfo) {
        show(() => {
          const bytes = encodeTable(table);
          const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
          return { type: 'panel-table', title, data, info: tableInfo };
        });
      },
      setInfo: (next) => show(() => ({ type: 'panel-info', info: next }), true),
      fail: (message) => show(() => ({ type: 'panel-error', message })),
    };
  }

  private dist(): vscode.Uri {
    return vscode.Uri.joinPath(this.extensionUri, 'dist');
  }
}
