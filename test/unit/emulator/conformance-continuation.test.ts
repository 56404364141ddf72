// Conformance over real HTTP: continuation tokens (issue, newer-only replies, 24 h validity, forgery,
// allDatasources following subscription changes).
import assert from 'node:assert/strict';
import { API_KEY_HEADER, CONTINUATION_TOKEN_HEADER, PATHS } from '../../../src/core/api/paths';
import {
  csvObjects,
  HOUR,
  type Json,
  MINUTE,
  NOW,
  readReply,
  startTestEmulator,
  type TestEmulator,
} from '../../support/emulator';

interface Reply {
  status: number;
  body: Json;
  text: string;
  token: string | null;
}

describe('emulator conformance: continuation', () => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await startTestEmulator();
  });
  afterEach(() => emu.close());

  async function start(body: Record<string, unknown>): Promise<Reply> {
    const r = await emu.recent({ replyWithContinuationToken: true, ...body });
    return { ...r, token: r.headers.get(CONTINUATION_TOKEN_HEADER) };
  }

  async function next(token: string, org = emu.org, key = emu.apiKey): Promise<Reply> {
    const res = await emu.post(
      PATHS.continuation,
      { org, continuationToken: token },
      { [API_KEY_HEADER]: key, 'content-type': 'application/json' },
    );
    const r = await readReply(res);
    return { ...r, token: r.headers.get(CONTINUATION_TOKEN_HEADER) };
  }

  const times = (r: Reply) => r.body.data.map((d: { time: string }) => Date.parse(d.time)) as number[];

  it('issues a token only when asked', async () => {
    const ds = emu.facts.datasources[0].datasourceId;
    const without = await emu.recent({ datasourceIds: [ds] });
    assert.equal(without.headers.get(CONTINUATION_TOKEN_HEADER), null);
    const withToken = await start({ datasourceIds: [ds] });
    assert.match(withToken.token ?? '', /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.ok(!(withToken.token ?? '').includes(emu.apiKey));
  });

  it('each continuation returns only newer measurements and a new token; nothing new -> empty data, no locations', async () => {
    const ds = emu.facts.datasources[0].datasourceId;
    const first = await start({ datasourceIds: [ds], metricSelect: 'only pm2_5ConcMassIndividual' });
    const newestFirst = Math.max(...times(first));
    // Measurements come at irregular moments: the newest is from the last minute or so, never after now.
    assert.ok(newestFirst <= NOW && newestFirst > NOW - 2 * MINUTE);
    await emu.advance('10m');
    const second = await next(first.token as string);
    assert.equal(second.status, 200);
    assert.ok(second.token && second.token !== first.token, 'an updated token replaces the previous one');
    const t2 = times(second);
    assert.ok(t2.length >= 8 && t2.length <= 11);
    assert.ok(t2.every((t) => t > newestFirst && t <= NOW + 10 * MINUTE));
    assert.equal(new Set(t2).size, t2.length, 'no duplicates');
    assert.ok(second.body.locations.length === 1);
    const third = await next(second.token as string);
    assert.deepEqual(third.body.data, []);
    assert.equal(third.body.locations, undefined, 'a reply with nothing new may omit locations');
    assert.ok(third.token);
  });

  it('keeps the format and frequency of the first query (csv-wide, hour)', async () => {
    const ds = emu.facts.datasources[0].datasourceId;
    const first = await start({ datasourceIds: [ds], format: 'csv-wide', outputFrequency: 'hour' });
    const lastStart = Math.max(...csvObjects(first.text).map((r) => Date.parse(r.startOfPeriod)));
    await emu.advance('2h');
    const second = await next(first.token as string);
    const starts = csvObjects(second.text).map((r) => Date.parse(r.startOfPeriod));
    assert.deepEqual(starts, [lastStart + 2 * HOUR, lastStart + HOUR]);
  });

  it('a token expires 24 hours after issue: 400 naming continuationToken', async () => {
    const first = await start({ datasourceIds: [emu.facts.datasources[0].datasourceId] });
    await emu.advance('23h59m');
    const ok = await next(first.token as string);
    assert.equal(ok.status, 200);
    await emu.advance('2m');
    const expired = await next(first.token as string);
    assert.equal(expired.status, 400);
    assert.match(expired.body.message, /^continuationToken has expired/);
    const fresh = await next(ok.token as string);
    assert.equal(fresh.status, 200, 'the newer token is still valid');
  });

  it('a forged or damaged token is refused: 400 "continuationToken is invalid"', async () => {
    const first = await start({ datasourceIds: [emu.facts.datasources[0].datasourceId] });
    const token = first.token as string;
    const [payload, signature] = token.split('.');
    const other = JSON.parse(Buffer.from(payload, 'base64url').toString());
    other.q.allDatasources = true;
    const forged = `${Buffer.from(JSON.stringify(other)).toString('base64url')}.${signature}`;
    for (const bad of [forged, `${token.slice(0, -2)}xx`, 'garbage']) {
      const r = await next(bad);
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { message: 'continuationToken is invalid' });
    }
    const missing = await emu.post(PATHS.continuation, { org: emu.org });
    assert.equal(missing.status, 400);
    assert.match((await missing.json()).message, /^continuationToken is required/);
  });

  it("another org cannot continue the demo org's token", async () => {
    const first = await start({ datasourceIds: [emu.facts.datasources[0].datasourceId] });
    const r = await next(first.token as string, emu.secondOrg.org, emu.secondOrg.apiKey);
    assert.equal(r.status, 400);
    assert.match(r.body.message, /continuationToken/);
    const wrongKey = await next(first.token as string, emu.org, emu.secondOrg.apiKey);
    assert.equal(wrongKey.status, 403);
  });

  it('allDatasources continuations include newly subscribed and leave out unsubscribed datasources', async () => {
    const { lateSubscriber, unsubscribed } = emu.facts;
    const lateFrom = Date.parse(emu.facts.lateSubscriberFrom); // 11:00
    const [gapFrom, gapTo] = emu.facts.unsubscribedPeriods[1].map(Date.parse); // 12:00-15:00
    const sources = (r: Reply) => new Set(r.body.data.map((d: { datasourceId: string }) => d.datasourceId));
    const select = { allDatasources: true, metricSelect: 'only pm2_5ConcMassIndividual' };
    const first = await start(select);
    assert.ok(!sources(first).has(lateSubscriber));
    assert.ok(sources(first).has(unsubscribed));

    await emu.advance('1h'); // 11:30
    const second = await next(first.token as string);
    assert.ok(sources(second).has(lateSubscriber), 'the newly subscribed datasource joins');
    const lateTimes = second.body.data
      .filter((d: { datasourceId: string }) => d.datasourceId === lateSubscriber)
      .map((d: { time: string }) => Date.parse(d.time));
    assert.ok(Math.min(...lateTimes) >= lateFrom);

    await emu.advance('2h'); // 13:30
    const third = await next(second.token as string);
    const unsubTimes = third.body.data
      .filter((d: { datasourceId: string }) => d.datasourceId === unsubscribed)
      .map((d: { time: string }) => Date.parse(d.time));
    assert.ok(unsubTimes.length > 0 && unsubTimes.every((t: number) => t < gapFrom), 'nothing while unsubscribed');

    await emu.advance('1h'); // 14:30
    const fourth = await next(third.token as string);
    assert.ok(!sources(fourth).has(unsubscribed), 'the unsubscribed datasource is left out');

    await emu.advance('1h'); // 15:30
    const fifth = await next(fourth.token as string);
    const back = fifth.body.data
      .filter((d: { datasourceId: string }) => d.datasourceId === unsubscribed)
      .map((d: { time: string }) => Date.parse(d.time));
    assert.ok(back.length > 0 && back.every((t: number) => t >= gapTo), 'back once subscribed again');
  });

  it('continuations with datasourceIds stay with those datasources', async () => {
    const ids = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
    const first = await start({ datasourceIds: ids });
    await emu.advance('5m');
    const second = await next(first.token as string);
    const got = new Set(second.body.data.map((d: { datasourceId: string }) => d.datasourceId));
    assert.deepEqual([...got].sort(), [...ids].sort());
    assert.ok(NOW < Date.parse(second.body.data[0].time));
  });
});
