// HTTP dates (RFC 9110 §5.6.7), as in a Retry-After header: the one reader of them. Pure arithmetic, as
// iso.ts: HTTP dates are always GMT, and the result never depends on the machine's time zone.
//
//   IMF-fixdate  Sun, 06 Nov 1994 08:49:37 GMT     (what servers send)
//   rfc850-date  Sunday, 06-Nov-94 08:49:37 GMT    (obsolete; recipients must still accept it)
//   asctime      Sun Nov  6 08:49:37 1994          (obsolete; likewise)
import { DAY_MS } from './duration';
import { daysFromCivil, isCalendarDate } from './iso';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** Epoch ms of an HTTP date in any of its three forms, or undefined when the text is not one. */
export function parseHttpDate(text: string, nowMs?: number): number | undefined {
  const s = text.trim();
  let m = IMF_FIXDATE.exec(s);
  if (m) return utcMs(Number(m[3]), m[2], Number(m[1]), m[4], m[5], m[6]);
  m = RFC850_DATE.exec(s);
  if (m) return utcMs(rfc850Year(Number(m[3]), nowMs), m[2], Number(m[1]), m[4], m[5], m[6]);
  m = ASCTIME_DATE.exec(s);
  if (m) return utcMs(Number(m[6]), m[1], Number(m[2].trim()), m[3], m[4], m[5]);
  return undefined;
}

/**
 * The century of a two-digit year: RFC 9110 reads one that appears to be more than 50 years in the
 * future as the most recent past year with those digits. Without `nowMs`, 1970-2069.
 */
function rfc850Year(yy: number, nowMs: number | undefined): number {
  if (nowMs === undefined) return yy < 70 ? 2000 + yy : 1900 + yy;
  const thisYear = new Date(nowMs).getUTCFullYear();
  let year = thisYear - (thisYear % 100) + yy;
  if (year > thisYear + 50) year -= 100;
  return year;
}

function utcMs(year: number, monthName: string, day: number, hh: string, mm: string, ss: string): number | undefined {
  const month = MONTHS.indexOf(monthName) + 1;
  const [hour, minute, second] = [Number(hh), Number(mm), Number(ss)];
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  // A leap second (:60) is read as the next second, as Date.parse does.
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
}
