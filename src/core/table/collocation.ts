// A result's series per datasource and EPA's collocation evaluation over them (the Collocation view, the
// sensor evaluation report of the extension and `measnb export --evaluation`): rows grouped by the chart's
// group column, the output frequency, reference sites, locations and the nearest reference within a radius.
// Numbers come from core/aq; this module only walks the columnar Table.
import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../api/types';
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
} from '../aq/evaluation';
import { isPm25Concentration } from '../aq/metric-info';
import { inferFrequency, pm25SensorTargets, type TargetCheck } from '../aq/stats';
import { UTC, type Zone } from '../time/zone';
import { chartGroupColumn, chartMetricColumns, chartTimeColumn } from './chart-columns';
import { type Column, findColumn, floatValues, isNumeric, type NumericColumn, numberAt, type Table } from './table';

export interface Series {
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
export function seriesByGroup(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  only?: ReadonlySet<string>,
): Series[] {
  return seriesOf(
    table,
    groupRows(table, rows).filter((g) => !only || only.has(g.group)),
    metricCol,
  );
}

export function seriesOf(
  table: Table,
  groups: Array<{ group: string; rows: Uint32Array }>,
  metricCol: number,
): Series[] {
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
 * is the reference or either has no rows. 24-hour averages are the zone's local days (UTC by default).
 */
export function collocation(
  table: Table,
  rows: ArrayLike<number>,
  metricCol: number,
  sensor: string,
  reference: string,
  collocated: readonly string[] = [sensor],
  zone: Zone = UTC,
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
  const hour = evaluatePair(s, r, '1h', frequency, zone);
  const day = evaluatePair(s, r, '24h', frequency, zone);
  const group = series.filter((x) => x.group !== reference);
  const precisionOf = (averaging: EvaluationAveraging) =>
    precision(group.map((x) => validAverages(x, averaging, frequency, zone).means));
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

/** The Collocation view's starting choice: the metric, the sensor, its reference and why that one. */
interface CollocationChoice {
  metric: number;
  /** Sensors first (not reference sites), then the reference sites. */
  sensors: string[];
  /** Reference sites first, never the sensor. */
  references: string[];
  sensor: string;
  reference: string;
  /** The nearest reference site within the radius, when locations say so. */
  nearest?: { reference: string; km: number };
  /** The other datasources at the reference (with the sensor: the precision group). */
  collocated: string[];
}

/**
 * What Collocation starts on (also the evaluation report's defaults): collocationMetric, the first sensor that
 * is not a reference site, its nearest reference site within `radiusKm`, else the first reference site. A
 * `sensor` or `reference` given (present in the rows) wins. Undefined with fewer than two datasources.
 */
export function collocationChoice(
  table: Table,
  rows: ArrayLike<number>,
  options: { referenceSites?: readonly unknown[]; radiusKm?: number; sensor?: string; reference?: string } = {},
): CollocationChoice | undefined {
  const radius = options.radiusKm ?? DEFAULT_COLLOCATION_RADIUS_KM;
  const groups = groupRows(table, rows).map((g) => g.group);
  const refs = referenceDatasources(table, rows, options.referenceSites);
  const locations = datasourceLocations(table, rows);
  const sensors = groups.filter((g) => !refs.has(g)).concat(groups.filter((g) => refs.has(g)));
  const sensor = options.sensor !== undefined && groups.includes(options.sensor) ? options.sensor : sensors[0];
  const references = [...groups.filter((g) => refs.has(g)), ...groups.filter((g) => !refs.has(g))].filter(
    (g) => g !== sensor,
  );
  if (!sensor || !references.length) return undefined;
  const nearest = nearestReference(locations, sensor, refs, radius);
  const given = options.reference !== undefined && references.includes(options.reference);
  const reference = given ? options.reference! : (nearest?.reference ?? references[0]);
  const others = collocatedSensors(groups, locations, reference, refs, radius);
  const collocated = [sensor, ...others.filter((g) => g !== sensor)];
  return { metric: collocationMetric(table), sensors, references, sensor, reference, nearest, collocated };
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
