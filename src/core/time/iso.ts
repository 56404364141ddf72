// ISO 8601 dates and timestamps: the one parser of the project (cells, request checks, the emulator,
// table cells, the renderer's filters). Pure arithmetic: no Date parsing, so the result never depends
// on the machine's time zone.
//
// Grammar (ISO 8601 extended form, as RFC 3339 profiles it):
//   date       YYYY-MM-DD                                   -> 00:00 UTC of that day
//   timestamp  YYYY-MM-DDTHH:MM[:SS[.fraction]][zone]       fraction: 1-9 digits (kept to the ms, truncated)
//   zone       Z | +HH:MM | -HH:MM | +HHMM | -HHMM | +HH | -HH
// RFC 3339 also allows a space or a lower-case t for the T and a lower-case z (`2026-11-25 10:00:00Z`), and
// ISO 8601 a comma for the decimal point. The basic format (no separators) is read too, all of a piece:
//   YYYYMMDD, YYYYMMDDTHHMM[SS[.fraction]][Z | +HHMM | -HHMM | +HH | -HH]   (`20261125T100000Z`)
// Refused: week dates (2026-W48-3) and ordinal dates (2026-329), which no client of the service sends and
// which read as ids or numbers elsewhere; a basic date with an extended time (ISO 8601 forbids the mix).
// The zone-less rule: a timestamp without a zone is read as UTC (never as local time); `zoned: false`
// lets callers warn about it (ZONELESS_WARNING). The calendar is checked: 2026-02-30 and 2026-13-01
// are not dates, and 24:00 / :60 are not times.
import { DAY_MS } from './duration';

export interface IsoInstant {
  /** Epoch milliseconds. */
  ms: number;
  /** The text was a date without a time (its instant is 00:00 UTC). */
  dateOnly: boolean;
  /** The text named its zone (Z or an offset); false for dates and zone-less timestamps. */
  zoned: boolean;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(y: number, month: number): number {
  return month === 2 && isLeapYear(y) ? 29 : MONTH_DAYS[month - 1];
}

/** The proleptic Gregorian date exists (month 1-12, day within the month). */
export function isCalendarDate(y: number, month: number, day: number): boolean {
  return (
    Number.isInteger(y) &&
    month >= 1 &&
    month <= 12 &&
    Number.isInteger(day) &&
    day >= 1 &&
    day <= daysInMonth(y, month)
  );
}

/** Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil; valid for every year). */
export function daysFromCivil(y: number, month: number, day: number): number {
  const yy = month <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The digit at i, or -1 for any other character. */
function digitAt(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** Two digits at i as a number, or -1. */
function twoDigits(s: string, i: number): number {
  const a = digitAt(s, i);
  const b = digitAt(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/** The instant an ISO 8601 date or timestamp names, or undefined when the text is not one (see the grammar above). */
export function parseIso(text: string): IsoInstant | undefined {
  if (text.length < 8 || text.charCodeAt(4) === 45 /* - */) return parseExtended(text);
  const extended = basicToExtended(text);
  return extended === undefined ? undefined : parseExtended(extended);
}

/** parseIso of the extended form. */
function parseExtended(text: string): IsoInstant | undefined {
  const s = text;
  const n = s.length;
  if (n < 10 || s.charCodeAt(4) !== 45 /* - */ || s.charCodeAt(7) !== 45) return undefined;
  const y1 = twoDigits(s, 0);
  const y2 = twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (y1 < 0 || y2 < 0 || month < 0 || day < 0) return undefined;
  const year = y1 * 100 + y2;
  if (!isCalendarDate(year, month, day)) return undefined;
  const dayMs = daysFromCivil(year, month, day) * DAY_MS;
  if (n === 10) return { ms: dayMs, dateOnly: true, zoned: false };
  const sep = s.charCodeAt(10);
  if ((sep !== 84 /* T */ && sep !== 116 /* t */ && sep !== 32) /* space */ || n < 16 || s.charCodeAt(13) !== 58)
    return undefined;
  const hour = twoDigits(s, 11);
  const minute = twoDigits(s, 14);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  let i = 16;
  let second = 0;
  let millis = 0;
  if (s.charCodeAt(i) === 58 /* : */) {
    second = twoDigits(s, i + 1);
    if (second < 0 || second > 59) return undefined;
    i += 3;
    if (s.charCodeAt(i) === 46 /* . */ || s.charCodeAt(i) === 44 /* , */) {
      i++;
      const start = i;
      for (let d = digitAt(s, i); d >= 0; d = digitAt(s, ++i)) {
        const k = i - start;
        if (k < 3) millis += k === 0 ? d * 100 : k === 1 ? d * 10 : d;
      }
      if (i === start || i - start > 9) return undefined;
    }
  }
  let offsetMinutes = 0;
  let zoned = false;
  if (i < n) {
    const c = s.charCodeAt(i);
    if ((c === 90 /* Z */ || c === 122) /* z */ && i + 1 === n) {
      zoned = true;
    } else if (c === 43 /* + */ || c === 45 /* - */) {
      const oh = twoDigits(s, i + 1);
      const colon = s.charCodeAt(i + 3) === 58 ? 1 : 0;
      const hoursOnly = i + 3 === n;
      const om = hoursOnly ? 0 : twoDigits(s, i + 3 + colon);
      if (oh < 0 || oh > 23 || om < 0 || om > 59 || (!hoursOnly && i + 5 + colon !== n)) return undefined;
      offsetMinutes = (c === 45 ? -1 : 1) * (oh * 60 + om);
      zoned = true;
    } else {
      return undefined;
    }
  }
  const ms = dayMs + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + millis;
  return { ms, dateOnly: false, zoned };
}

const BASIC = /^(\d{4})(\d{2})(\d{2})(?:[Tt ](\d{2})(\d{2})(?:(\d{2})([.,]\d{1,9})?)?([Zz]|[+-]\d{2}(?:\d{2})?)?)?$/;

/** A basic-format date or timestamp rewritten in the extended form (undefined when it is not one). */
function basicToExtended(text: string): string | undefined {
  const m = BASIC.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, fraction, zone] = m;
  if (h === undefined) return `${y}-${mo}-${d}`;
  const seconds = sec === undefined ? '' : `:${sec}${fraction ?? ''}`;
  return `${y}-${mo}-${d}T${h}:${mi}${seconds}${zone ?? ''}`;
}

/** Epoch ms of an ISO 8601 date or timestamp, or NaN (for hot loops such as table columns). */
export function isoToMs(text: string): number {
  return parseIso(text)?.ms ?? Number.NaN;
}

/** Epoch ms of an ISO 8601 date or timestamp, or undefined. */
export function parseIsoMs(text: string): number | undefined {
  return parseIso(text)?.ms;
}

/** What a zone-less timestamp gets told. */
export function zonelessWarning(text: string): string {
  return `${text} has no UTC offset; it is read as UTC (add Z to be explicit)`;
}

/** Two ASCII digits at i of bytes as a number, or -1. */
function twoDigitBytes(b: Uint8Array, i: number): number {
  const x = b[i] - 48;
  const y = b[i + 1] - 48;
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : -1;
}

/**
 * The last valid date isoBytesToMs read (YYYYMMDD) and its midnight in epoch ms: a column's times are
 * mostly of a few days, so the calendar check and the day count are done once per date, not per cell.
 */
let lastDate = -1;
let lastDateMs = 0;

/**
 * The fast path of isoToMs for bytes (a CSV reader's cells): exactly `YYYY-MM-DDTHH:MM:SSZ` or
 * `YYYY-MM-DDTHH:MM:SS.sssZ` in [start, end), with the calendar and clock checked as parseIso does.
 * NaN for any other text, valid or not: callers then decode the cell and use isoToMs, so the result is
 * always parseIso's.
 */
export function isoBytesToMs(b: Uint8Array, start: number, end: number): number {
  const n = end - start;
  if ((n !== 24 && n !== 20) || b[end - 1] !== 90 /* Z */) return Number.NaN;
  const s = start;
  if (b[s + 4] !== 45 || b[s + 7] !== 45 || b[s + 10] !== 84 || b[s + 13] !== 58 || b[s + 16] !== 58) {
    return Number.NaN;
  }
  const y1 = twoDigitBytes(b, s);
  const y2 = twoDigitBytes(b, s + 2);
  const month = twoDigitBytes(b, s + 5);
  const day = twoDigitBytes(b, s + 8);
  const hour = twoDigitBytes(b, s + 11);
  const minute = twoDigitBytes(b, s + 14);
  const second = twoDigitBytes(b, s + 17);
  if (y1 < 0 || y2 < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return Number.NaN;
  }
  let millis = 0;
  if (n === 24) {
    const m1 = twoDigitBytes(b, s + 20);
    const m3 = b[s + 22] - 48;
    if (b[s + 19] !== 46 || m1 < 0 || m3 < 0 || m3 > 9) return Number.NaN;
    millis = m1 * 10 + m3;
  }
  const year = y1 * 100 + y2;
  const date = (year * 100 + month) * 100 + day;
  if (date !== lastDate) {
    if (month < 1 || !isCalendarDate(year, month, day)) return Number.NaN;
    lastDate = date;
    lastDateMs = daysFromCivil(year, month, day) * DAY_MS;
  }
  return lastDateMs + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}
