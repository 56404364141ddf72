// undici's request API loaded by path (src/core/client/undici-request.node.ts): it must behave as undici's
// `request`, honour the dispatcher given or installed globally (a host's proxy agent), and keep the
// rest of undici (fetch, WebSocket, mocks, cache) out of the bundles.
import assert from 'node:assert/strict';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { request } from '../../../../src/core/client/undici-request.node';
import { startTestServer, type TestServer } from '../../../support/core/test-server';

/** A real Agent that counts the requests dispatched through it. */
function countingAgent(): { agent: Agent; dispatched: string[] } {
  const dispatched: string[] = [];
  const agent = new Agent();
  const dispatch = agent.dispatch.bind(agent);
  agent.dispatch = (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    dispatched.push(`${opts.method} ${opts.path}`);
    return dispatch(opts, handler);
  };
  return { agent, dispatched };
}

describe('core/client/undici-request', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((req, res, body) => {
      res.setHeader('x-seen', `${req.method} ${req.url} ${body}`);
      res.end('hello');
    });
  });
  after(() => server.close());

  it('sends method, path with query, headers and body, and returns status, headers and body', async () => {
    const res = await request(new URL(`${server.url}/files/a.csv?sig=abc&x=1`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: '{"a":1}',
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-seen'], 'POST /files/a.csv?sig=abc&x=1 {"a":1}');
    assert.equal(await res.body.text(), 'hello');
    const seen = server.requests.at(-1);
    assert.equal(seen?.headers['x-api-key'], 'k');
    assert.equal(seen?.headers['content-type'], 'application/json');
  });

  it('uses the dispatcher it is given', async () => {
    const { agent, dispatched } = countingAgent();
    try {
      const res = await request(new URL(`${server.url}/given`), { method: 'GET', dispatcher: agent });
      await res.body.dump();
      assert.deepEqual(dispatched, ['GET /given']);
    } finally {
      await agent.close();
    }
  });

  it("uses the global dispatcher otherwise, as installed through undici's own API (e.g. a proxy agent)", async () => {
    const { agent, dispatched } = countingAgent();
    const previous = getGlobalDispatcher();
    setGlobalDispatcher(agent);
    try {
      const res = await request(new URL(`${server.url}/global`), { method: 'GET' });
      await res.body.dump();
      assert.deepEqual(dispatched, ['GET /global']);
    } finally {
      setGlobalDispatcher(previous);
      await agent.close();
    }
  });

  it('rejects when aborted, like undici', async () => {
    server.handle(() => new Promise(() => undefined));
    const ctrl = new AbortController();
    const pending = request(new URL(`${server.url}/slow`), { method: 'GET', signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 50);
    await assert.rejects(pending, (e: Error) => e.name === 'AbortError' || /abort/i.test(e.message));
  });

  it('bundles only the request API and the dispatcher, not the rest of undici', async () => {
    const result = await esbuild.build({
      entryPoints: [path.resolve('src/core/client/undici-request.node.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs).filter((f) => f.includes('node_modules/undici/'));
    assert.ok(
      inputs.some((f) => f.endsWith('undici/lib/api/api-request.js')),
      inputs.join('\n'),
    );
    assert.ok(
      inputs.some((f) => f.endsWith('undici/lib/dispatcher/agent.js')),
      inputs.join('\n'),
    );
    const unwanted = inputs.filter((f) =>
      /undici\/(index\.js|lib\/(mock|cache|web\/websocket|web\/eventsource)\/)/.test(f),
    );
    assert.deepEqual(unwanted, []);
  });
});
