// The controllable clock and durations.
import assert from 'node:assert/strict';
import { ManualClock, OffsetClock, parseDuration, toClock } from '../../../src/emulator/clock';

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
});
