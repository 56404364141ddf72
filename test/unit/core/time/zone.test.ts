// core/time/zone: IANA zones checked, offsets, local days (23/25-hour DST days, 30-minute DST, +05:45), the
// `standard` boundary. Every expected instant below comes from Python's zoneinfo (tzdata), computed with
//   python3 -c "from zoneinfo import ZoneInfo; from datetime import datetime, date, timedelta; ..."
// e.g. datetime(2026,3,8,tzinfo=ZoneInfo('America/Denver')).timestamp() → 1772953200 (2026-03-08T07:00Z),
// and the transitions by stepping 30 minutes through 2024–2027 comparing utcoffset(). Run under any TZ.
import assert from 'node:assert/strict';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../../src/core/time/duration';
import { parseIsoMs } from '../../../../src/core/time/iso';
import {
  checkDayBoundary,
  checkTimeZone,
  civilFromDays,
  TimeZoneError,
  timeZoneNames,
  UTC,
  Zone,
  zoneOf,
} from '../../../../src/core/time/zone';
import { withTimeZone } from '../../../support/time-zone';

const at = (iso: string) => parseIsoMs(iso) as number;
const dayOf = (date: string) => Math.floor(at(date) / DAY_MS);

/** zoneinfo's transitions 2024–2027 (UTC instant, offset in minutes after it) and the offset on 2024-01-01. */
const TRANSITIONS: Record<string, { first: number; changes: Array<[string, number]> }> = {
  'America/Denver': {
    first: -420,
    changes: [
      ['2024-03-10T09:00Z', -360],
      ['2024-11-03T08:00Z', -420],
      ['2025-03-09T09:00Z', -360],
      ['2025-11-02T08:00Z', -420],
      ['2026-03-08T09:00Z', -360],
      ['2026-11-01T08:00Z', -420],
      ['2027-03-14T09:00Z', -360],
      ['2027-11-07T08:00Z', -420],
    ],
  },
  'Australia/Lord_Howe': {
    first: 660,
    changes: [
      ['2024-04-06T15:00Z', 630],
      ['2024-10-05T15:30Z', 660],
      ['2025-04-05T15:00Z', 630],
      ['2025-10-04T15:30Z', 660],
      ['2026-04-04T15:00Z', 630],
      ['2026-10-03T15:30Z', 660],
      ['2027-04-03T15:00Z', 630],
      ['2027-10-02T15:30Z', 660],
    ],
  },
  'Asia/Kathmandu': { first: 345, changes: [] },
  'Europe/London': {
    first: 0,
    changes: [
      ['2024-03-31T01:00Z', 60],
      ['2024-10-27T01:00Z', 0],
      ['2025-03-30T01:00Z', 60],
      ['2025-10-26T01:00Z', 0],
      ['2026-03-29T01:00Z', 60],
      ['2026-10-25T01:00Z', 0],
      ['2027-03-28T01:00Z', 60],
      ['2027-10-31T01:00Z', 0],
    ],
  },
};

describe('core/time/zone', () => {
  describe('checkTimeZone', () => {
    it('accepts IANA names, canonical and case-insensitive, and UTC aliases', () => {
      assert.equal(checkTimeZone('America/Denver'), 'America/Denver');
      assert.equal(checkTimeZone('america/denver'), 'America/Denver');
      assert.equal(checkTimeZone('UTC'), 'UTC');
      assert.equal(checkTimeZone('Etc/UTC'), 'UTC');
      assert.equal(checkTimeZone('Asia/Kathmandu'), 'Asia/Kathmandu');
    });
    it('refuses offsets, abbreviations, unknown names and non-strings with TIME_ZONE', () => {
      for (const bad of [
        '+05:45',
        'MST',
        'Mars/Olympus',
        '',
        'America/Denver; rm',
        '../../etc',
        7,
        null,
        'A'.repeat(200),
      ]) {
        assert.throws(
          () => checkTimeZone(bad),
          (e: unknown) =>
            e instanceof TimeZoneError && e.code === 'TIME_ZONE' && /time zone|names no place/.test(e.message),
          String(bad),
        );
      }
    });
    it('checks a day boundary', () => {
      assert.equal(checkDayBoundary('standard'), 'standard');
      assert.throws(() => checkDayBoundary('local'), /not one of: clock, standard/);
    });
    it('lists zones with UTC first', () => {
      const names = timeZoneNames();
      assert.equal(names[0], 'UTC');
      assert.ok(names.includes('America/Denver') && names.includes('Australia/Lord_Howe'));
    });
  });

  describe('offsets (against zoneinfo, 2024–2027)', () => {
    for (const [name, { first, changes }] of Object.entries(TRANSITIONS)) {
      it(`${name}: every half hour and each transition second`, () => {
        const zone = new Zone(checkTimeZone(name), 'clock');
        const marks = changes.map(([t, o]) => [at(t), o] as const);
        const expected = (ms: number) => {
          let o = first;
          for (const [t, after] of marks) if (ms >= t) o = after;
          return o * MINUTE_MS;
        };
        for (let ms = at('2024-01-01T00:00Z'); ms < at('2028-01-01T00:00Z'); ms += 30 * MINUTE_MS)
          assert.equal(zone.offsetMs(ms), expected(ms), new Date(ms).toISOString());
        for (const [t] of marks) {
          assert.equal(zone.offsetMs(t - 1), expected(t - 1));
          assert.equal(zone.offsetMs(t), expected(t));
        }
      });
    }
  });

  describe('local days (clock)', () => {
    const denver = zoneOf('America/Denver', 'clock');
    it('America/Denver 2026-03-08 is 23 hours, 07:00Z to 06:00Z (zoneinfo)', () => {
      const d = dayOf('2026-03-08');
      assert.equal(denver.dayStart(d), at('2026-03-08T07:00Z'));
      assert.equal(denver.dayEnd(d), at('2026-03-09T06:00Z'));
      assert.equal(denver.dayHours(d), 23);
      assert.equal(denver.dayKey(at('2026-03-09T05:59:59.999Z')), d);
      assert.equal(denver.dayKey(at('2026-03-09T06:00Z')), d + 1);
    });
    it('America/Denver 2026-11-01 is 25 hours, 06:00Z to 07:00Z next day (zoneinfo)', () => {
      const d = dayOf('2026-11-01');
      assert.equal(denver.dayStart(d), at('2026-11-01T06:00Z'));
      assert.equal(denver.dayEnd(d), at('2026-11-02T07:00Z'));
      assert.equal(denver.dayHours(d), 25);
      // 01:00–01:59 happens twice: 07:xxZ (MDT) and 08:xxZ (MST), both hour 1 of that Sunday (weekday 6).
      assert.equal(denver.hourOfDay(at('2026-11-01T07:30Z')), 1);
      assert.equal(denver.hourOfDay(at('2026-11-01T08:30Z')), 1);
      assert.equal(denver.weekday(at('2026-11-01T08:30Z')), 6);
    });
    it('Australia/Lord_Howe: 24.5 hours on 2026-04-05, 23.5 on 2026-10-04 (30-minute DST; zoneinfo)', () => {
      const z = zoneOf('Australia/Lord_Howe');
      assert.equal(z.dayStart(dayOf('2026-04-05')), at('2026-04-04T13:00Z'));
      assert.equal(z.dayHours(dayOf('2026-04-05')), 24.5);
      assert.equal(z.dayStart(dayOf('2026-10-04')), at('2026-10-03T13:30Z'));
      assert.equal(z.dayHours(dayOf('2026-10-04')), 23.5);
      assert.equal(z.hourOfDay(at('2026-10-03T15:30Z')), 2); // 02:30 +11:00, right after the change
    });
    it('Asia/Kathmandu (+05:45): 2026-11-25 runs from 18:15Z to 18:15Z (zoneinfo)', () => {
      const z = zoneOf('Asia/Kathmandu');
      const d = dayOf('2026-11-25');
      assert.equal(z.dayStart(d), at('2026-11-24T18:15Z'));
      assert.equal(z.dayHours(d), 24);
      assert.equal(z.dayKey(at('2026-11-25T18:14Z')), d);
      assert.equal(z.hourOfDay(at('2026-11-25T18:14Z')), 23);
      assert.equal(z.weekday(at('2026-11-25T18:14Z')), 2); // a Wednesday
      assert.equal(z.weekday(at('2026-11-25T18:15Z')), 3);
    });
    it('UTC: days are UTC days, 24 hours', () => {
      const d = dayOf('2026-03-08');
      assert.equal(UTC.dayStart(d), at('2026-03-08'));
      assert.equal(UTC.dayHours(d), 24);
      assert.equal(UTC.hourOfDay(at('2026-03-08T23:59Z')), 23);
    });
  });

  describe('standard days (EPA: local standard time all year)', () => {
    it('America/Denver: UTC−7 all year, so a July day runs 07:00Z to 07:00Z and every day is 24 hours', () => {
      const z = zoneOf('America/Denver', 'standard');
      assert.equal(z.standardOffsetMs(at('2026-07-04T12:00Z')), -7 * HOUR_MS);
      assert.equal(z.dayStart(dayOf('2026-07-04')), at('2026-07-04T07:00Z'));
      assert.equal(z.dayHours(dayOf('2026-03-08')), 24);
      assert.equal(z.dayHours(dayOf('2026-11-01')), 24);
      assert.equal(z.hourOfDay(at('2026-07-04T07:00Z')), 0); // 01:00 MDT is 00:00 MST
    });
    it('Australia/Lord_Howe: the smaller of January (+11:00) and July (+10:30) is standard', () => {
      const z = zoneOf('Australia/Lord_Howe', 'standard');
      assert.equal(z.standardOffsetMs(at('2026-01-15T00:00Z')), 630 * MINUTE_MS);
      assert.equal(z.dayStart(dayOf('2026-01-15')), at('2026-01-14T13:30Z'));
    });
  });

  it('gives the same answers under any TZ of the process', () => {
    const probeIt = () => {
      const z = new Zone('America/Denver', 'clock');
      return [z.dayStart(dayOf('2026-03-08')), z.hourOfDay(at('2026-11-01T08:30Z')), z.offsetMs(at('2026-07-01'))];
    };
    const expected = probeIt();
    for (const tz of ['Asia/Kolkata', 'America/Denver', 'Pacific/Chatham'])
      assert.deepEqual(withTimeZone(tz, probeIt), expected, tz);
  });

  it('civilFromDays inverts the day count (Hinnant), leap days included', () => {
    assert.deepEqual(civilFromDays(dayOf('2024-02-29')), { year: 2024, month: 2, day: 29 });
    assert.deepEqual(civilFromDays(0), { year: 1970, month: 1, day: 1 });
    assert.deepEqual(civilFromDays(-1), { year: 1969, month: 12, day: 31 });
  });

  it('1,000,000 instants cost no Intl call each (well under a second)', () => {
    const z = new Zone('America/Denver', 'clock');
    const start = at('2026-01-01');
    let sum = 0;
    const t0 = performance.now();
    for (let i = 0; i < 1_000_000; i++) sum += z.dayKey(start + i * MINUTE_MS) + z.hourOfDay(start + i * MINUTE_MS);
    const took = performance.now() - t0;
    assert.ok(sum > 0);
    assert.ok(took < 1000, `${took} ms`);
  });
});
