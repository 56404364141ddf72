// Asks the extension host for the Summary of every row of the data the view holds part of (summary-request:
// a file opened as a table keeps its first rows; a notebook output holds its result's first rows, named by its
// key); the host computes it with DuckDB (core/sql/summary.node).
import type {
  FullSummary,
  HostToRenderer,
  SummaryPlan,
  SummaryReply,
  SummaryRequest,
} from '../../core/notebook/renderer-protocol';
import type { RendererContext } from '../renderer-api';
import { HostRequests } from './host-requests';

/** A Summary the host has not answered in this long fails (the Summary of the rows held stays). */
const REPLY_TIMEOUT_MS = 600_000;

export class SummaryClient {
  private readonly requests: HostRequests<SummaryReply>;

  constructor(ctx: RendererContext<HostToRenderer>) {
    this.requests = new HostRequests<SummaryReply>(
      ctx,
      ['summary-result', 'summary-failed'],
      's',
      REPLY_TIMEOUT_MS,
      () => new Error('the extension did not answer'),
    );
  }

  get available(): boolean {
    return this.requests.available;
  }

  /** The Summary of all the rows, by the plan's columns (of the result `key` names: a notebook output's). */
  request(plan: SummaryPlan, key?: string): Promise<FullSummary> {
    return this.requests.ask(
      (requestId) => ({ type: 'summary-request', requestId, plan, ...(key ? { key } : {}) }) satisfies SummaryRequest,
      (m) => {
        if (m.type === 'summary-failed') throw new Error(m.message);
        if (!m.summary || !Array.isArray(m.summary.cells)) throw new Error('the extension sent no summary');
        return m.summary;
      },
    );
  }
}
