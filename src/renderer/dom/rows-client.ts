// Asks the extension host for rows of a progressive output (rows-request) and decodes its answers
// (rows-chunk: the wire format in base64; rows-unavailable: why not).
import { RowsUnavailable } from '../../core/api/errors';
import type { HostToRenderer, RowsReply, RowsRequest } from '../../core/notebook/renderer-protocol';
import type { Table } from '../../core/table/table';
import { decodeTable } from '../../core/table/wire';
import { base64ToBytes } from '../../core/text/base64';
import type { RendererContext } from '../renderer-api';
import { HostRequests } from './host-requests';

/** A request the host has not answered in this long fails (the rows shown stay). */
const REPLY_TIMEOUT_MS = 180_000;

export class RowsClient {
  private readonly requests: HostRequests<RowsReply>;

  constructor(ctx: RendererContext<HostToRenderer>) {
    this.requests = new HostRequests<RowsReply>(
      ctx,
      ['rows-chunk', 'rows-unavailable'],
      'r',
      REPLY_TIMEOUT_MS,
      () => new RowsUnavailable('the extension did not answer'),
    );
  }

  get available(): boolean {
    return this.requests.available;
  }

  /** Rows [start, start + maxRows) of the result `key` (fewer at its end). */
  fetch(key: string, start: number, maxRows: number): Promise<Table> {
    return this.requests.ask(
      (requestId) => ({ type: 'rows-request', requestId, key, start, maxRows }) satisfies RowsRequest,
      (m) => {
        if (m.type === 'rows-unavailable') throw new RowsUnavailable(m.message);
        return decodeTable(base64ToBytes(m.base64));
      },
    );
  }
}
