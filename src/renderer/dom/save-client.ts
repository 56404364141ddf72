// Saving through the extension host (downloads from a notebook webview do not work): ask the host for a
// save dialog, then send the rows shown, encoded in the wire format, in base64 chunks.

import {
  type HostToRenderer,
  type ImageFormat,
  type RendererToHost,
  SAVE_CHUNK_BYTES,
  type SaveFormat,
} from '../../core/notebook/renderer-protocol';
import type { Table } from '../../core/table/table';
import { takeRows } from '../../core/table/table-rows';
import { bytesToBase64 } from '../../core/text/base64';
import type { RendererContext } from '../renderer-api';

export class SaveClient {
  private readonly pending = new Map<string, (message: HostToRenderer) => void>();
  private seq = 0;

  constructor(
    private readonly ctx: RendererContext<HostToRenderer>,
    private readonly encode: (table: Table) => Uint8Array,
  ) {
    ctx.onDidReceiveMessage?.((message) => this.pending.get(message?.requestId)?.(message));
  }

  get available(): boolean {
    return !!this.ctx.postMessage && !!this.ctx.onDidReceiveMessage;
  }

  private post(message: RendererToHost): void {
    this.ctx.postMessage?.(message);
  }

  /** Unique among the outputs sharing the host's channel: a random part, and this client's counter. */
  private nextId(): string {
    return `${Math.random().toString(36).slice(2, 10)}-${++this.seq}`;
  }

  /** A view's image (PNG or SVG bytes) to the host, which asks where and writes it; resolves with a status line. */
  saveImage(format: ImageFormat, bytes: Uint8Array, suggestedName: string): Promise<string> {
    const requestId = this.nextId();
    return new Promise<string>((resolve, reject) => {
      this.pending.set(requestId, (message) => {
        if (message.type === 'save-send') return;
        this.pending.delete(requestId);
        if (message.type === 'image-saved') resolve(`Saved the image to ${message.path}`);
        else if (message.type === 'save-cancelled') resolve('Save cancelled');
        else if (message.type === 'save-failed') reject(new Error(message.message));
      });
      this.post({ type: 'image-save', requestId, format, suggestedName, base64: bytesToBase64(bytes) });
    });
  }

  /** Resolves with a line for the status area: where it was saved, or that it was cancelled. */
  save(table: Table, rows: Uint32Array, format: SaveFormat, suggestedName: string): Promise<string> {
    const requestId = this.nextId();
    return new Promise<string>((resolve, reject) => {
      this.pending.set(requestId, (message) => {
        switch (message.type) {
          case 'save-send': {
            const bytes = this.encode(takeRows(table, rows));
            const total = Math.max(1, Math.ceil(bytes.length / SAVE_CHUNK_BYTES));
            for (let index = 0; index < total; index++) {
              const base64 = bytesToBase64(bytes.subarray(index * SAVE_CHUNK_BYTES, (index + 1) * SAVE_CHUNK_BYTES));
              this.post({ type: 'save-chunk', requestId, index, total, base64 });
            }
            return;
          }
          case 'save-cancelled':
            this.pending.delete(requestId);
            return resolve('Save cancelled');
          case 'save-done':
            this.pending.delete(requestId);
            return resolve(`Saved ${message.rowCount.toLocaleString('en-US')} rows to ${message.path}`);
          case 'save-failed':
            this.pending.delete(requestId);
            return reject(new Error(message.message));
        }
      });
      this.post({ type: 'save-request', requestId, format, suggestedName, rowCount: rows.length });
    });
  }
}
