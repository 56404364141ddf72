// Regulatory-style statistics of one datasource's metric over a year or a quarter, as EPA computes them for
// monitors (indicative only: sensor data, not a regulatory determination). Days are local standard time days
// (a fixed offset from UTC, EPA's convention); a day is valid with at least 18 hours that have a value. The
// daily values come from the SQL engine over the full data (`dailyValuesSql`); the rest is plain numbers here.

import { commentText, quoteIdent, quoteString } from '../text/sql-text';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/duration';
import { daysFromCivil } from '../time/iso';
import { civilFromDays, zoneOf } from '../time/zone';
import { MIN_HOURS_PER_DAY } from './stats';

/** What every statistics output says of itself. */
export const INDICATIVE_LABEL = 'indicative: sensor data, not a regulatory determination';

/**
 * The rank of the 98th percentile among a year's valid daily values, by their number, from 40 CFR 50
 * Appendix N, Table 1 (PM2.5, section 4.5(a)(1)) and Appendix S, Table 1 (NO2, section 5.2(a)): the two tables
 * are the same: 1–50 values → the highest, 51–100 → the 2nd highest, … 351–366 → the 8th highest.
 */
const P98_RANK_TABLE: ReadonlyArray<{ upTo: number; rank: number }> = [
  { upTo: 50, rank: 1 },
  { upTo: 100, rank: 2 },
  { upTo: 150, rank: 3 },
  { upTo: 200, rank: 4 },
  { upTo: 250, rank: 5 },
  { upTo: 300, rank: 6 },
  { upTo: 350, rank: 7 },
  { upTo: 366, rank: 8 },
];

/** The Appendix N / S rank of the 98th percentile for n valid days (0 for none). */
export function p98Rank(n: number): number {
  if (!(n >= 1)) return 0;
  return P98_RANK_TABLE.find((r) => n <= r.upTo)?.rank ?? 8;
}

/** The 98th percentile by the rank rule: the `p98Rank(n)`-th highest value (NaN left out; NaN when none). */
export function p98ByRank(values: ArrayLike<number>): { value: number; rank: number; n: number } {
  const v = Array.from(values).filter((x) => !Number.isNaN(x));
  v.sort((a, b) => b - a);
  const rank = p98Rank(v.length);
  return { value: rank ? v[rank - 1] : Number.NaN, rank, n: v.length };
}

export type StatisticsPollutant = 'pm2_5' | 'pm10' | 'no2' | 'other';

/**
 * The level a day is counted above: PM2.5's 24-hour standard (35 µg/m³, 40 CFR 50.18), PM10's (150 µg/m³,
 * 50.6) on daily means; NO2's 1-hour standard (100 ppb, 50.11) on the daily maximum 1-hour value.
 */
const DAILY_LEVEL: Record<Exclude<StatisticsPollutant, 'other'>, number> = { pm2_5: 35, pm10: 150, no2: 100 };

export interface StatisticsPeriod {
  year: number;
  /** 1–4, or undefined for the whole year. */
  quarter?: number;
  /** Minutes east of UTC of local standard time (EPA: days are local standard time, no daylight saving). */
  offsetMinutes: number;
}

/** First and last day (days since 1970-01-01, local) of a year or quarter, and its length in days. */
export function periodDays(p: StatisticsPeriod): { first: number; end: number; days: number } {
  const q = p.quarter;
  const first = daysFromCivil(p.year, q ? 3 * (q - 1) + 1 : 1, 1);
  const end = q && q < 4 ? daysFromCivil(p.year, 3 * q + 1, 1) : daysFromCivil(p.year + 1, 1, 1);
  return { first, end, days: end - first };
}

interface DailyQuery {
  /** A SQL table expression: a quoted result name or a reader call (built by the caller). */
  from: string;
  timeColumn: string;
  /** The time column holds ISO 8601 text (a Parquet report's startOfPeriod): cast to instants. */
  timeIsText?: boolean;
  valueColumn: string;
  datasourceColumn?: string;
  datasource?: string;
  period: StatisticsPeriod;
  /** The metric's `.qcAssessment` column: values assessed `invalid` are left out (as the Exceedances view does). */
  qcColumn?: string;
}

/**
 * SQL of the daily values over the whole input: each hour's mean (minutes averaged into their hour), then per
 * local standard day the hours with a value, the mean of the hourly means and their maximum. Days are counted
 * on epoch milliseconds shifted by the fixed offset (no session time zone involved); times are bounded by
 * the period's instants so a Parquet reader skips what lies outside.
 */
export function dailyValuesSql(q: DailyQuery): string {
  const { first, end } = periodDays(q.period);
  const shift = q.period.offsetMinutes * MINUTE_MS;
  const from = instantLiteral(first * DAY_MS - shift);
  const to = instantLiteral(end * DAY_MS - shift);
  const t = q.timeIsText ? `CAST(${quoteIdent(q.timeColumn)} AS TIMESTAMPTZ)` : quoteIdent(q.timeColumn);
  const v = quoteIdent(q.valueColumn);
  const where = [`${t} >= ${from}`, `${t} < ${to}`, `${v} IS NOT NULL`, `NOT isnan(${v})`];
  if (q.qcColumn) where.push(`${quoteIdent(q.qcColumn)} IS DISTINCT FROM 'invalid'`);
  if (q.datasource !== undefined)
    where.push(`${quoteIdent(q.datasourceColumn ?? 'datasourceId')} = ${quoteString(q.datasource)}`);
  return [
    `-- Daily values (${commentText(INDICATIVE_LABEL)}): local standard time, UTC${offsetText(q.period.offsetMinutes)}`,
    'WITH hourly AS (',
    `  SELECT floor((epoch_ms(${t}) + ${shift}) / ${HOUR_MS})::BIGINT AS hour, avg(${v}::DOUBLE) AS v`,
    `  FROM ${q.from}`,
    `  WHERE ${where.join(' AND ')}`,
    '  GROUP BY hour',
    ')',
    'SELECT hour // 24 AS day, count(*) AS hours, avg(v) AS mean, max(v) AS "max"',
    'FROM hourly GROUP BY day ORDER BY day',
  ].join('\n');
}

/** `TIMESTAMPTZ '…'` of epoch milliseconds (UTC). */
function instantLiteral(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const { year: y, month: m, day: d } = civilFromDays(day);
  const rest = ms - day * DAY_MS;
  const hh = Math.floor(rest / HOUR_MS);
  const mm = Math.floor((rest - hh * HOUR_MS) / MINUTE_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return `TIMESTAMPTZ '${String(y).padStart(4, '0')}-${p(m)}-${p(d)} ${p(hh)}:${p(mm)}:00+00'`;
}

/**
 * The standard offset (minutes east of UTC) of an IANA zone in a year: EPA's days are local standard time all
 * year (`America/Denver` → −420 in winter and summer). A name that is no zone is a TimeZoneError.
 */
export function standardOffsetMinutes(zone: string, year: number): number {
  return zoneOf(zone, 'standard').standardOffsetMs(daysFromCivil(year, 1, 1) * DAY_MS) / MINUTE_MS;
}

/** `+HH:MM` / `-HH:MM` of an offset in minutes. */
export function offsetText(minutes: number): string {
  const a = Math.abs(minutes);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${p(Math.floor(a / 60))}:${p(a % 60)}`;
}

/** One local day as the SQL gives it. */
export interface DailyValue {
  day: number;
  hours: number;
  mean: number;
  max: number;
}

/**
 * Data with at most one hour a day that has a value (24-hour means, `outputFrequency: day` or coarser): no day can
 * be valid (≥ 18 hours), so the statistics would say capture 0 on every row. Days without data are not asked.
 */
export function atMostOneHourADay(values: readonly DailyValue[]): boolean {
  return values.length > 0 && values.every((d) => d.hours <= 1);
}

/** Why statistics are refused on such data: the one text of the CLI and the extension. */
export function hourlyDataNeededText(valueColumn: string): string {
  return (
    `Regulatory statistics need hourly or finer data: a day is valid with ≥ ${MIN_HOURS_PER_DAY} hours that have a value ` +
    `(40 CFR 50 Appendix N). ${valueColumn} has at most one value a day here (24-hour means, outputFrequency: day ` +
    'or coarser), so no day could be valid and capture would be 0: use hourly data (outputFrequency: hour).'
  );
}

/**
 * Why statistics ask for a datasource: the data holds several (the first 5 named, `more` when it holds over 5).
 * Each surface adds how to give one: the CLI its `--datasource <id>`, the extension its pick.
 */
export function oneDatasourceText(ids: readonly string[], more: boolean): string {
  return `Statistics are of one datasource: this data has ${more ? 'more than 5' : ids.length} (${ids.slice(0, 5).join(', ')}${more ? ', …' : ''}).`;
}

/** One row of the statistics: a quarter or the whole year. */
export interface PeriodStatistics {
  period: string;
  days: number;
  validDays: number;
  /** Valid days / days × 100. */
  capturePercent: number;
  /** Mean of the valid days' daily means. */
  meanOfDailyMeans: number;
  /** The 98th percentile by the Appendix N / S rank (of daily means; NO2: of daily maximum 1-hour values). */
  p98: number;
  p98Rank: number;
  /** Valid days above the pollutant's level (daily mean; NO2: daily maximum 1-hour value); NaN without a level. */
  daysAbove: number;
}

const QUARTER_NAMES = ['Q1', 'Q2', 'Q3', 'Q4'];

/** Statistics of one set of days (a quarter or the year) from the daily values inside it. */
function statisticsOf(
  label: string,
  days: number,
  values: readonly DailyValue[],
  pollutant: StatisticsPollutant,
): PeriodStatistics {
  const valid = values.filter((d) => d.hours >= MIN_HOURS_PER_DAY);
  const daily = valid.map((d) => (pollutant === 'no2' ? d.max : d.mean));
  const p98 = p98ByRank(daily);
  const level = pollutant === 'other' ? undefined : DAILY_LEVEL[pollutant];
  let sum = 0;
  for (const d of valid) sum += d.mean;
  return {
    period: label,
    days,
    validDays: valid.length,
    capturePercent: days ? (100 * valid.length) / days : 0,
    meanOfDailyMeans: valid.length ? sum / valid.length : Number.NaN,
    p98: p98.value,
    p98Rank: p98.rank,
    daysAbove: level === undefined ? Number.NaN : daily.filter((x) => x > level).length,
  };
}

/**
 * The statistics of a year (each quarter, then the year) or of one quarter, from the daily values the SQL gave
 * (days outside the period are left out). Capture: valid days / days of the period.
 */
export function regulatoryStatistics(
  values: readonly DailyValue[],
  period: StatisticsPeriod,
  pollutant: StatisticsPollutant,
): PeriodStatistics[] {
  const quarters = period.quarter ? [period.quarter] : [1, 2, 3, 4];
  const out = quarters.map((q) => {
    const { first, end, days } = periodDays({ ...period, quarter: q });
    const inside = values.filter((d) => d.day >= first && d.day < end);
    return statisticsOf(`${period.year} ${QUARTER_NAMES[q - 1]}`, days, inside, pollutant);
  });
  if (!period.quarter) {
    const { first, end, days } = periodDays(period);
    out.push(
      statisticsOf(
        String(period.year),
        days,
        values.filter((d) => d.day >= first && d.day < end),
        pollutant,
      ),
    );
  }
  return out;
}
