// Saving a table from the renderer (downloads from a webview fail): the renderer asks, the host shows the
// save dialog, the renderer sends the rows (wire format, base64 chunks), the host writes CSV, Parquet or
// JSON records through the one writer (write-uri.ts). One SaveSession per channel: notebook outputs (renderer messaging) and
// each table panel (its webview).
import * as vscode from 'vscode';
import {
  type HostToRenderer,
  type ImageSave,
  imageProblem,
  MAX_IMAGE_BYTES,
  RENDERER_ID,
  type RowsReply,
  type RowsRequest,
  type SaveFormat,
  type SaveToHost,
  type SummaryReply,
} from '../../core/notebook/renderer-protocol';
import { tableToCsv } from '../../core/table/csv-export';
import { tableToJsonRecords } from '../../core/table/json-export';
import type { Table } from '../../core/table/table';
import { decodeTable } from '../../core/table/wire';
import { writeUri } from './write-uri';

interface PendingSave {
  target: vscode.Uri;
  format: SaveFormat;
  chunks: string[];
  received: number;
}

type ParquetWriter = (table: Table) => Promise<Uint8Array> | Uint8Array;

const FORMATS: Record<SaveFormat, { ext: string; filter: Record<string, string[]> }> = {
  csv: { ext: 'csv', filter: { CSV: ['csv'] } },
  parquet: { ext: 'parquet', filter: { Parquet: ['parquet'] } },
  json: { ext: 'json', filter: { 'JSON records': ['json'] } },
};

function safeFileName(name: string): string {
  return (
    name
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'measurements'
  );
}

/** The bytes of a table in a save format. */
async function encodeForSave(table: Table, format: SaveFormat, writeParquet: ParquetWriter): Promise<Uint8Array> {
  if (format === 'parquet') return await writeParquet(table);
  return new TextEncoder().encode(format === 'csv' ? tableToCsv(table) : tableToJsonRecords(table));
}

/** The host side of the save-* messages of one channel (a notebook's renderer messaging, or one panel). */
export class SaveSession {
  private readonly pending = new Map<string, PendingSave>();

  constructor(
    private readonly writeParquet: ParquetWriter,
    /** The folder the dialog starts in. */
    private readonly folder: () => vscode.Uri | undefined,
  ) {}

  /** Handles a save-* or image-save message; false for any other message. */
  handles(m: { type?: unknown }): m is SaveToHost | ImageSave {
    return m?.type === 'save-request' || m?.type === 'save-chunk' || m?.type === 'image-save';
  }

  async handle(m: SaveToHost | ImageSave, reply: (message: HostToRenderer) => void): Promise<void> {
    if (m.type === 'image-save') return this.saveImage(m, reply);
    try {
      if (m.type === 'save-request') {
        const format = FORMATS[m.format];
        if (!format) throw new Error(`unknown save format ${String(m.format)}`);
        const folder = this.folder();
        const name = `${safeFileName(String(m.suggestedName))}.${format.ext}`;
        const target = await vscode.window.showSaveDialog({
          title: `Save ${Number(m.rowCount).toLocaleString('en-US')} rows as ${format.ext.toUpperCase()}`,
          defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
          filters: format.filter,
        });
        if (!target) return reply({ type: 'save-cancelled', requestId: m.requestId });
        this.pending.set(m.requestId, { target, format: m.format, chunks: [], received: 0 });
        return reply({ type: 'save-send', requestId: m.requestId });
      }
      const p = this.pending.get(m.requestId);
      if (!p) return;
      p.chunks[m.index] = m.base64;
      p.received++;
      if (p.received < m.total) return;
      this.pending.delete(m.requestId);
      const table = decodeTable(Buffer.concat(p.chunks.map((c) => Buffer.from(c, 'base64'))));
      await writeUri(p.target, await encodeForSave(table, p.format, this.writeParquet));
      const path = p.target.scheme === 'file' ? p.target.fsPath : p.target.toString();
      return reply({ type: 'save-done', requestId: m.requestId, path, rowCount: table.rowCount });
    } catch (err) {
      this.pending.delete(m.requestId);
      reply({ type: 'save-failed', requestId: m.requestId, message: (err as Error).message });
    }
  }

  private saveImage(m: ImageSave, reply: (message: HostToRenderer) => void): Promise<void> {
    return saveImageTo(m, this.folder(), reply);
  }
}

/** The host side of an image-save: the bytes checked (format, size), a save dialog, the one writer. */
async function saveImageTo(
  m: ImageSave,
  folder: vscode.Uri | undefined,
  reply: (message: HostToRenderer) => void,
): Promise<void> {
  const requestId = m.requestId;
  try {
    const text = typeof m.base64 === 'string' ? m.base64 : '';
    // Bounded before decoding: base64 is 4 characters per 3 bytes.
    if (text.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4)
      throw new Error(`The image cannot be saved: it is over ${MAX_IMAGE_BYTES / 1024 / 1024} MiB.`);
    const bytes = new Uint8Array(Buffer.from(text, 'base64'));
    const problem = imageProblem(m.format, bytes);
    if (problem) throw new Error(`The image cannot be saved: ${problem}.`);
    const name = `${safeFileName(String(m.suggestedName))}.${m.format}`;
    const target = await vscode.window.showSaveDialog({
      title: `Save the image as ${m.format.toUpperCase()}`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: m.format === 'png' ? { 'PNG image': ['png'] } : { 'SVG image': ['svg'] },
    });
    if (!target) return reply({ type: 'save-cancelled', requestId });
    await writeUri(target, bytes);
    reply({ type: 'image-saved', requestId, path: target.scheme === 'file' ? target.fsPath : target.toString() });
  } catch (err) {
    reply({ type: 'save-failed', requestId, message: (err as Error).message });
  }
}

/** The first workspace folder, else the folder of `near` (a notebook, a report file). */
export function defaultSaveFolder(near?: vscode.Uri): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? (near ? vscode.Uri.joinPath(near, '..') : undefined);
}

/** Answers a progressive output's rows-request and summary-request (extension/notebook/progressive-results). */
interface ResultRequests {
  rows(notebook: vscode.NotebookDocument, m: RowsRequest): Promise<RowsReply>;
  /** `m` as it came (checked there: the output's key, the plan). */
  summary(notebook: vscode.NotebookDocument, m: unknown): Promise<SummaryReply>;
}

/** The notebook renderer's messages: saving, and the rows and the Summary of progressive outputs. */
export function registerSaveHandler(writeParquet: ParquetWriter, results?: ResultRequests): vscode.Disposable {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  const sessions = new WeakMap<vscode.NotebookEditor, SaveSession>();
  return messaging.onDidReceiveMessage(async ({ editor, message }) => {
    if (results && message?.type === 'rows-request') {
      await messaging.postMessage(await results.rows(editor.notebook, message as RowsRequest), editor);
      return;
    }
    if (results && message?.type === 'summary-request') {
      await messaging.postMessage(await results.summary(editor.notebook, message), editor);
      return;
    }
    let session = sessions.get(editor);
    if (!session) {
      session = new SaveSession(writeParquet, () => defaultSaveFolder(editor.notebook.uri));
      sessions.set(editor, session);
    }
    if (!session.handles(message)) return;
    await session.handle(message, (reply) => void messaging.postMessage(reply, editor));
  });
}
