import assert from 'node:assert/strict';
import type { RecentQueryRequest } from '../../../../src/core/api/types';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { type FollowState, followStep, parseFollowState, serializeFollowState } from '../../../../src/core/follow';
import { rowKey } from '../../../../src/core/follow/cursor';
import type { Table } from '../../../../src/core/table/table';
import { systemClock } from '../../../../src/core/time/clock';
import { ManualClock, type RunningEmulator, startEmulator } from '../../../../src/emulator';

const MIN = 60_000;
const START = Date.parse('2026-11-20T12:00:00Z');

function keys(table: Table): string[] {
  return Array.from({ length: table.rowCount }, (_, i) => rowKey(table, i) as string);
}

describe('follow: followStep against the emulator', () => {
  let emu: RunningEmulator;
  let clock: ManualClock;
  let client: MeasurementsClient;
  let ds: string[];

  beforeEach(async () => {
    clock = new ManualClock(START);
    emu = await startEmulator({ clock, seed: 7 });
    client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    ds = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
  });
  afterEach(() => emu.close());

  const request = (format: 'csv-wide' | 'json-long'): RecentQueryRequest => ({
    org: emu.org,
    datasourceIds: ds,
    format,
    startTime: new Date(START - 30 * MIN).toISOString(),
  });

  for (const format of ['csv-wide', 'json-long'] as const) {
    it(`starts, continues with a replaced token, and returns only new rows (${format})`, async () => {
      const now = () => new Date(clock.now());
      const first = await followStep({ client, request: request(format), now: now() });
      assert.equal(first.mode, 'start');
      assert.ok(first.table.rowCount > 0);
      assert.ok(first.state.token);
      const all = new Set(keys(first.table));

      clock.advance(10 * MIN);
      const second = await followStep({ client, request: request(format), state: first.state, now: now() });
      assert.equal(second.mode, 'continue');
      assert.notEqual(second.state.token, first.state.token, 'the token is replaced');
      assert.ok(second.table.rowCount > 0, 'ten new minutes of data');
      for (const k of keys(second.table)) {
        assert.ok(!all.has(k), `duplicate row ${k}`);
        all.add(k);
      }
      // Oldest first, and the cursor's last time is the newest row's.
      const times = keys(second.table).map((k) => Number(k.split('|')[1]));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
      );
      assert.equal(second.state.lastTime, new Date(Math.max(...times)).toISOString());
    });
  }

  it('falls back to a fresh query from the last time seen when the token expired: no gap, no duplicate', async () => {
    const now = () => new Date(clock.now());
    const req = { ...request('csv-wide'), outputFrequency: 'minute' as const };
    const first = await followStep({ client, request: req, now: now() });
    clock.advance(5 * MIN);
    const second = await followStep({ client, request: req, state: first.state, now: now() });
    // Expire the token (24 h + a bit) on the emulator's clock, but not for the local age check.
    clock.advance(24 * 60 * MIN + MIN);
    const third = await followStep({ client, request: req, state: second.state, now: new Date(START + 6 * MIN) });
    assert.equal(third.mode, 'restart');
    assert.match(third.notice ?? '', /no longer valid; resumed with a fresh query from /);
    assert.ok(third.state.token, 'a fresh token');

    // Ground truth: one query over the whole period.
    const truth = await client.recentQuery({ ...req, startTime: req.startTime });
    const seen = [...keys(first.table), ...keys(second.table), ...keys(third.table)];
    assert.equal(new Set(seen).size, seen.length, 'no duplicate row');
    const truthKeys = new Set(keys(truth.table));
    for (const k of truthKeys) assert.ok(seen.includes(k), `gap: ${k} missing`);
  });

  it('starts a new tail when the cell changed, and a saved state round-trips', async () => {
    const now = new Date(clock.now());
    const first = await followStep({ client, request: request('csv-wide'), now });
    const restored = parseFollowState(serializeFollowState(first.state)) as FollowState;
    assert.deepEqual(restored, first.state);
    const other = await followStep({
      client,
      request: { ...request('csv-wide'), datasourceIds: [ds[0]] },
      state: restored,
      now,
    });
    assert.equal(other.mode, 'start');
    assert.equal(parseFollowState('not json'), undefined);
  });
});
