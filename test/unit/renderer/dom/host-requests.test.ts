// The renderer's one way of asking the extension host (renderer/dom/host-requests.ts), through a messaging
// context as VS Code gives it: replies are matched by request id, other replies are ignored, a refusal
// rejects, and no answer fails after the time-out.
import assert from 'node:assert/strict';
import type { HostToRenderer } from '../../../../src/core/notebook/renderer-protocol';
import { HostRequests } from '../../../../src/renderer/dom/host-requests';
import { RowsClient } from '../../../../src/renderer/dom/rows-client';
import type { RendererContext } from '../../../../src/renderer/renderer-api';

type SummaryReply = Extract<HostToRenderer, { type: 'summary-result' | 'summary-failed' }>;

function fakeContext() {
  const posted: { type: string; requestId: string }[] = [];
  let listener: ((m: HostToRenderer) => void) | undefined;
  const ctx = {
    postMessage: (m: unknown) => posted.push(m as { type: string; requestId: string }),
    onDidReceiveMessage: (l: (m: HostToRenderer) => void) => {
      listener = l;
      return { dispose() {} };
    },
  } as unknown as RendererContext<HostToRenderer>;
  return { ctx, posted, send: (m: unknown) => listener?.(m as HostToRenderer) };
}

describe('renderer/dom/host-requests: one request, its own reply', () => {
  it('settles each request with the reply carrying its id, whatever the order; other kinds are ignored', async () => {
    const { ctx, posted, send } = fakeContext();
    const requests = new HostRequests<SummaryReply>(
      ctx,
      ['summary-result', 'summary-failed'],
      's',
      60_000,
      () => new Error('late'),
    );
    const settle = (m: SummaryReply) => {
      if (m.type === 'summary-failed') throw new Error(m.message);
      return m.summary.rows;
    };
    const a = requests.ask((requestId) => ({ type: 'summary-request', requestId }), settle);
    const b = requests.ask((requestId) => ({ type: 'summary-request', requestId }), settle);
    assert.equal(posted.length, 2);
    assert.notEqual(posted[0].requestId, posted[1].requestId);
    send({ type: 'rows-unavailable', requestId: posted[0].requestId, message: 'not mine' });
    send({ type: 'summary-failed', requestId: posted[1].requestId, message: 'no such file' });
    send({ type: 'summary-result', requestId: posted[0].requestId, summary: { rows: 7, cells: [] } });
    assert.equal(await a, 7);
    await assert.rejects(b, /no such file/);
  });

  it('fails a request the host does not answer in time, with the error the caller names', async () => {
    const { ctx } = fakeContext();
    const requests = new HostRequests<SummaryReply>(
      ctx,
      ['summary-result'],
      's',
      20,
      () => new Error('the extension did not answer'),
    );
    await assert.rejects(
      requests.ask(
        (requestId) => ({ type: 'summary-request', requestId }),
        () => 1,
      ),
      /the extension did not answer/,
    );
  });

  it('RowsClient: a rows-unavailable reply rejects with its reason; unavailable without messaging', async () => {
    const { ctx, posted, send } = fakeContext();
    const rows = new RowsClient(ctx);
    assert.equal(rows.available, true);
    const p = rows.fetch('k', 0, 10);
    send({ type: 'rows-unavailable', requestId: posted[0].requestId, message: 'the result was dropped' });
    await assert.rejects(p, /the result was dropped/);
    assert.equal(new RowsClient({} as RendererContext<HostToRenderer>).available, false);
  });
});
