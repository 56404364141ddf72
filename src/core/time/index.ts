// Time: the injectable clock, ISO 8601 dates and timestamps, durations. Platform-neutral.

export {
  type Backoff,
  backoffDelayMs,
  DEFAULT_ERROR_BACKOFF,
  DEFAULT_RETRY_POLICY,
  errorDelayMs,
  parseRetryAfter,
  type RetryDecision,
  type RetryPolicy,
  retryAfterMs,
  retryPolicy,
  withRetries,
} from './backoff';
export {
  type Clock,
  clockFromEnv,
  NOW_ENV,
  nowDate,
  offsetClock,
  SettableClock,
  sleep,
  systemClock,
  type WaitClock,
} from './clock';
export {
  DAY_MS,
  DURATION_HELP,
  formatDuration,
  HOUR_MS,
  MAX_DURATION_MS,
  MINUTE_MS,
  parseDuration,
  SECOND_MS,
  WEEK_MS,
} from './duration';
export { parseHttpDate } from './http-date';
export {
  daysFromCivil,
  daysInMonth,
  type IsoInstant,
  isCalendarDate,
  isLeapYear,
  isoToMs,
  parseIso,
  parseIsoMs,
  zonelessWarning,
} from './iso';
export {
  type RepeatEnd,
  type RepeatOptions,
  type Repetition,
  repeat,
} from './repeat';
export {
  checkDayBoundary,
  checkTimeZone,
  civilFromDays,
  DAY_BOUNDARIES,
  type DayBoundary,
  DEFAULT_DAY_BOUNDARY,
  DEFAULT_TIME_ZONE,
  TimeZoneError,
  timeZoneNames,
  UTC,
  weekdayOfDay,
  Zone,
  zoneOf,
} from './zone';
