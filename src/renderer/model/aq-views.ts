// The air-quality views' data, computed from a result's columns (no request): per-datasource series of a
// metric, the Summary as a derived Table (shown by the same table widget), exceedances, profiles,
// collocation and map points. Numbers come from core/aq; this module only walks the columnar Table.
import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../../core/api/types';
import { type AqiCategory, aqiCategory, concentrationCategory } from '../../core/aq/aqi';
import {
  DEFAULT_COLLOCATION_RADIUS_KM,
  distanceKm,
  type EvaluationAveraging,
  evaluatePair,
  type LatLon,
  type PairEvaluation,
  type Precision,
  precision,
  validAverages,
} from '../../core/aq/evaluation';
import { isPm25Concentration, metricScale } from '../../core/aq/metric-info';
import {
  completenessPercent,
  distribution,
  type Exceedances,
  exceedances,
  expectedPeriods,
  inferFrequency,
  type ProfilePoint,
  periodsWithValue,
  pm25SensorTargets,
  profile,
  type TargetCheck,
} from '../../core/aq/stats';
import { DictBuilder } from '../../core/table/builders';
import {
  type Column,
  type DictColumn,
  findColumn,
  floatValues,
  isNumeric,
  type NumericColumn,
  numberAt,
  type Table,
} from '../../core/table/table';
import { chartGroupColumn, chartMetricColumns, chartTimeColumn } from './chart-series';
import { qcInvalidTest, qcSiblings } from './qc';

interface Series {
  group: string;
  /** Table rows of the group, in the order given. */
  rows: Uint32Array;
  times: Float64Array;
  values: Float64Array;
}

function groupName(column: Column | undefined, r: number, fallback: string): string {
  if (!column || isNumeric(column)) return fallback;
  const c = column.codes[r];
  if (c < 0) return '(none)';
  return column.kind === 'qcFlags' ? column.dict[c].join(',') : column.dict[c];
}

/** Rows grouped by datasource (the chart's group column), groups sorted by name. One pass over the rows. */
export function groupRows(table: Table, rows: ArrayLike<number>): Array<{ group: string; rows: Uint32Array }> {
  const gi = chartGroupColumn(table);
  const group = gi >= 0 ? table.columns[gi] : undefined;
  if (!group || isNumeric(group)) return [{ group: '(all)', rows: Uint32Array.from(rows) }];
  const size = group.dict.length + 1;
  const counts = new Uint32Array(size);
  for (let i = 0; i < rows.length; i++) counts[group.codes[rows[i]] + 1]++;
  const parts = Array.from(counts, (n) => new Uint32Array(n));
  const fill = new Uint32Array(size);
  for (let i = 0; i < rows.length; i++) {
    const k = group.codes[rows[i]] + 1;
    parts[k][fill[k]++] = rows[i];
  }
  const out: Array<{ group: string; rows: Uint32Array }> = [];
  parts.forEach((p, k) => {
    if (p.length) out.push({ group: k === 0 ? '(none)' : groupName(group, p[0], ''), rows: p });
  });
  return out.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
}

/** The metric's series per datasource (times of the chart's time column); only the named ones when given. */
function seriesByGroup(table: Table, rows: ArrayLike<number>, metricCol: number, only?: ReadonlySet<string>): Series[] {
  return seriesOf(
    table,
    groupRows(table, rows).filter((g) => !only || only.has(g.group)),
    metricCol,
  );
}

function seriesOf(table: Table, groups: Array<{ group: string; rows: Uint32Array }>, metricCol: number): Series[] {
  const time = table.columns[chartTimeColumn(table)] as NumericColumn | undefined;
  const column = table.columns[metricCol];
  const metric = column && isNumeric(column) ? column : undefined;
  const tv = time && floatValues(time);
  const mv = metric && floatValues(metric);
  return groups.map(({ group, rows: r }) => {
    const times = new Float64Array(r.length).fill(Number.NaN);
    const values = new Float64Array(r.length).fill(Number.NaN);
    if (tv) for (let k = 0; k < r.length; k++) times[k] = tv[r[k]];
    if (mv) for (let k = 0; k < r.length; k++) values[k] = mv[r[k]];
    return { group, rows: r, times, values };
  });
}

/** The result's output frequency: its outputFrequency column when it has one, else from the spacing of times. */
export function resultFrequency(table: Table): OutputFrequency {
  const col = findColumn(table, 'outputFrequency');
  if (col && !isNumeric(col) && col.kind !== 'qcFlags') {
    const f = col.dict.find((v) => (OUTPUT_FREQUENCIES as readonly string[]).includes(v));
    if (f) return f as OutputFrequency;
  }
  const ti = chartTimeColumn(table);
  return ti >= 0 ? inferFrequency(floatValues(table.columns[ti] as NumericColumn).subarray(0, 5000)) : 'hour';
}

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
  out.datasource.push(group);
  out.metric.push(column.name);
  out.unit.push(unitOf(column));
  out.count.push(d.count);
  out.expected.push(context.expected);
  out.completeness.push(round(completenessPercent(withValue, context.expected), 1));
  out.min.push(d.min);
  out.mean.push(round(d.mean, 3));
  out.median.push(round(d.median, 3));
  out.p98.push(round(d.p98, 3));
  out.max.push(d.max);
  out.invalid.push(invalid);
  out.note.push(d.count === 0 ? 'no data' : '');
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

export interface GroupProfiles {
  group: string;
  /** By hour of day, 0-23. */
  hour: ProfilePoint[];
  /** By weekday, Monday first. */
  weekday: ProfilePoint[];
}

interface Profiles {
  /** The first `maxGroups` datasources by name, each with its profiles. */
  shown: GroupProfiles[];
  /** Datasources in the rows (shown or not). */
  datasources: number;
}

/** Diurnal and weekday profiles of the metric for the first `maxGroups` datasources by name. */
export function profiles(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  offsetMinutes?: (ms: number) => number,
  maxGroups = Number.POSITIVE_INFINITY,
): Profiles {
  const groups = groupRows(table, rows);
  const shown = seriesOf(table, groups.slice(0, maxGroups), metricCol).map((s) => ({
    group: s.group,
    hour: profile(s.times, s.values, 'hour', offsetMinutes),
    weekday: profile(s.times, s.values, 'weekday', offsetMinutes),
  }));
  return { shown, datasources: groups.length };
}

/**
 * A time zone's offset function made cheap for a pass over many times: the offset is looked up once per
 * quarter hour (a block whose start and end agree has no transition in it; otherwise each time is asked).
 */
export function cachedOffset(offsetMinutes: (ms: number) => number): (ms: number) => number {
  const BLOCK = 900_000;
  const blocks = new Map<number, number>();
  let lastKey = Number.NaN;
  let lastOffset = Number.NaN;
  return (ms) => {
    const key = Math.floor(ms / BLOCK);
    if (key !== lastKey) {
      let o = blocks.get(key);
      if (o === undefined) {
        const start = offsetMinutes(key * BLOCK);
        o = start === offsetMinutes(key * BLOCK + BLOCK - 1) ? start : Number.NaN;
        blocks.set(key, o);
      }
      lastKey = key;
      lastOffset = o;
    }
    return Number.isNaN(lastOffset) ? offsetMinutes(ms) : lastOffset;
  };
}

/**
 * The datasources of the rows that are reference sites (the reference candidates of collocation): by the
 * result's sourceType column, and the ids `known` to be reference sites (the host's, for results without
 * that column; anything else in it, or ids not in the rows, is ignored).
 */
export function referenceDatasources(
  table: Table,
  rows: ArrayLike<number>,
  known: readonly unknown[] = [],
): Set<string> {
  const gi = chartGroupColumn(table);
  const out = new Set<string>();
  const group = gi >= 0 ? table.columns[gi] : undefined;
  if (!group || isNumeric(group)) return out;
  const st = findColumn(table, 'sourceType');
  const sourceType = st && !isNumeric(st) && st.kind !== 'qcFlags' ? st : undefined;
  const ref = sourceType ? sourceType.dict.indexOf('REFERENCE_SITE') : -1;
  const knownIds = new Set(known.filter((k): k is string => typeof k === 'string'));
  if (ref < 0 && knownIds.size === 0) return out;
  // Per group code in one pass: 1 = in the rows, 2 = a row says reference site. Names looked up once per group.
  const marked = new Uint8Array(group.dict.length + 1);
  for (let i = 0; i < rows.length; i++) {
    const k = group.codes[rows[i]] + 1;
    if (ref >= 0 && sourceType?.codes[rows[i]] === ref) marked[k] = 2;
    else if (!marked[k]) marked[k] = 1;
  }
  for (let c = -1; c < group.dict.length; c++) {
    if (!marked[c + 1]) continue;
    const d = c < 0 ? '(none)' : group.dict[c];
    const name = typeof d === 'string' ? d : d.join(',');
    if (marked[c + 1] === 2 || knownIds.has(name)) out.add(name);
  }
  return out;
}

export interface Collocation {
  /** EPA's evaluation on valid 1-hour averages (none from a daily result). */
  hour: PairEvaluation;
  /** EPA's evaluation on valid 24-hour averages (18 of 24 hours). */
  day: PairEvaluation;
  /** EPA's PM2.5 sensor targets on each: empty for other metrics (they are defined for PM2.5 only). */
  targets: { hour: TargetCheck[]; day: TargetCheck[] };
  /** Whether the metric is PM2.5 (the targets apply). */
  pm25: boolean;
  /** The result's output frequency. */
  frequency: OutputFrequency;
  /** Precision across the collocated sensors (the datasources given, with data): SD and CV per averaging. */
  precision: { sensors: string[]; hour: Precision; day: Precision };
}

/**
 * A sensor against a reference, EPA's way: valid 1-hour and 24-hour averages side by side, and the precision of
 * the `collocated` sensors (the sensor and the others at the same reference; needs 3). Undefined when the sensor
 * is the reference or either has no rows.
 */
export function collocation(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  sensor: string,
  reference: string,
  collocated: readonly string[] = [sensor],
): Collocation | undefined {
  if (sensor === reference) return undefined;
  const names = new Set([sensor, reference, ...collocated]);
  names.delete(reference);
  names.add(reference);
  const series = seriesByGroup(table, rows, metricCol, names);
  const s = series.find((x) => x.group === sensor);
  const r = series.find((x) => x.group === reference);
  if (!s || !r) return undefined;
  const frequency = resultFrequency(table);
  const pm25 = isPm25Concentration(table.columns[metricCol]?.metric);
  const hour = evaluatePair(s, r, '1h', frequency);
  const day = evaluatePair(s, r, '24h', frequency);
  const group = series.filter((x) => x.group !== reference);
  const precisionOf = (averaging: EvaluationAveraging) =>
    precision(group.map((x) => validAverages(x, averaging, frequency).means));
  return {
    hour,
    day,
    targets: { hour: pm25 ? pm25SensorTargets(hour.fit) : [], day: pm25 ? pm25SensorTargets(day.fit) : [] },
    pm25,
    frequency,
    precision: { sensors: group.map((x) => x.group), hour: precisionOf('1h'), day: precisionOf('24h') },
  };
}

/**
 * The metric collocation starts on: a 1-hour or 24-hour mean (what EPA evaluates), PM2.5 first, then minute
 * values (averaged into hours); a NowCast or an index only when there is nothing else. -1 without metrics.
 */
export function collocationMetric(table: Table): number {
  const order = ['1HourMean', '24HourMean', 'Individual'];
  const rank = (i: number) => {
    const m = table.columns[i].metric;
    const at = order.indexOf(m?.aggregation ?? '');
    const base = at < 0 || m?.index ? 10 : at;
    return isPm25Concentration(m) ? base : base + 3;
  };
  const cols = chartMetricColumns(table);
  return [...cols].sort((a, b) => rank(a) - rank(b))[0] ?? -1;
}

/** The result's locationLatitude/locationLongitude number columns, when it has both (else no Map). */
export function locationColumns(table: Table): { lat: NumericColumn; lon: NumericColumn } | undefined {
  const lat = findColumn(table, 'locationLatitude');
  const lon = findColumn(table, 'locationLongitude');
  if (!lat || !lon || lat.kind !== 'number' || lon.kind !== 'number') return undefined;
  return { lat, lon };
}

/** Each datasource's last location in the rows (locationLatitude/locationLongitude), when the result has them. */
export function datasourceLocations(table: Table, rows: ArrayLike<number>): Map<string, LatLon> {
  const out = new Map<string, LatLon>();
  const located = locationColumns(table);
  if (!located) return out;
  const { lat, lon } = located;
  for (const g of groupRows(table, rows))
    for (let k = g.rows.length - 1; k >= 0; k--) {
      const la = numberAt(lat, g.rows[k]);
      const lo = numberAt(lon, g.rows[k]);
      if (Number.isNaN(la) || Number.isNaN(lo)) continue;
      out.set(g.group, { lat: la, lon: lo });
      break;
    }
  return out;
}

/** The reference site nearest a datasource within `radiusKm` (haversine), with its distance; undefined if none. */
export function nearestReference(
  locations: ReadonlyMap<string, LatLon>,
  sensor: string,
  references: Iterable<string>,
  radiusKm = DEFAULT_COLLOCATION_RADIUS_KM,
): { reference: string; km: number } | undefined {
  const at = locations.get(sensor);
  if (!at) return undefined;
  let best: { reference: string; km: number } | undefined;
  for (const ref of references) {
    const there = locations.get(ref);
    if (ref === sensor || !there) continue;
    const km = distanceKm(at, there);
    if (km <= radiusKm && (!best || km < best.km)) best = { reference: ref, km };
  }
  return best;
}

/**
 * The sensors collocated with a reference: the other datasources within `radiusKm` of it; all the other
 * datasources of the rows when locations are unknown.
 */
export function collocatedSensors(
  groups: readonly string[],
  locations: ReadonlyMap<string, LatLon>,
  reference: string,
  references: ReadonlySet<string>,
  radiusKm = DEFAULT_COLLOCATION_RADIUS_KM,
): string[] {
  const at = locations.get(reference);
  return groups.filter((g) => {
    if (g === reference || references.has(g)) return false;
    const there = locations.get(g);
    return !at || !there || distanceKm(at, there) <= radiusKm;
  });
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

/**
 * Datasource names by id: a `datasourceName` or `name` text column of the result (its first name per id),
 * else the host's (ResultInfo.datasourceNames: only string values, bounded; anything else ignored).
 */
export function datasourceNameMap(table: Table, known?: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const gi = chartGroupColumn(table);
  const group = gi >= 0 ? table.columns[gi] : undefined;
  const nameCol = findColumn(table, 'datasourceName') ?? findColumn(table, 'name');
  if (
    group &&
    !isNumeric(group) &&
    group.kind !== 'qcFlags' &&
    nameCol &&
    nameCol.kind !== 'qcFlags' &&
    !isNumeric(nameCol)
  ) {
    for (let r = 0; r < table.rowCount; r++) {
      const g = group.codes[r];
      const c = nameCol.codes[r];
      if (g < 0 || c < 0 || out.has(group.dict[g])) continue;
      const name = nameCol.dict[c];
      if (name) out.set(group.dict[g], name.slice(0, 80));
    }
  }
  if (out.size || !known || typeof known !== 'object' || Array.isArray(known)) return out;
  for (const [id, name] of Object.entries(known as Record<string, unknown>)) {
    if (out.size >= 5000) break;
    if (typeof name === 'string' && name) out.set(id, name.slice(0, 80));
  }
  return out;
}
