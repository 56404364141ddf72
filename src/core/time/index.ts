// Time: the injectable clock, ISO 8601 dates and timestamps, durations. Platform-neutral.
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
  DEFAULT_ERROR_BACKOFF,
  type ErrorBackoff,
  errorDelayMs,
  type RepeatEnd,
  type RepeatOptions,
  type Repetition,
  repeat,
} from './repeat';
