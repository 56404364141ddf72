// The controllable clock and durations.
import assert from 'node:assert/strict';
import { ManualClock, OffsetClock, parseDuration, timeOptionMs, toClock } from '../../../src/emulator/clock';
import { startEmulator } from '../../../src/emulator/index';
import { withTimeZone } from '../../support/time-zone';

describe('emulator clock', () => {
  it('parses durations', () => {
    assert.equal(parseDuration('25h'), 25 * 3_600_000);
    assert.equal(parseDuration('5s'), 5000);
    assert.equal(parseDuration('90m'), 5_400_000);
    assert.equal(parseDuration('1h30m'), 5_400_000);
    assert.equal(parseDuration('2d'), 172_800_000);
    assert.equal(parseDuration('500ms'), 500);
    assert.equal(parseDuration('-1h'), -3_600_000);
    assert.equal(parseDuration(250), 250);
    assert.throws(() => parseDuration('250'), 'a duration names its unit');
    assert.throws(() => parseDuration('soon'));
    assert.throws(() => parseDuration('5x'));
  });

  it('a manual clock moves only when told', () => {
    const c = new ManualClock(1000);
    assert.equal(c.now(), 1000);
    c.advance(500);
    assert.equal(c.now(), 1500);
    c.set(42);
    assert.equal(c.now(), 42);
  });

  it('a start time gives a clock that starts there and can be moved', () => {
    const c = toClock('2026-01-01T00:00:00Z');
    assert.ok(c instanceof OffsetClock);
    assert.ok(Math.abs(c.now() - Date.parse('2026-01-01T00:00:00Z')) < 60_000);
    c.advance(3_600_000);
    assert.ok(c.now() >= Date.parse('2026-01-01T01:00:00Z'));
    assert.throws(() => toClock('not a time'));
  });

  it('reads a zone-less start time or anchor as UTC, never as local time (core/time)', async () => {
    await withTimeZone('Asia/Kolkata', async () => {
      assert.equal(timeOptionMs('2026-11-20T10:30:00', 'anchor'), Date.UTC(2026, 10, 20, 10, 30));
      assert.equal(toClock('2026-11-20T10:30:00').now() - Date.UTC(2026, 10, 20, 10, 30) < 60_000, true);
      assert.throws(() => timeOptionMs('Nov 20 2026', 'anchor'), /anchor: not a time/);
      const emu = await startEmulator({ clock: new ManualClock(0), anchor: '2026-11-20T10:30:00', datasources: 2 });
      try {
        assert.equal(emu.facts.anchor, '2026-11-20T10:00:00.000Z');
      } finally {
        await emu.close();
      }
    });
  });
});
