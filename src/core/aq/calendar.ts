// The Calendar view's numbers: each local day's mean of hourly means (valid with EPA's 18 of 24 hours), its AQI
// category when the metric has 24-hour breakpoints, and the month grids a year is drawn in (weeks from Monday).
// Days are local days: `dayOf(ms)` gives the day count since 1970-01-01 of the local date (UTC by default).

import { HOUR_MS } from '../time/duration';
import { daysFromCivil, daysInMonth } from '../time/iso';
import { civilFromDays, UTC, weekdayOfDay } from '../time/zone';
import { type AqiCategory, type AqiPollutant, concentrationCategory } from './aqi';
import { MIN_HOURS_PER_DAY, meanByPeriod, withoutNoise } from './stats';

/** The local day (days since 1970-01-01 of the local date) an instant falls in. */
export type DayOf = (ms: number) => number;

/** UTC days (core/time/zone's UTC). */
export const utcDayOf: DayOf = (ms) => UTC.dayKey(ms);

export interface DayMean {
  /** Days since 1970-01-01 of the local date. */
  day: number;
  /** Mean of the day's hourly means (NaN when the day has no value). */
  mean: number;
  /** Hours with a value. */
  hours: number;
  /** At least `minHours` hours (EPA: 18 of 24). */
  valid: boolean;
}

/**
 * Each local day's mean of its hourly means (finer values are first averaged into their hour), with its count
 * of hours and whether it is valid (≥ `minHours`). Days ascending; only days with a value.
 */
export function localDailyMeans(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  dayOf: DayOf = utcDayOf,
  minHours = MIN_HOURS_PER_DAY,
): DayMean[] {
  // Hourly means first (an hour of a zone with a whole-hour offset is a UTC hour; a half-hour zone's day
  // takes the UTC hours that start in it).
  const hours = meanByPeriod(times, values, 'hour');
  const days = new Map<number, [number, number]>();
  for (const [hour, [sum, n]] of hours) {
    const day = dayOf(hour * HOUR_MS);
    const d = days.get(day);
    if (d) {
      d[0] += sum / n;
      d[1]++;
    } else days.set(day, [sum / n, 1]);
  }
  return [...days]
    .sort((a, b) => a[0] - b[0])
    .map(([day, [sum, n]]) => ({ day, mean: withoutNoise(sum / n), hours: n, valid: n >= minHours }));
}

export interface CalendarCell extends DayMean {
  /** The valid mean's AQI category (EPA 24-hour breakpoints), when the metric has them. */
  category?: AqiCategory;
}

export interface CalendarMonth {
  year: number;
  /** 1-12. */
  month: number;
  /** Weekday of the 1st, 0 = Monday … 6 = Sunday (the blank cells before it in the first week). */
  lead: number;
  /** One entry per day of the month: its mean, or undefined when the day has no value at all. */
  days: Array<CalendarCell | undefined>;
}

/** The years the days fall in, ascending. */
export function calendarYears(days: readonly DayMean[]): number[] {
  return [...new Set(days.map((d) => civilFromDays(d.day).year))].sort((a, b) => a - b);
}

/** A year's twelve month grids, each day with its mean and (valid days, when `pollutant` is given) category. */
export function calendarYear(days: readonly DayMean[], year: number, pollutant?: AqiPollutant): CalendarMonth[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  return Array.from({ length: 12 }, (_, m): CalendarMonth => {
    const first = daysFromCivil(year, m + 1, 1);
    const cells = Array.from({ length: daysInMonth(year, m + 1) }, (_, i): CalendarCell | undefined => {
      const d = byDay.get(first + i);
      if (!d) return undefined;
      const category = d.valid && pollutant ? concentrationCategory(pollutant, d.mean) : undefined;
      return category ? { ...d, category } : { ...d };
    });
    return { year, month: m + 1, lead: weekdayOfDay(first), days: cells };
  });
}
