// Asks the extension host for rows of a progressive output (rows-request) and decodes its answers
// (rows-chunk: the wire format in base64; rows-unavailable: why not).
import { RowsUnavailable } from '../../core/api/errors';
import type { HostToRenderer, RowsReply, RowsRequest } from '../../core/notebook/renderer-protocol';
import type { Table } from '../../core/table/table';
import { decodeTable } from '../../core/table/wire';
import { base64ToBytes } from '../../core/text/base64';
import type { RendererContext } from '../renderer-api';

/** A request the host has not answered in this long fails (the rows shown stay). */
const REPLY_TIMEOUT_MS = 180_000;

export class RowsClient {
  private readonly pending = new Map<string, (message: RowsReply) => void>();
  private seq = 0;

  constructor(private readonly ctx: RendererContext<HostToRenderer>) {
    ctx.onDidReceiveMessage?.((m) => {
      if (m?.type === 'rows-chunk' || m?.type === 'rows-unavailable') this.pending.get(m.requestId)?.(m);
    });
  }

  get available(): boolean {
    return !!this.ctx.postMessage && !!this.ctx.onDidReceiveMessage;
  }

  /** Rows [start, start + maxRows) of the result `key` (fewer at its end). */
  fetch(key: string, start: number, maxRows: number): Promise<Table> {
    const requestId = `${Math.random().toString(36).slice(2, 10)}-r${++this.seq}`;
    return new Promise<Table>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new RowsUnavailable('the extension did not answer'));
      }, REPLY_TIMEOUT_MS);
      this.pending.set(requestId, (m) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        if (m.type === 'rows-unavailable') return reject(new RowsUnavailable(m.message));
        try {
          resolve(decodeTable(base64ToBytes(m.base64)));
        } catch (err) {
          reject(err);
        }
      });
      this.ctx.postMessage?.({ type: 'rows-request', requestId, key, start, maxRows } satisfies RowsRequest);
    });
  }
}
