// core/time: the one ISO 8601 parser and the one duration grammar, checked against references and
// through every entry point that takes a time, under several time zones.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  DAY_MS,
  formatDuration,
  HOUR_MS,
  isCalendarDate,
  MINUTE_MS,
  parseDuration,
  parseIso,
  parseIsoMs,
} from '../../../../src/core/time/index';
import { daysFromCivil, isoBytesToMs, isoToMs } from '../../../../src/core/time/iso';
import { civilFromDays } from '../../../../src/core/time/zone';
import { type ProbeRow, probe } from '../../../support/core/time-probe';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An ISO-shaped text (valid or not as a calendar date) and the instant it names when valid. */
const isoText = fc
  .record({
    y: fc.integer({ min: 1000, max: 9999 }),
    mo: fc.integer({ min: 1, max: 13 }),
    d: fc.integer({ min: 1, max: 31 }),
    time: fc.option(
      fc.record({
        h: fc.integer({ min: 0, max: 23 }),
        mi: fc.integer({ min: 0, max: 59 }),
        s: fc.option(fc.integer({ min: 0, max: 59 })),
        frac: fc.option(fc.stringMatching(/^\d{1,9}$/)),
        zone: fc.oneof(
          fc.constant(''),
          fc.constant('Z'),
          fc
            .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45), fc.boolean())
            .map(([sign, h, m, colon]) => `${sign}${pad(h)}${colon ? ':' : ''}${pad(m)}`),
        ),
      }),
    ),
  })
  .map(({ y, mo, d, time }) => {
    const date = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
    if (!time) return { text: date, zoned: `${date}T00:00:00Z` };
    const sec = time.s === null ? '' : `:${pad(time.s)}`;
    const frac = time.s !== null && time.frac !== null ? `.${time.frac}` : '';
    const body = `${date}T${pad(time.h)}:${pad(time.mi)}${sec}`;
    // The reference text for V8's parser: the fraction cut to ms, no zone read as Z, offsets with a colon.
    const zone =
      time.zone === '' ? 'Z' : time.zone.length === 5 ? `${time.zone.slice(0, 3)}:${time.zone.slice(3)}` : time.zone;
    return { text: `${body}${frac}${time.zone}`, zoned: `${body}${sec ? '' : ':00'}${frac.slice(0, 4)}${zone}` };
  });

/** Calendar validity by an independent reference: V8's own calendar (Date.UTC rolls impossible days over). */
function referenceValid(y: number, mo: number, d: number): boolean {
  if (mo < 1 || mo > 12) return false;
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

function expected(text: string, zoned: string): number | null {
  const [y, mo, d] = text.slice(0, 10).split('-').map(Number);
  return referenceValid(y, mo, d) ? Date.parse(zoned) : null;
}

describe('core/time: ISO 8601 dates and timestamps', () => {
  it('parses the forms the project writes and reads, zone-less timestamps as UTC', () => {
    assert.deepEqual(parseIso('2026-11-01'), { ms: Date.UTC(2026, 10, 1), dateOnly: true, zoned: false });
    assert.deepEqual(parseIso('2026-11-01T10:00'), { ms: Date.UTC(2026, 10, 1, 10), dateOnly: false, zoned: false });
    assert.equal(parseIsoMs('2026-11-01T10:00Z'), Date.UTC(2026, 10, 1, 10));
    assert.equal(parseIsoMs('2026-11-01T10:00:00.123Z'), Date.UTC(2026, 10, 1, 10, 0, 0, 123));
    assert.equal(parseIsoMs('2026-11-01T10:00:00.123456789Z'), Date.UTC(2026, 10, 1, 10, 0, 0, 123));
    assert.equal(parseIsoMs('2026-11-01T10:00:00+0130'), Date.UTC(2026, 10, 1, 8, 30));
    assert.equal(parseIsoMs('2026-11-01T10:00:00-05:00'), Date.UTC(2026, 10, 1, 15));
    assert.equal(parseIsoMs('0001-01-01'), -62_135_596_800_000, 'years below 100 are not 19xx');
    assert.equal(parseIsoMs('2024-02-29'), Date.UTC(2024, 1, 29));
    const bad = ['2026-02-30', '2025-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '2026-11-00', '2026-04-31'];
    bad.push('2026-11-01T24:00Z', '2026-11-01T10:60Z', '2026-11-01T10:00:60Z', '2026-11-01T10:00+24:00');
    bad.push('01/11/2026', 'yesterday', '', '2026-11-01T10Z', '2026-11-01T10:00:00.Z');
    bad.push('2026-11-01T10:00:00.1234567890Z', '2026-11-01T10:00:00+1', ' 2026-11-01', '2026-11-01  10:00Z');
    // Basic format all of a piece only; week and ordinal dates are refused (see iso.ts).
    bad.push('20261101T10:00Z', '2026-11-01T1000Z', '20261301', '20261101T1000+1', '2026-W44-7', '2026-305');
    for (const text of bad) assert.equal(parseIso(text), undefined, text);
  });

  it('reads what RFC 3339 and ISO 8601 also allow: a space or t for T, z, a decimal comma, the basic format', () => {
    const at10 = Date.UTC(2026, 10, 25, 10);
    assert.equal(parseIsoMs('2026-11-25 10:00:00Z'), at10);
    assert.equal(parseIsoMs('2026-11-25t10:00:00z'), at10);
    assert.equal(parseIsoMs('2026-11-25 10:00'), at10);
    assert.equal(parseIsoMs('2026-11-25T10:00:00,250Z'), at10 + 250);
    assert.equal(parseIsoMs('2026-11-25T12:00:00+02'), at10);
    assert.equal(parseIsoMs('20261125T100000Z'), at10);
    assert.equal(parseIsoMs('20261125T1000Z'), at10);
    assert.equal(parseIsoMs('20261125T100000.5Z'), at10 + 500);
    assert.equal(parseIsoMs('20261125T113000+0130'), at10);
    assert.equal(parseIsoMs('20261125T050000-05'), at10);
    assert.deepEqual(parseIso('20261125'), { ms: Date.UTC(2026, 10, 25), dateOnly: true, zoned: false });
    assert.deepEqual(parseIso('20261125T1000'), { ms: at10, dateOnly: false, zoned: false });
  });

  it('agrees with V8 on every valid text, and with a reference calendar on validity', () => {
    fc.assert(
      fc.property(isoText, ({ text, zoned }) => {
        assert.equal(parseIsoMs(text) ?? null, expected(text, zoned), text);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, mo, d) => {
          assert.equal(isCalendarDate(y, mo, d), referenceValid(y, mo, d), `${y}-${mo}-${d}`);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('every entry point (cells, request checks, emulator, table cells, filters) reads a text the same way', () => {
    fc.assert(
      fc.property(isoText, ({ text, zoned }) => {
        const want = expected(text, zoned);
        const [query, validate, emulator, table, filter] = probe(text);
        assert.deepEqual(
          { query, validate, emulator, table, filter },
          {
            query: want,
            validate: want !== null,
            emulator: want,
            table: want,
            filter: want,
          },
          text,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('the same text gives the same instant in every time zone (each entry point, in a child process per TZ)', function () {
    this.timeout(60_000);
    // Local-time traps: New York's DST change on 2026-11-01 and 2026-03-08, half-hour and 45-minute zones.
    const texts = ['2026-11-01T10:00', '2026-11-01T01:30', '2026-03-08T02:30:00', '2026-02-30', '2026-11-01'];
    texts.push(...fc.sample(isoText, 300).map((s) => s.text));
    const want: ProbeRow[] = texts.map((t) => probe(t));
    assert.deepEqual(want[0], [
      Date.UTC(2026, 10, 1, 10),
      true,
      Date.UTC(2026, 10, 1, 10),
      Date.UTC(2026, 10, 1, 10),
      Date.UTC(2026, 10, 1, 10),
    ]);
    assert.deepEqual(want[3], [null, false, null, null, null], '2026-02-30 is rejected everywhere');
    const script = join(__dirname, '../../../support/core/time-probe.ts');
    const zones = {
      'America/New_York': 300,
      'Asia/Kolkata': -330,
      'Pacific/Chatham': -825,
      'America/St_Johns': 210,
      UTC: 0,
    };
    for (const [tz, januaryOffset] of Object.entries(zones)) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
        input: JSON.stringify(texts),
        env: { ...process.env, TZ: tz },
        encoding: 'utf8',
      });
      assert.equal(child.status, 0, child.stderr);
      const out = JSON.parse(child.stdout) as { januaryOffset: number; rows: ProbeRow[] };
      assert.equal(out.januaryOffset, januaryOffset, `the child ran in ${tz}`);
      for (const [i, row] of out.rows.entries()) assert.deepEqual(row, want[i], `${texts[i]} under TZ=${tz}`);
    }
  });
});

describe("core/time: ISO timestamps from bytes (the CSV reader's fast path)", () => {
  const bytes = (t: string) => Buffer.from(t, 'latin1');
  it('gives isoToMs for the canonical forms, and NaN (so the caller falls back to isoToMs) for the rest', () => {
    for (const t of [
      '2026-11-01T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '1970-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
    ]) {
      assert.equal(isoBytesToMs(bytes(t), 0, t.length), isoToMs(t), t);
    }
    const framed = bytes('x,2026-11-01T10:20:30.456Z,y');
    assert.equal(isoBytesToMs(framed, 2, 26), isoToMs('2026-11-01T10:20:30.456Z'));
    for (const t of ['2026-11-01', '2026-11-01T00:00Z', '2026-11-01T00:00:00+00:00', '2026-11-01T00:00:00.1Z']) {
      assert.ok(Number.isNaN(isoBytesToMs(bytes(t), 0, t.length)), t);
    }
  });

  it('never disagrees with isoToMs (any text of the canonical shapes)', () => {
    const digit = fc.constantFrom(...'0123456789x'.split(''));
    const d = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((a) => a.join(''));
    const text = fc
      .tuple(d(4), d(2), d(2), d(2), d(2), d(2), fc.option(d(3)))
      .map(([y, mo, da, h, mi, s, ms]) => `${y}-${mo}-${da}T${h}:${mi}:${s}${ms === null ? '' : `.${ms}`}Z`);
    fc.assert(
      fc.property(text, (t) => {
        const fast = isoBytesToMs(bytes(t), 0, t.length);
        const iso = isoToMs(t);
        return Number.isNaN(iso) ? Number.isNaN(fast) : fast === iso;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('core/time: ISO timestamps from bytes, date by date', () => {
  const bytes = (t: string) => Buffer.from(t, 'latin1');
  it('agrees with isoToMs over runs of one date, dates taking turns, and impossible dates between them', () => {
    // isoBytesToMs checks and counts a date once and keeps it for the cells after it: a sequence that
    // repeats dates, goes back to one, and meets impossible dates with the same digits must not tell.
    const date = fc.constantFrom('2024-02-29', '2023-02-29', '2024-03-01', '2026-11-25', '2026-11-31', '1999-12-31');
    const time = fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 59 }), fc.boolean());
    const cell = fc
      .tuple(date, time)
      .map(
        ([d, [h, m, ms]]) => `${d}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:07${ms ? '.250' : ''}Z`,
      );
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 30 }), (cells) =>
        cells.every((t) => {
          const fast = isoBytesToMs(bytes(t), 0, t.length);
          const iso = isoToMs(t);
          return Number.isNaN(iso) ? Number.isNaN(fast) : fast === iso;
        }),
      ),
      { numRuns: 500 },
    );
  });
});

describe('core/time: durations', () => {
  it('one grammar: units ms s m h d w, compound, signed, decimals', () => {
    const ms = (t: string) => {
      const d = parseDuration(t);
      return 'ms' in d ? d.ms : d.error;
    };
    assert.equal(ms('30s'), 30_000);
    assert.equal(ms('5m'), 5 * MINUTE_MS);
    assert.equal(ms('1h30m'), 90 * MINUTE_MS);
    assert.equal(ms('1.5h'), 90 * MINUTE_MS);
    assert.equal(ms('-6h'), -6 * HOUR_MS);
    assert.equal(ms('2d'), 2 * DAY_MS);
    assert.equal(ms('1w'), 7 * DAY_MS);
    assert.equal(ms('500ms'), 500);
    for (const bad of ['', '5', 'soon', '5x', '1h 30m', 'h', '-', '5mm', '1e3s', '99999999999999h']) {
      assert.ok('error' in parseDuration(bad), bad);
    }
  });

  it('format is the short form (45s, 1m05s, 5m, 3h12m) and parses back to the duration at its precision', () => {
    assert.equal(formatDuration(45_000), '45s');
    assert.equal(formatDuration(65_000), '1m05s');
    assert.equal(formatDuration(300_000), '5m');
    assert.equal(formatDuration(3 * HOUR_MS + 12 * MINUTE_MS), '3h12m');
    assert.equal(formatDuration(26 * HOUR_MS + 5 * MINUTE_MS), '26h05m');
    assert.equal(formatDuration(-5), '0s');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * DAY_MS }), (ms) => {
        const text = formatDuration(ms);
        const back = parseDuration(text);
        assert.ok('ms' in back, text);
        const unit = Math.round(ms / 1000) >= 3600 ? MINUTE_MS : 1000;
        assert.equal(back.ms, Math.round(ms / unit) * unit, `${ms} -> ${text}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('a compound duration is the sum of its parts, whatever the order of writing', () => {
    const part = fc.tuple(fc.integer({ min: 0, max: 999 }), fc.constantFrom('ms', 's', 'm', 'h', 'd', 'w'));
    const unit: Record<string, number> = { ms: 1, s: 1000, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS };
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), fc.boolean(), (parts, negative) => {
        const text = `${negative ? '-' : ''}${parts.map(([n, u]) => `${n}${u}`).join('')}`;
        const sum = parts.reduce((acc, [n, u]) => acc + n * unit[u], 0);
        assert.deepEqual(parseDuration(text), { ms: negative ? -sum || 0 : sum }, text);
      }),
    );
  });
});

describe('core/time: civil dates from day counts', () => {
  it('civilFromDays gives the dates Python (datetime.date(1970, 1, 1) + timedelta(days)) gives', () => {
    // Expected: python3, (date(y, m, d) - date(1970, 1, 1)).days for each date.
    const cases: Array<[number, [number, number, number]]> = [
      [0, [1970, 1, 1]],
      [11_016, [2000, 2, 29]],
      [-1, [1969, 12, 31]],
      [20_783, [2026, 11, 26]],
      [-135_080, [1600, 3, 1]],
    ];
    for (const [days, [year, month, day]] of cases) assert.deepEqual(civilFromDays(days), { year, month, day });
  });

  it('is the inverse of daysFromCivil on every valid date', () => {
    fc.assert(
      fc.property(fc.integer({ min: -800_000, max: 800_000 }), (days) => {
        const { year, month, day } = civilFromDays(days);
        assert.ok(isCalendarDate(year, month, day));
        assert.equal(daysFromCivil(year, month, day), days);
      }),
    );
  });
});
