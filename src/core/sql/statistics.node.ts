// Regulatory-style statistics over ALL the rows of a result or a file (never only the rows a view holds): the
// daily values are computed by DuckDB (core/aq/regulatory.ts `dailyValuesSql`), the rank rule and capture in
// core/aq. The result is a small Table labelled as indicative.

import { resolve } from 'node:path';
import { StatisticsInputError } from '../api/errors';
import { metricUnit, pollutantOf } from '../aq/metric-info';
import {
  atMostOneHourADay,
  dailyValuesSql,
  hourlyDataNeededText,
  INDICATIVE_LABEL,
  oneDatasourceText,
  type PeriodStatistics,
  regulatoryStatistics,
  type StatisticsPeriod,
  type StatisticsPollutant,
} from '../aq/regulatory';
import { parseMetricLabel } from '../metrics/labels';
import { formatOfName } from '../table/file-format';
import type { Column, Table } from '../table/table';
import { cellText, isNumeric, numberAt } from '../table/table';
import { quoteIdent, quoteString } from '../text/sql-text';
import { SqlEngine } from './engine.node';
import { openRegularFile } from './file-read.node';

/** Runs read-only SQL over the data (an engine's or a session's `query`). */
export type RunSql = (sql: string) => Promise<Table>;

export interface StatisticsRequest {
  /** The metric: a column name, or a metric label whose `.value` column the data has. */
  metric: string;
  datasource?: string;
  period: StatisticsPeriod;
  timeColumn?: string;
  datasourceColumn?: string;
}

export interface StatisticsOutcome {
  rows: PeriodStatistics[];
  /** The rows as a Table (period, days, validDays, capture %, mean, p98, its rank, days above). */
  table: Table;
  valueColumn: string;
  datasource?: string;
  pollutant: StatisticsPollutant;
  unit?: string;
  /** What the output says of itself, and of its rules. */
  notes: string[];
}

/** The first row's text of a column, or of every row (small query results only). */
function texts(t: Table, name: string): string[] {
  const c = t.columns.find((x) => x.name === name);
  return c ? Array.from({ length: t.rowCount }, (_, i) => cellText(c, i)) : [];
}

/** The data's time column: `time` (minute data, results), else a report's `startOfPeriod`. */
export function timeColumnOf(names: readonly string[]): string {
  const found = ['time', 'startOfPeriod'].find((n) => names.includes(n));
  if (!found) throw new StatisticsInputError('This data has no time column (time or startOfPeriod).');
  return found;
}

/** The data's value column for a metric (`m`, else `m.value`), its time column and its datasource. */
async function resolveColumns(run: RunSql, from: string, req: StatisticsRequest) {
  const columns = (await run(`SELECT * FROM ${from} LIMIT 0`)).columns;
  const names = columns.map((c) => c.name);
  const valueColumn = [req.metric, `${req.metric}.value`].find((n) => names.includes(n));
  if (!valueColumn) {
    const metrics = names.filter((n) => parseMetricLabel(n) && !/\.(status|qcAssessment|qcFlags|raw)$/.test(n));
    throw new StatisticsInputError(
      `No column ${req.metric} in this data (metrics: ${metrics.slice(0, 12).join(', ') || 'none'}).`,
    );
  }
  const timeColumn = req.timeColumn ?? timeColumnOf(names);
  if (!names.includes(timeColumn)) throw new StatisticsInputError(`This data has no column ${timeColumn}.`);
  // A Parquet report holds its times as ISO text (startOfPeriod): read as instants.
  const timeIsText = columns.find((c) => c.name === timeColumn)?.kind === 'text';
  const qc = `${valueColumn.replace(/\.value$/, '')}.qcAssessment`;
  const qcColumn = names.includes(qc) ? qc : undefined;
  const dsColumn = req.datasourceColumn ?? 'datasourceId';
  if (!names.includes(dsColumn))
    return { valueColumn, timeColumn, timeIsText, datasource: undefined, dsColumn, qcColumn };
  let datasource = req.datasource;
  if (datasource === undefined) {
    const ds = texts(await run(`SELECT DISTINCT ${quoteIdent(dsColumn)} AS ds FROM ${from} ORDER BY ds LIMIT 6`), 'ds');
    if (ds.length !== 1)
      throw new StatisticsInputError(
        oneDatasourceText(ds.slice(0, 5), ds.length > 5),
        ds.length > 1 ? 'datasource' : undefined,
      );
    datasource = ds[0];
  }
  return { valueColumn, timeColumn, timeIsText, datasource, dsColumn, qcColumn };
}

/** Statistics of a metric over the whole of `from` (a quoted result name or a reader call). */
export async function statisticsOf(run: RunSql, from: string, req: StatisticsRequest): Promise<StatisticsOutcome> {
  const { valueColumn, timeColumn, timeIsText, datasource, dsColumn, qcColumn } = await resolveColumns(run, from, req);
  const sql = dailyValuesSql({
    from,
    timeColumn,
    timeIsText,
    valueColumn,
    datasourceColumn: dsColumn,
    datasource,
    period: req.period,
    qcColumn,
  });
  const daily = await run(sql);
  const col = (n: string) => daily.columns.find((c) => c.name === n);
  const [day, hours, mean, max] = ['day', 'hours', 'mean', 'max'].map(col);
  const num = (c: Column | undefined, i: number) => (c && isNumeric(c) ? numberAt(c, i) : Number.NaN);
  const values = Array.from({ length: daily.rowCount }, (_, i) => ({
    day: num(day, i),
    hours: num(hours, i),
    mean: num(mean, i),
    max: num(max, i),
  }));
  if (atMostOneHourADay(values)) throw new StatisticsInputError(hourlyDataNeededText(valueColumn));
  const parts = parseMetricLabel(valueColumn);
  const pollutant: StatisticsPollutant = pollutantOf(parts) ?? 'other';
  const rows = regulatoryStatistics(values, req.period, pollutant);
  return {
    rows,
    table: statisticsTable(rows),
    valueColumn,
    datasource,
    pollutant,
    unit: metricUnit(parts),
    notes: [...statisticsNotes(pollutant), ...(qcColumn ? [`values whose ${qcColumn} is invalid are left out`] : [])],
  };
}

/** The label and the rules, as every surface shows them. */
function statisticsNotes(pollutant: StatisticsPollutant): string[] {
  const p98 =
    pollutant === 'no2'
      ? '98th percentile of daily maximum 1-hour values by the rank of 40 CFR 50 Appendix S, Table 1'
      : '98th percentile of daily means by the rank of 40 CFR 50 Appendix N, Table 1 (not interpolated)';
  const above =
    pollutant === 'no2'
      ? 'days above: daily maximum 1-hour value > 100 ppb'
      : pollutant === 'other'
        ? 'days above: no standard for this metric'
        : `days above: daily mean > ${pollutant === 'pm10' ? 150 : 35} µg/m³`;
  return [
    INDICATIVE_LABEL,
    'days in local standard time; a day is valid with ≥ 18 hours that have a value; capture = valid days / days',
    `${p98}; ${above}`,
  ];
}

function numberColumn(name: string, values: number[]): Column {
  return { kind: 'number', name, values: Float64Array.from(values) };
}

/** Rounded for the table shown (the rows keep every digit). */
function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The statistics rows as a Table (capture to 0.1 %, the mean to 0.01; the rows keep every digit). */
function statisticsTable(rows: readonly PeriodStatistics[]): Table {
  const periods = rows.map((r) => r.period);
  const col = (name: string, f: (r: PeriodStatistics) => number) => numberColumn(name, rows.map(f));
  return {
    rowCount: rows.length,
    columns: [
      { kind: 'text', name: 'period', dict: periods, codes: Int32Array.from(periods, (_, i) => i) },
      col('days', (r) => r.days),
      col('validDays', (r) => r.validDays),
      col('capturePercent', (r) => round(r.capturePercent, 1)),
      col('meanOfDailyMeans', (r) => round(r.meanOfDailyMeans, 2)),
      col('p98', (r) => r.p98),
      col('p98Rank', (r) => r.p98Rank),
      col('daysAbove', (r) => r.daysAbove),
    ],
  };
}

/** The SQL reader of a local table file (absolute path), or a refusal when it is no table file. */
export function fileReaderSql(file: string): string {
  const format = formatOfName(file);
  if (!format) throw new StatisticsInputError(`${file} is not a .csv, .csv.gz or .parquet file.`);
  return `${format === 'parquet' ? 'read_parquet' : 'read_csv'}(${quoteString(resolve(file))})`;
}

/**
 * Runs `fn` with read-only SQL over a whole local file (`from`: its reader call), by an engine that reads only
 * the file's folder; a device, FIFO or folder is refused before DuckDB opens it.
 */
export async function withFileEngine<T>(
  file: string,
  fn: (run: RunSql, from: string) => Promise<T>,
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  const from = fileReaderSql(file);
  await (await openRegularFile(file)).close();
  const engine = await SqlEngine.openBeside(file);
  try {
    return await fn((sql) => engine.query(sql, { signal: options.signal }), from);
  } finally {
    engine.close();
  }
}

/** Statistics over a whole local file. */
export function fileStatistics(
  file: string,
  req: StatisticsRequest,
  options: { signal?: AbortSignal } = {},
): Promise<StatisticsOutcome> {
  return withFileEngine(file, (run, from) => statisticsOf(run, from, req), options);
}
