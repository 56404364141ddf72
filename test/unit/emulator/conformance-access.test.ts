// Conformance over real HTTP: reachability, the API key, org access rules, GET /v2/datasources.
import assert from 'node:assert/strict';
import { API_KEY_HEADER, PATHS } from '../../../src/core/api/paths';
import { startTestEmulator, type TestEmulator } from '../../support/emulator';

describe('emulator conformance: access and datasources', () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startTestEmulator();
  });
  after(() => emu.close());

  it('GET / answers 200 without a key (connectivity check)', async () => {
    const res = await fetch(emu.url + PATHS.root);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  it('listens on 127.0.0.1 only, on a free port', () => {
    assert.match(emu.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the default org and key are stable per seed, and differ between seeds', async () => {
    const again = await startTestEmulator();
    const other = await startTestEmulator({ seed: 2 });
    try {
      assert.equal(again.org, emu.org);
      assert.equal(again.apiKey, emu.apiKey);
      assert.deepEqual(again.facts.datasources, emu.facts.datasources);
      assert.equal(other.org, emu.org);
      assert.notEqual(other.apiKey, emu.apiKey);
      assert.notDeepEqual(other.facts.datasources, emu.facts.datasources);
    } finally {
      await again.close();
      await other.close();
    }
  });

  it('403 with a JSON message for a missing key, and the body never repeats a key', async () => {
    const res = await fetch(`${emu.url}${PATHS.datasources}?org=${emu.org}`);
    assert.equal(res.status, 403);
    assert.deepEqual(await res.json(), { message: 'Forbidden' });
  });

  it('403 for a wrong key on every keyed endpoint', async () => {
    const wrong = { [API_KEY_HEADER]: 'not-the-key', 'content-type': 'application/json' };
    for (const [method, path] of [
      ['GET', `${PATHS.datasources}?org=${emu.org}`],
      ['POST', PATHS.recentQuery],
      ['POST', PATHS.continuation],
      ['POST', PATHS.reportRequests],
      ['GET', PATHS.reportRequest('x')],
    ]) {
      const res = await fetch(emu.url + path, {
        method,
        headers: wrong,
        body: method === 'POST' ? JSON.stringify({ org: emu.org }) : undefined,
      });
      assert.equal(res.status, 403, `${method} ${path}`);
      const text = await res.text();
      assert.ok(!text.includes('not-the-key'));
      assert.equal(JSON.parse(text).message, 'Forbidden');
    }
  });

  it('403 when the key may not use the org (the second org has its own key)', async () => {
    const r1 = await emu.recent({ org: emu.secondOrg.org, allDatasources: true });
    assert.equal(r1.status, 403);
    assert.match(r1.body.message, /may not access org 'second-org'/);
    assert.ok(!r1.text.includes(emu.apiKey));
    const r2 = await emu.recent({ org: 'no-such-org', allDatasources: true });
    assert.equal(r2.status, 403);
    const res = await fetch(`${emu.url}${PATHS.datasources}?org=${emu.secondOrg.org}`, {
      headers: { [API_KEY_HEADER]: emu.secondOrg.apiKey },
    });
    assert.equal(res.status, 200);
    const list = await res.json();
    assert.equal(list.subscribingOrg, 'second-org');
    assert.equal(list.datasources.length, 3);
    assert.ok(
      !list.datasources.some((d: { datasourceId: string }) =>
        emu.facts.datasources.some((x) => x.datasourceId === d.datasourceId),
      ),
    );
  });

  it("GET /v2/datasources lists the org's currently subscribed datasources in the documented shape", async () => {
    const res = await emu.get(`${PATHS.datasources}?org=${emu.org}`);
    assert.equal(res.status, 200);
    const list = await res.json();
    assert.equal(list.subscribingOrg, emu.org);
    // 20 by default; the late subscriber is not subscribed yet at the test's "now".
    assert.equal(list.datasources.length, 19);
    assert.ok(!list.datasources.some((d: { datasourceId: string }) => d.datasourceId === emu.facts.lateSubscriber));
    for (const d of list.datasources) {
      assert.match(d.datasourceId, /^D[A-Z0-9]{7}$/);
      assert.equal(typeof d.orgAnnotations.name, 'string');
      assert.ok(d.orgAnnotations.group === null || typeof d.orgAnnotations.group === 'string');
      assert.ok(Array.isArray(d.orgAnnotations.tags));
      assert.equal(typeof d.currentSubscriptionId, 'string');
      assert.equal(typeof d.currentSourceId, 'string');
      assert.ok(['SERVICE_NODE', 'REFERENCE_SITE'].includes(d.sourceType));
    }
    const types = new Set(list.datasources.map((d: { sourceType: string }) => d.sourceType));
    assert.deepEqual([...types].sort(), ['REFERENCE_SITE', 'SERVICE_NODE']);
  });

  it('GET /v2/datasources/{id} gives one datasource wrapped as {"datasource": ...}; unknown ids are 404; org is required', async () => {
    const id = emu.facts.datasources[0].datasourceId;
    const res = await emu.get(`${PATHS.datasource(id)}?org=${emu.org}`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ['datasource']);
    const d = body.datasource;
    assert.equal(d.datasourceId, id);
    assert.equal(d.currentSourceId, emu.facts.datasources[0].sourceId);
    assert.equal(typeof d.location.lat, 'number');
    const missing = await emu.get(`${PATHS.datasource('DNOSUCH1')}?org=${emu.org}`);
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).message, /DNOSUCH1/);
    const noOrg = await emu.get(PATHS.datasources);
    assert.equal(noOrg.status, 400);
    assert.match((await noOrg.json()).message, /^org /);
  });

  it("GET /v2/datasources/{id} agrees with the list entry (name, group, tags, source); another org's id is 404", async () => {
    const list = await (await emu.get(`${PATHS.datasources}?org=${emu.org}`)).json();
    const site = list.datasources.find((d: { sourceType: string }) => d.sourceType === 'REFERENCE_SITE');
    const one = (await (await emu.get(`${PATHS.datasource(site.datasourceId)}?org=${emu.org}`)).json()).datasource;
    for (const k of ['datasourceId', 'orgAnnotations', 'currentSubscriptionId', 'currentSourceId', 'sourceType']) {
      assert.deepEqual(one[k], site[k], k);
    }
    const theirs = await fetch(`${emu.url}${PATHS.datasources}?org=${emu.secondOrg.org}`, {
      headers: { [API_KEY_HEADER]: emu.secondOrg.apiKey },
    });
    const foreignId = (await theirs.json()).datasources[0].datasourceId;
    const res = await emu.get(`${PATHS.datasource(foreignId)}?org=${emu.org}`);
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  });

  it('reports every request to onRequest (method and path only)', async () => {
    const seen: Array<{ method: string; path: string }> = [];
    const counted = await startTestEmulator({ onRequest: (r) => seen.push(r) });
    try {
      await (await counted.get(`${PATHS.datasource('DNOSUCH1')}?org=${counted.org}`)).arrayBuffer();
      await (await fetch(counted.url + PATHS.root)).arrayBuffer();
      assert.deepEqual(seen, [
        { method: 'GET', path: PATHS.datasource('DNOSUCH1') },
        { method: 'GET', path: PATHS.root },
      ]);
    } finally {
      await counted.close();
    }
  });

  it('unknown paths are 404 JSON; the control endpoints exist only with control: true', async () => {
    const res = await emu.get('/v2/nothing-here');
    assert.equal(res.status, 404);
    assert.ok((await res.json()).message);
    const plain = await startTestEmulator({ control: false });
    try {
      const r = await fetch(`${plain.url}/_emulator/clock`, { method: 'POST', body: '{"advance":"1h"}' });
      assert.equal(r.status, 404);
      await r.arrayBuffer();
    } finally {
      await plain.close();
    }
  });

  it('POST /_emulator/clock advances or sets the clock, and rejects nonsense', async () => {
    const adv = await emu.post('/_emulator/clock', { advance: '90m' });
    assert.equal(adv.status, 200);
    const now = Date.parse((await adv.json()).now);
    const set = await emu.post('/_emulator/clock', { set: new Date(now - 90 * 60_000).toISOString() });
    assert.equal((await set.json()).now, '2026-11-20T10:30:00.000Z');
    const bad = await emu.post('/_emulator/clock', { advance: 'a while' });
    assert.equal(bad.status, 400);
    await bad.arrayBuffer();
  });
});
