// The air-quality views' data, computed from a result's columns (no request): per-datasource series of a
// metric, the Summary as a derived Table (shown by the same table widget), exceedances, profiles,
// collocation and map points. Numbers come from core/aq; this module only walks the columnar Table.
import type { OutputFrequency } from '../../core/api/types';
import { type AqiCategory, aqiCategory, concentrationCategory } from '../../core/aq/aqi';
import { metricScale } from '../../core/aq/metric-info';
import {
  completenessPercent,
  distribution,
  type Exceedances,
  exceedances,
  expectedPeriods,
  type ProfileBy,
  type ProfileCi,
  type ProfilePoint,
  pairByPeriod,
  periodsWithValue,
  profile,
} from '../../core/aq/stats';
import type { FullSummary, SummaryPlan } from '../../core/notebook/renderer-protocol';
import { DictBuilder } from '../../core/table/builders';
import { groupRows, locationColumns, resultFrequency, seriesByGroup, seriesOf } from '../../core/table/collocation';
import {
  type Column,
  type DictColumn,
  floatValues,
  isNumeric,
  type NumericColumn,
  numberAt,
  type Table,
} from '../../core/table/table';
import { UTC, type Zone } from '../../core/time/zone';
import { chartGroupColumn, chartMetricColumns, chartTimeColumn } from './chart-series';

export {
  type Collocation,
  collocatedSensors,
  collocation,
  collocationMetric,
  datasourceLocations,
  datasourceNameMap,
  groupRows,
  locationColumns,
  nearestReference,
  referenceDatasources,
  resultFrequency,
  type Series,
  seriesByGroup,
} from '../../core/table/collocation';

import { qcInvalidTest, qcSiblings } from './qc';

function timeRange(table: Table, rows: ArrayLike<number>): [number, number] {
  const ti = chartTimeColumn(table);
  if (ti < 0) return [Number.NaN, Number.NaN];
  const t = floatValues(table.columns[ti] as NumericColumn);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < rows.length; i++) {
    const v = t[rows[i]];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [Number.NaN, Number.NaN];
}

/** A column's unit from the metric catalogue (µg/m³, AQI, …), or ''. */
export function unitOf(column: Column): string {
  return metricScale(column.metric)?.unit ?? '';
}

/** A text column of the values (the core's dictionary builder; '' is an empty cell). */
function textColumn(name: string, values: string[], kind: DictColumn['kind'] = 'text'): DictColumn {
  const builder = new DictBuilder(kind);
  for (const v of values) builder.push(v);
  return builder.finish({ name }) as DictColumn;
}

function numberColumn(name: string, values: number[]): NumericColumn {
  return { name, kind: 'number', values: Float64Array.from(values) };
}

function round(v: number, digits: number): number {
  if (Number.isNaN(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** The Summary's columns as plain arrays, filled row by row. */
interface SummaryCols {
  datasource: string[];
  metric: string[];
  unit: string[];
  count: number[];
  expected: number[];
  completeness: number[];
  min: number[];
  mean: number[];
  median: number[];
  p98: number[];
  max: number[];
  invalid: number[];
  note: string[];
}

function emptySummaryCols(): SummaryCols {
  return {
    datasource: [],
    metric: [],
    unit: [],
    count: [],
    expected: [],
    completeness: [],
    min: [],
    mean: [],
    median: [],
    p98: [],
    max: [],
    invalid: [],
    note: [],
  };
}

/** The Summary's header names, in order (the frequency of "expected" is in the view's note). */
const SUMMARY_COLUMNS = [
  'datasourceId',
  'metric',
  'unit',
  'count',
  'expected',
  'complete %',
  'min',
  'mean',
  'median',
  'p98',
  'max',
  'QC-invalid',
  'note',
] as const;

function summaryColumns(c: SummaryCols): Column[] {
  const [ds, metric, unit, count, expected, complete, min, mean, median, p98, max, invalid, note] = SUMMARY_COLUMNS;
  return [
    textColumn(ds, c.datasource, 'identifier'),
    textColumn(metric, c.metric),
    textColumn(unit, c.unit),
    numberColumn(count, c.count),
    numberColumn(expected, c.expected),
    numberColumn(complete, c.completeness),
    numberColumn(min, c.min),
    numberColumn(mean, c.mean),
    numberColumn(median, c.median),
    numberColumn(p98, c.p98),
    numberColumn(max, c.max),
    numberColumn(invalid, c.invalid),
    textColumn(note, c.note),
  ];
}

/** Reused buffers of one Summary pass (as long as the largest group). */
interface SummaryScratch {
  times: Float64Array;
  values: Float64Array;
  scratch: Float64Array;
}

/** One Summary row: a datasource's values of one metric column. */
function summariseMetric(
  out: SummaryCols,
  group: string,
  r: Uint32Array,
  column: NumericColumn,
  buffers: SummaryScratch,
  context: { frequency: OutputFrequency; expected: number; hasTime: boolean; invalid?: (row: number) => boolean },
): void {
  const t = buffers.times.subarray(0, r.length);
  const v = buffers.values.subarray(0, r.length);
  const cv = floatValues(column);
  for (let k = 0; k < r.length; k++) v[k] = cv[r[k]];
  const d = distribution(v, undefined, buffers.scratch);
  let invalid = 0;
  if (context.invalid) for (let i = 0; i < r.length; i++) if (context.invalid(r[i])) invalid++;
  const withValue = context.hasTime ? periodsWithValue(t, v, context.frequency) : d.count;
  pushSummaryRow(out, group, column, { ...d, withValue, invalid }, context.expected);
}

/** A datasource × metric's numbers, as the Summary shows them (rounded: completeness 0.1 %, the rest 0.001). */
function pushSummaryRow(
  out: SummaryCols,
  group: string,
  column: Column,
  d: ReturnType<typeof distribution> & { withValue: number; invalid: number },
  expected: number,
): void {
  out.datasource.push(group);
  out.metric.push(column.name);
  out.unit.push(unitOf(column));
  out.count.push(d.count);
  out.expected.push(expected);
  out.completeness.push(round(completenessPercent(d.withValue, expected), 1));
  out.min.push(d.min);
  out.mean.push(round(d.mean, 3));
  out.median.push(round(d.median, 3));
  out.p98.push(round(d.p98, 3));
  out.max.push(d.max);
  out.invalid.push(d.invalid);
  out.note.push(d.count === 0 ? 'no data' : '');
}

/**
 * What the Summary summarises, by column name, for the host to compute over every row of the data (core/sql
 * summary.node): the same datasource, time and metric columns as `summaryTable`, each metric's QC column.
 */
export function summaryPlan(table: Table): SummaryPlan {
  const siblings = qcSiblings(table);
  const name = (i: number) => (i >= 0 ? table.columns[i].name : undefined);
  const gi = chartGroupColumn(table);
  const group = gi >= 0 && !isNumeric(table.columns[gi]) ? name(gi) : undefined;
  return {
    groupColumn: group,
    timeColumn: name(chartTimeColumn(table)),
    frequency: resultFrequency(table),
    metrics: chartMetricColumns(table).map((m) => {
      const a = siblings.assessment[m];
      const f = siblings.flags[m];
      const qc =
        a >= 0
          ? { column: name(a) as string, kind: 'assessment' as const }
          : f >= 0
            ? { column: name(f) as string, kind: 'flags' as const }
            : undefined;
      return qc ? { column: table.columns[m].name, qc } : { column: table.columns[m].name };
    }),
  };
}

/** The Summary table of the host's full-data numbers (`summaryPlan`'s metrics of `table`), laid out as `summaryTable`. */
export function summaryFromFull(table: Table, full: FullSummary): Table {
  const frequency = resultFrequency(table);
  const expected = full.from === null || full.to === null ? 0 : expectedPeriods(full.from, full.to, frequency);
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const cols = emptySummaryCols();
  const nan = (x: number | null) => (x === null ? Number.NaN : x);
  for (const c of full.cells) {
    const column = byName.get(c.metric);
    if (!column) continue;
    const d = { ...c, min: nan(c.min), mean: nan(c.mean), median: nan(c.median), p98: nan(c.p98), max: nan(c.max) };
    pushSummaryRow(cols, c.group, column, d, expected);
  }
  return { columns: summaryColumns(cols), rowCount: cols.datasource.length };
}

/**
 * Summary per datasource × metric: count, expected periods (for the result's frequency over the result's
 * time range), completeness %, min/mean/median/p98/max, QC-invalid count, and "no data" for a metric a
 * datasource has no value of. A Table, so it sorts, filters, copies and saves like any result.
 */
export function summaryTable(table: Table, rows: ArrayLike<number>): Table {
  const metrics = chartMetricColumns(table);
  const frequency = resultFrequency(table);
  const [from, to] = timeRange(table, rows);
  const siblings = qcSiblings(table);
  const cols = emptySummaryCols();
  const groups = groupRows(table, rows);
  const ti = chartTimeColumn(table);
  const time = ti >= 0 ? (table.columns[ti] as NumericColumn).values : undefined;
  const invalidTests = metrics.map((m) => qcInvalidTest(table, siblings, m));
  const largest = groups.reduce((n, g) => Math.max(n, g.rows.length), 0);
  const buffers = {
    times: new Float64Array(largest),
    values: new Float64Array(largest),
    scratch: new Float64Array(largest),
  };
  const context = { frequency, expected: expectedPeriods(from, to, frequency), hasTime: !!time };
  for (const { group, rows: r } of groups) {
    if (time) for (let k = 0; k < r.length; k++) buffers.times[k] = time[r[k]];
    metrics.forEach((m, mi) => {
      summariseMetric(cols, group, r, table.columns[m] as NumericColumn, buffers, {
        ...context,
        invalid: invalidTests[mi],
      });
    });
  }
  return { columns: summaryColumns(cols), rowCount: cols.datasource.length };
}

export interface ExceedanceRow extends Exceedances {
  group: string;
  /** Periods with a value (the denominator users compare with); QC-invalid values left out unless counted. */
  periodsWithValue: number;
  /** The datasource's QC-invalid values of the metric (left out of the counts unless `includeInvalid`). */
  invalid: number;
}

/**
 * Exceedances per datasource of the rows. QC-invalid values (the metric's qcAssessment/qcFlags) are left out
 * unless `includeInvalid`; a datasource whose values are all invalid keeps its row, with 0 periods.
 */
export function exceedanceRows(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  threshold: number,
  includeInvalid = false,
): ExceedanceRow[] {
  const frequency = resultFrequency(table);
  const invalidTest = qcInvalidTest(table, qcSiblings(table), metricCol);
  return seriesByGroup(table, rows, metricCol).map((s): ExceedanceRow => {
    let invalid = 0;
    if (invalidTest)
      for (let k = 0; k < s.rows.length; k++)
        if (invalidTest(s.rows[k])) {
          invalid++;
          if (!includeInvalid) s.values[k] = Number.NaN;
        }
    return {
      group: s.group,
      periodsWithValue: periodsWithValue(s.times, s.values, frequency),
      invalid,
      ...exceedances(s.times, s.values, threshold, frequency),
    };
  });
}

/** openair's timeVariation panels, in the order drawn. */
export const PROFILE_PANELS: readonly ProfileBy[] = ['hourWeekday', 'hour', 'month', 'weekday'];

export interface GroupProfiles {
  group: string;
  /** By hour of day, 0-23. */
  hour: ProfilePoint[];
  /** By weekday, Monday first. */
  weekday: ProfilePoint[];
  /** By hour of the week (weekday · 24 + hour, Monday 00:00 first). */
  hourWeekday: ProfilePoint[];
  /** By month of year, January first. */
  month: ProfilePoint[];
  /** The mean of all the values (what `normalise` divides by). */
  mean: number;
}

interface Profiles {
  /** The first `maxGroups` datasources by name, each with its profiles. */
  shown: GroupProfiles[];
  /** Datasources in the rows (shown or not). */
  datasources: number;
}

/** Every panel's profile of one series, with its overall mean. */
function groupProfiles(
  group: string,
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  zone: Zone = UTC,
  ci?: ProfileCi,
): GroupProfiles {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++)
    if (!Number.isNaN(values[i]) && !Number.isNaN(times[i])) {
      sum += values[i];
      n++;
    }
  const [hourWeekday, hour, month, weekday] = PROFILE_PANELS.map((by) => profile(times, values, by, zone, ci));
  return { group, hour, weekday, hourWeekday, month, mean: n ? sum / n : Number.NaN };
}

/**
 * openair timeVariation's profiles of the metric (hour, weekday, hour of the week, month) for the first
 * `maxGroups` datasources by name, local to the zone; with `ci`, each mean's seeded bootstrap 95 % interval.
 */
export function profiles(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  zone: Zone = UTC,
  maxGroups = Number.POSITIVE_INFINITY,
  ci?: ProfileCi,
): Profiles {
  const groups = groupRows(table, rows);
  const shown = seriesOf(table, groups.slice(0, maxGroups), metricCol).map((s) =>
    groupProfiles(s.group, s.times, s.values, zone, ci),
  );
  return { shown, datasources: groups.length };
}

/** One side of a difference: a datasource's values of a metric column. */
interface ProfileSide {
  group: string;
  metricCol: number;
}

export interface DifferenceProfiles {
  a: GroupProfiles;
  b: GroupProfiles;
  /** B − A over the periods both have a value in (each side's mean in the period), with its intervals. */
  difference: GroupProfiles;
  /** Periods paired. */
  pairs: number;
}

/**
 * openair's timeVariation(difference = TRUE): the profiles of A and B and of B − A, paired by period of the
 * result's frequency (two metrics, two datasources, two data versions shown as datasources); undefined when a
 * side has no rows.
 */
export function differenceProfiles(
  table: Table,
  rows: ArrayLike<number>,
  a: ProfileSide,
  b: ProfileSide,
  zone: Zone = UTC,
  ci?: ProfileCi,
): DifferenceProfiles | undefined {
  const [sa] = seriesByGroup(table, rows, a.metricCol, new Set([a.group]));
  const [sb] = seriesByGroup(table, rows, b.metricCol, new Set([b.group]));
  if (!sa || !sb) return undefined;
  const pairs = pairByPeriod(sa, sb, resultFrequency(table), { zone });
  const diff = pairs.reference.map((v, i) => v - pairs.sensor[i]);
  const label = (side: ProfileSide) => (a.group === b.group ? (table.columns[side.metricCol]?.name ?? '') : side.group);
  return {
    a: groupProfiles(label(a), sa.times, sa.values, zone, ci),
    b: groupProfiles(label(b), sb.times, sb.values, zone, ci),
    difference: groupProfiles(`${label(b)} − ${label(a)}`, pairs.times, diff, zone, ci),
    pairs: pairs.times.length,
  };
}

/**
 * One range for both axes of a sensor-against-reference scatter (equal scales, so the 1:1 line is the diagonal
 * of a square plot): from 0, or the lowest value of either when below 0, to 5 % above the highest of either.
 */
export function scatterRange(xs: ArrayLike<number>, ys: ArrayLike<number>): [number, number] {
  let lo = 0;
  let hi = Number.NEGATIVE_INFINITY;
  for (const values of [xs, ys])
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  if (!(hi > lo)) return [lo, lo + 1];
  return [lo, hi + 0.05 * (hi - lo)];
}

/** The AQI category of a value of a metric column, when the metric is an AQI or has EPA breakpoints. */
export function categoryOf(column: Column, value: number): AqiCategory | undefined {
  const scale = metricScale(column.metric);
  if (!scale || Number.isNaN(value)) return undefined;
  if (scale.kind === 'aqi') return aqiCategory(value);
  if (scale.kind === 'concentration') return concentrationCategory(scale.pollutant, value);
  return undefined;
}

export interface MapPoint {
  group: string;
  /** Distinct locations in time order (a moved datasource has more than one). */
  track: Array<{ lat: number; lon: number; since: number }>;
  latestTime: number;
  latestValue: number;
  category?: AqiCategory;
}

/** Locations per datasource from the locationLatitude/locationLongitude columns, with the metric's latest value. */
export function mapPoints(table: Table, rows: ArrayLike<number>, metricCol: number): MapPoint[] {
  const located = locationColumns(table);
  if (!located) return [];
  const { lat, lon } = located;
  const metric = table.columns[metricCol] as NumericColumn | undefined;
  const out: MapPoint[] = [];
  for (const s of seriesByGroup(table, rows, metricCol)) {
    let ordered = true;
    for (let k = 1; k < s.times.length && ordered; k++) ordered = !(s.times[k] < s.times[k - 1]);
    const order = Array.from(s.rows.keys());
    if (!ordered) order.sort((a, b) => s.times[a] - s.times[b]);
    const track: MapPoint['track'] = [];
    let latestTime = Number.NaN;
    let latestValue = Number.NaN;
    for (const k of order) {
      const r = s.rows[k];
      const la = numberAt(lat, r);
      const lo = numberAt(lon, r);
      if (!Number.isNaN(la) && !Number.isNaN(lo)) {
        const last = track[track.length - 1];
        if (!last || last.lat !== la || last.lon !== lo) track.push({ lat: la, lon: lo, since: s.times[k] });
      }
      const v = metric?.kind === 'number' ? numberAt(metric, r) : Number.NaN;
      if (!Number.isNaN(v)) {
        latestTime = s.times[k];
        latestValue = v;
      }
    }
    if (!track.length) continue;
    out.push({
      group: s.group,
      track,
      latestTime,
      latestValue,
      category: metric ? categoryOf(metric, latestValue) : undefined,
    });
  }
  return out;
}
