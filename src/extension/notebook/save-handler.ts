// Saving a table from the renderer (downloads from a notebook webview fail): the renderer asks, the host
// shows the save dialog, the renderer sends the rows (wire format, base64 chunks), the host writes
// CSV or Parquet with workspace.fs.
import * as vscode from 'vscode';
import {
  type HostToRenderer,
  RENDERER_ID,
  type RendererToHost,
  type SaveFormat,
} from '../../core/notebook/renderer-protocol';
import { tableToCsv } from '../../core/table/csv-export';
import type { Table } from '../../core/table/table';
import { decodeTable } from '../../core/table/wire';

interface PendingSave {
  target: vscode.Uri;
  format: SaveFormat;
  chunks: string[];
  received: number;
}

export type ParquetWriter = (table: Table) => Promise<Uint8Array> | Uint8Array;

export function safeFileName(name: string): string {
  return (
    name
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'measurements'
  );
}

export function registerSaveHandler(writeParquet: ParquetWriter): vscode.Disposable {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  const pending = new Map<string, PendingSave>();
  const reply = (editor: vscode.NotebookEditor, message: HostToRenderer) => void messaging.postMessage(message, editor);

  return messaging.onDidReceiveMessage(async ({ editor, message }) => {
    const m = message as RendererToHost;
    try {
      if (m.type === 'save-request') {
        const ext = m.format === 'csv' ? 'csv' : 'parquet';
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.joinPath(editor.notebook.uri, '..');
        const target = await vscode.window.showSaveDialog({
          title: `Save ${m.rowCount.toLocaleString('en-US')} rows as ${ext.toUpperCase()}`,
          defaultUri: vscode.Uri.joinPath(folder, `${safeFileName(m.suggestedName)}.${ext}`),
          filters: m.format === 'csv' ? { CSV: ['csv'] } : { Parquet: ['parquet'] },
        });
        if (!target) return reply(editor, { type: 'save-cancelled', requestId: m.requestId });
        pending.set(m.requestId, { target, format: m.format, chunks: [], received: 0 });
        return reply(editor, { type: 'save-send', requestId: m.requestId });
      }
      if (m.type === 'save-chunk') {
        const p = pending.get(m.requestId);
        if (!p) return;
        p.chunks[m.index] = m.base64;
        p.received++;
        if (p.received < m.total) return;
        pending.delete(m.requestId);
        const bytes = Buffer.concat(p.chunks.map((c) => Buffer.from(c, 'base64')));
        const table = decodeTable(bytes);
        const data = p.format === 'csv' ? new TextEncoder().encode(tableToCsv(table)) : await writeParquet(table);
        await vscode.workspace.fs.writeFile(p.target, data);
        const path = p.target.scheme === 'file' ? p.target.fsPath : p.target.toString();
        return reply(editor, { type: 'save-done', requestId: m.requestId, path, rowCount: table.rowCount });
      }
    } catch (err) {
      pending.delete(m.requestId);
      reply(editor, { type: 'save-failed', requestId: m.requestId, message: (err as Error).message });
    }
  });
}
