// Asks the extension host for the Summary of every row of the data the view holds part of (summary-request:
// a file opened as a table keeps its first rows); the host computes it with DuckDB (core/sql/summary.node).
import type {
  FullSummary,
  HostToRenderer,
  SummaryPlan,
  SummaryReply,
  SummaryRequest,
} from '../../core/notebook/renderer-protocol';
import type { RendererContext } from '../renderer-api';

/** A Summary the host has not answered in this long fails (the Summary of the rows held stays). */
const REPLY_TIMEOUT_MS = 600_000;

export class SummaryClient {
  private readonly pending = new Map<string, (message: SummaryReply) => void>();
  private seq = 0;

  constructor(private readonly ctx: RendererContext<HostToRenderer>) {
    ctx.onDidReceiveMessage?.((m) => {
      if (m?.type === 'summary-result' || m?.type === 'summary-failed') this.pending.get(m.requestId)?.(m);
    });
  }

  get available(): boolean {
    return !!this.ctx.postMessage && !!this.ctx.onDidReceiveMessage;
  }

  /** The Summary of all the rows, by the plan's columns. */
  request(plan: SummaryPlan): Promise<FullSummary> {
    const requestId = `${Math.random().toString(36).slice(2, 10)}-s${++this.seq}`;
    return new Promise<FullSummary>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error('the extension did not answer'));
      }, REPLY_TIMEOUT_MS);
      this.pending.set(requestId, (m) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        if (m.type === 'summary-failed') reject(new Error(m.message));
        else if (!m.summary || !Array.isArray(m.summary.cells)) reject(new Error('the extension sent no summary'));
        else resolve(m.summary);
      });
      this.ctx.postMessage?.({ type: 'summary-request', requestId, plan } satisfies SummaryRequest);
    });
  }
}
