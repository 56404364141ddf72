// Time zones: an IANA zone name checked once, then a zone's offsets, local days, hours of day and weekdays
// for many instants without asking Intl per instant. Platform-neutral (Intl only, no Date parsing), so a
// result never depends on the machine's zone: local days always come from an explicit IANA name.
//
// Day boundaries:
//   clock     local civil time, daylight saving included: a day is 23 or 25 hours on DST days.
//   standard  the zone's standard offset all year (EPA's convention for daily values: local standard
//             time). A year's standard offset is the smaller of its 1 January and 1 July offsets (the
//             summer offset is the larger one, on either hemisphere). Every day is 24 hours.
// Hours of day and weekdays follow the same boundary (a `standard` day's hours are standard-time hours).
//
// Offsets: asked of Intl.DateTimeFormat once per UTC day (its start and end); a day whose two offsets differ
// holds a transition, found by bisection to the second. One transition per UTC day at most (true of every
// zone since 1970). Offsets are in milliseconds (historic local mean time has seconds in it).
import { DAY_MS, HOUR_MS } from './duration';
import { daysFromCivil } from './iso';

export type DayBoundary = 'clock' | 'standard';
export const DAY_BOUNDARIES: readonly DayBoundary[] = ['clock', 'standard'];
export const DEFAULT_TIME_ZONE = 'UTC';
/** Clock days by default: the days the tables and charts show, and sql cells' `date_trunc('day', …)`. */
export const DEFAULT_DAY_BOUNDARY: DayBoundary = 'clock';

/** A zone name that is not an IANA time zone, or a day boundary that is not one. */
export class TimeZoneError extends Error {
  readonly code = 'TIME_ZONE';
  constructor(message: string) {
    super(message);
    this.name = 'TimeZoneError';
  }
}

/** Instants Intl formats (about ±275,000 years); offsets outside are NaN. */
const MAX_INSTANT_MS = 8.64e15;
const NAME = /^[A-Za-z][A-Za-z0-9_+-]{0,40}(?:\/[A-Za-z0-9_+-]{1,40}){0,3}$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter (resolved name as key), bounded: a hostile notebook cannot grow it without end. */
function formatterOf(name: string): Intl.DateTimeFormat {
  let f = formatters.get(name);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    if (formatters.size >= 64) formatters.clear();
    formatters.set(name, f);
  }
  return f;
}

/**
 * The IANA zone's name as given, checked (`america/denver` → `America/Denver` when the platform lists it;
 * `Etc/UTC`, `GMT`, `Zulu` → `UTC`), or a TimeZoneError naming what is wrong. The name is kept rather than
 * resolved: ICU's canonical names lag tzdata's (`Asia/Kathmandu` resolves to `Asia/Katmandu`). Offsets
 * (`+05:00`) and names without a place (`MST`, which ICU reads as America/Phoenix) are refused.
 */
export function checkTimeZone(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    const shown = typeof name === 'string' ? `'${name.slice(0, 60)}'` : `a ${typeof name}`;
    throw new TimeZoneError(`${shown} is not an IANA time zone name (such as UTC, America/Denver or Europe/Paris)`);
  }
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw new TimeZoneError(`unknown time zone '${name}' (an IANA name such as UTC, America/Denver or Europe/Paris)`);
  }
  if (resolved === 'UTC' || resolved === 'Etc/UTC') return 'UTC';
  if (!name.includes('/'))
    throw new TimeZoneError(`'${name}' names no place: use an IANA name such as America/Denver or Europe/Paris`);
  const lower = name.toLowerCase();
  return timeZoneNames().find((n) => n.toLowerCase() === lower) ?? name;
}

/** The day boundary named, or a TimeZoneError. */
export function checkDayBoundary(value: unknown): DayBoundary {
  if (value === 'clock' || value === 'standard') return value;
  const shown = typeof value === 'string' ? `'${value.slice(0, 40)}'` : `a ${typeof value}`;
  throw new TimeZoneError(`day boundary ${shown} is not one of: clock, standard`);
}

/** The IANA zones this platform knows, UTC first (for pickers). */
export function timeZoneNames(): readonly string[] {
  if (!knownNames) {
    const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    knownNames = ['UTC', ...names.filter((n) => n !== 'UTC')];
  }
  return knownNames;
}
let knownNames: readonly string[] | undefined;

/** The civil offset (ms) of a zone at an instant, asked of Intl. */
function intlOffsetMs(name: string, ms: number): number {
  if (!(Math.abs(ms) <= MAX_INSTANT_MS)) return Number.NaN;
  const whole = Math.floor(ms / 1000) * 1000;
  const p: Record<string, string> = {};
  for (const part of formatterOf(name).formatToParts(whole)) p[part.type] = part.value;
  const year = p.era === 'BC' || p.era === 'B' ? 1 - Number(p.year) : Number(p.year);
  const local =
    daysFromCivil(year, Number(p.month), Number(p.day)) * DAY_MS +
    ((Number(p.hour) * 60 + Number(p.minute)) * 60 + Number(p.second)) * 1000;
  return local - whole;
}

/** A UTC day's offsets: `before` until `change` (ms; Infinity when none that day), `after` from it. */
interface DayOffsets {
  before: number;
  change: number;
  after: number;
}

/** A zone and a day boundary: offsets, local days, hours of day and weekdays, cached (see the header). */
export class Zone {
  readonly name: string;
  readonly boundary: DayBoundary;
  readonly isUtc: boolean;
  private readonly days = new Map<number, DayOffsets>();
  private lastDay = Number.NaN;
  private last: DayOffsets = { before: 0, change: Number.POSITIVE_INFINITY, after: 0 };
  private readonly standardByYear = new Map<number, number>();
  private yearFrom = Number.NaN;
  private yearTo = Number.NaN;
  private yearStandard = 0;
  private readonly starts = new Map<number, number>();

  /** `name` must be checkTimeZone's result (use `zoneOf`). */
  constructor(name: string, boundary: DayBoundary) {
    this.name = name;
    this.boundary = boundary;
    this.isUtc = name === 'UTC';
  }

  /** The civil offset from UTC (ms) at the instant: local civil time = ms + offsetMs(ms). NaN for NaN. */
  offsetMs(ms: number): number {
    if (this.isUtc) return Number.isNaN(ms) ? Number.NaN : 0;
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.lastDay) {
      if (!Number.isFinite(day)) return Number.NaN;
      let o = this.days.get(day);
      if (!o) {
        o = this.offsetsOfDay(day);
        if (this.days.size >= 100_000) this.days.clear();
        this.days.set(day, o);
      }
      this.lastDay = day;
      this.last = o;
    }
    return ms < this.last.change ? this.last.before : this.last.after;
  }

  private offsetsOfDay(day: number): DayOffsets {
    let lo = day * DAY_MS;
    let hi = lo + DAY_MS;
    const before = intlOffsetMs(this.name, lo);
    const after = intlOffsetMs(this.name, hi);
    if (before === after) return { before, change: Number.POSITIVE_INFINITY, after };
    // The first second with the new offset, in (lo, hi].
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (intlOffsetMs(this.name, mid) === before) lo = mid;
      else hi = mid;
    }
    return { before, change: hi, after };
  }

  /** The standard offset (ms) of the year the instant is in (the smaller of its January and July offsets). */
  standardOffsetMs(ms: number): number {
    if (this.isUtc) return Number.isNaN(ms) ? Number.NaN : 0;
    if (!(ms >= this.yearFrom && ms < this.yearTo)) {
      const year = civilFromDays(Math.floor(ms / DAY_MS)).year;
      if (!Number.isFinite(year)) return Number.NaN;
      let s = this.standardByYear.get(year);
      if (s === undefined) {
        s = Math.min(
          this.offsetMs(daysFromCivil(year, 1, 1) * DAY_MS),
          this.offsetMs(daysFromCivil(year, 7, 1) * DAY_MS),
        );
        this.standardByYear.set(year, s);
      }
      this.yearFrom = daysFromCivil(year, 1, 1) * DAY_MS;
      this.yearTo = daysFromCivil(year + 1, 1, 1) * DAY_MS;
      this.yearStandard = s;
    }
    return this.yearStandard;
  }

  /** The offset days, hours of day and weekdays are placed by: civil (`clock`) or standard (`standard`). */
  dayOffsetMs(ms: number): number {
    return this.boundary === 'clock' ? this.offsetMs(ms) : this.standardOffsetMs(ms);
  }

  /** The local day (days since 1970-01-01 of the local date) an instant is in. */
  dayKey(ms: number): number {
    return Math.floor((ms + this.dayOffsetMs(ms)) / DAY_MS);
  }

  /** The local hour of day, 0-23. */
  hourOfDay(ms: number): number {
    const local = ms + this.dayOffsetMs(ms);
    return Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / HOUR_MS);
  }

  /** The local weekday, 0 = Monday … 6 = Sunday. */
  weekday(ms: number): number {
    return weekdayOfDay(this.dayKey(ms));
  }

  /** The first instant of a local day (its local midnight, or the first instant after it when midnight is skipped). */
  dayStart(key: number): number {
    const cached = this.starts.get(key);
    if (cached !== undefined) return cached;
    const midnight = key * DAY_MS;
    let t = midnight - this.dayOffsetMs(midnight);
    t = midnight - this.dayOffsetMs(t);
    if (!(this.dayKey(t) === key && this.dayKey(t - 1) < key)) {
      // Midnight falls in a gap (or the guess missed): the first instant whose day is `key` (days ascend).
      let lo = midnight - 27 * HOUR_MS;
      let hi = midnight + 27 * HOUR_MS;
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (this.dayKey(mid) >= key) hi = mid;
        else lo = mid;
      }
      t = hi;
    }
    if (this.starts.size >= 100_000) this.starts.clear();
    this.starts.set(key, t);
    return t;
  }

  /** The instant after a local day's last (the next day's start). */
  dayEnd(key: number): number {
    return this.dayStart(key + 1);
  }

  /** A local day's length in hours: 24, or 23 / 25 (Lord Howe: 23.5 / 24.5) on a clock day with a DST change. */
  dayHours(key: number): number {
    return (this.dayEnd(key) - this.dayStart(key)) / HOUR_MS;
  }
}

/** The weekday of a day index (days since 1970-01-01, a Thursday): 0 = Monday … 6 = Sunday. */
export function weekdayOfDay(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** The civil date of a day index (days since 1970-01-01; H. Hinnant's civil_from_days, every year). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const zones = new Map<string, Zone>();

/** The zone of a checked or unchecked name (a TimeZoneError when it is not one), shared per name and boundary. */
export function zoneOf(name: unknown = DEFAULT_TIME_ZONE, boundary: unknown = DEFAULT_DAY_BOUNDARY): Zone {
  const key = `${String(name)}|${String(boundary)}`;
  let z = zones.get(key);
  if (!z) {
    z = new Zone(checkTimeZone(name), checkDayBoundary(boundary));
    if (zones.size >= 64) zones.clear();
    zones.set(key, z);
  }
  return z;
}

/** UTC with clock days: what every "day" was before zones (the default). */
export const UTC: Zone = new Zone('UTC', 'clock');

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The civil date and time of an instant in the zone (its clock time, DST included, whatever the boundary). */
export function localParts(
  ms: number,
  zone: Zone,
): { year: number; month: number; day: number; hour: number; minute: number; second: number; millis: number } {
  const local = ms + zone.offsetMs(ms);
  const days = Math.floor(local / DAY_MS);
  const inDay = local - days * DAY_MS;
  const { year, month, day } = civilFromDays(days);
  const second = Math.floor(inDay / 1000);
  return {
    year,
    month,
    day,
    hour: Math.floor(second / 3600),
    minute: Math.floor(second / 60) % 60,
    second: second % 60,
    millis: Math.round(inDay - second * 1000),
  };
}

/**
 * The one time format shown to people: ISO-like, 24-hour, in the zone's clock time: `2026-11-25 14:00`,
 * `2026-11-25 14:00:05` when there are seconds, `.250` when there are milliseconds; `'date'` gives the day
 * alone (`2026-11-25`), `'time'` the time alone. The zone is not in the text: name it once beside it (a column
 * header, an axis title). '' for NaN and instants out of range.
 */
export function formatInZone(ms: number, zone: Zone, part: 'both' | 'date' | 'time' = 'both'): string {
  if (!(Math.abs(ms) <= MAX_INSTANT_MS)) return '';
  const p = localParts(ms, zone);
  if (!Number.isFinite(p.year)) return '';
  const date = `${p.year < 0 ? '-' : ''}${String(Math.abs(p.year)).padStart(4, '0')}-${pad2(p.month)}-${pad2(p.day)}`;
  if (part === 'date') return date;
  let time = `${pad2(p.hour)}:${pad2(p.minute)}`;
  if (p.second || p.millis) time += `:${pad2(p.second)}`;
  if (p.millis) time += `.${String(p.millis).padStart(3, '0')}`;
  return part === 'time' ? time : `${date} ${time}`;
}

/**
 * A time axis' title: what a time means, and its zone once: "time (UTC)" for instants (minutes), "hour
 * starting (America/Denver)" / "day starting (…)" for hour and day periods (stamped at their start).
 */
export function timeAxisTitle(frequency: 'minute' | 'hour' | 'day', zone: Zone): string {
  const what = frequency === 'hour' ? 'hour starting' : frequency === 'day' ? 'day starting' : 'time';
  return `${what} (${zone.name})`;
}

/**
 * The zone named by hostile input (a saved notebook's metadata, an output's ResultInfo): `zoneOf` when the name
 * and boundary are good, else UTC with clock days (never the machine's zone).
 */
export function zoneOrUtc(name: unknown, boundary: unknown = DEFAULT_DAY_BOUNDARY): Zone {
  try {
    return zoneOf(name ?? DEFAULT_TIME_ZONE, boundary ?? DEFAULT_DAY_BOUNDARY);
  } catch {
    return UTC;
  }
}
