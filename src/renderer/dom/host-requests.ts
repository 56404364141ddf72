// One home for asking the extension host over renderer messaging and waiting for its answer: a request id,
// the reply matched to it by that id, and a time-out (the rows and the Summary of a whole file ask this way).
import type { HostToRenderer } from '../../core/notebook/renderer-protocol';
import type { RendererContext } from '../renderer-api';

type Reply = Extract<HostToRenderer, { requestId: string }>;

export class HostRequests<R extends Reply> {
  private readonly pending = new Map<string, (message: R) => void>();
  private seq = 0;

  /**
   * Replies of `replyTypes` settle the request with their id; `timeoutMs` without one fails it with
   * `timedOut()`. `tag` tells the ids of one kind of request apart in logs.
   */
  constructor(
    private readonly ctx: RendererContext<HostToRenderer>,
    replyTypes: readonly R['type'][],
    private readonly tag: string,
    private readonly timeoutMs: number,
    private readonly timedOut: () => Error,
  ) {
    ctx.onDidReceiveMessage?.((m) => {
      if (m && (replyTypes as readonly string[]).includes(m.type)) this.pending.get((m as R).requestId)?.(m as R);
    });
  }

  get available(): boolean {
    return !!this.ctx.postMessage && !!this.ctx.onDidReceiveMessage;
  }

  /** Posts `request(id)` and settles with `settle(reply)` (a throw rejects: the host's refusal, bad bytes). */
  ask<T>(request: (requestId: string) => unknown, settle: (reply: R) => T): Promise<T> {
    const requestId = `${Math.random().toString(36).slice(2, 10)}-${this.tag}${++this.seq}`;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(this.timedOut());
      }, this.timeoutMs);
      this.pending.set(requestId, (m) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        try {
          resolve(settle(m));
        } catch (err) {
          reject(err);
        }
      });
      this.ctx.postMessage?.(request(requestId));
    });
  }
}
