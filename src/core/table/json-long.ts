// json-long -> the same wide Table as csv-wide: one row per datasource × time, columns
// `<metric>.value/.raw/.status(/.qcAssessment/.qcFlags)`, and the location in force at each row's time.

import type { JsonLongBody, LocationEntry, MetricObject } from '../api/types';
import { parseCanonicalLabel } from '../metrics/labels';
import { isoToMs } from '../time/iso';
import { DictBuilder, FlagsBuilder, NumberBuilder, TimeBuilder } from './builders';
import { Interner } from './interner';
import type { Column, Table } from './table';

interface MetricColumns {
  label: string;
  value: Float64Array;
  raw: Float64Array;
  status: Int32Array;
  qcAssessment?: Int32Array;
  qcFlags?: (readonly string[] | undefined)[];
}

/** Pivots a json-long reply. Rows keep the service's order (first appearance); a missing `locations` is empty. */
export function pivotJsonLong(body: Pick<JsonLongBody, 'data'> & { locations?: LocationEntry[] | null }): Table {
  const data: MetricObject[] = Array.isArray(body?.data) ? body.data : [];
  const rows = rowsOf(data);
  const dicts: MetricDicts = { statuses: new Interner(), assessments: new Interner() };
  const metrics = metricColumns(data, rows, dicts);
  const locations = Array.isArray(body?.locations) ? body.locations : [];
  const columns = [...identifyingColumns(rows, locations)];
  for (const cols of metrics.values()) columns.push(...metricTableColumns(cols, dicts));
  return { columns, rowCount: rows.datasource.length };
}

/** The rows: one per datasource × time, in order of first appearance. */
interface Rows {
  of: Map<string, number>;
  datasource: string[];
  time: string[];
}

/** The dictionaries every metric's status and qcAssessment columns share. */
interface MetricDicts {
  statuses: Interner;
  assessments: Interner;
}

function rowKey(m: MetricObject): string {
  return `${m.datasourceId}\u0000${m.time}`;
}

function rowsOf(data: MetricObject[]): Rows {
  const rows: Rows = { of: new Map(), datasource: [], time: [] };
  for (const m of data) {
    const key = rowKey(m);
    if (!rows.of.has(key)) {
      rows.of.set(key, rows.datasource.length);
      rows.datasource.push(m.datasourceId);
      rows.time.push(m.time);
    }
  }
  return rows;
}

/** Each metric's columns, filled from its objects. */
function metricColumns(data: MetricObject[], rows: Rows, dicts: MetricDicts): Map<string, MetricColumns> {
  const rowCount = rows.datasource.length;
  const metrics = new Map<string, MetricColumns>();
  for (const m of data) {
    let cols = metrics.get(m.metric);
    if (!cols) {
      cols = {
        label: m.metric,
        value: new Float64Array(rowCount).fill(Number.NaN),
        raw: new Float64Array(rowCount).fill(Number.NaN),
        status: new Int32Array(rowCount).fill(-1),
      };
      metrics.set(m.metric, cols);
    }
    const row = rows.of.get(rowKey(m))!;
    cols.value[row] = numberOrNaN(m.value);
    cols.raw[row] = numberOrNaN(m.raw);
    cols.status[row] = dicts.statuses.codeOrEmpty(m.status);
    if (m.qcAssessment !== undefined) {
      cols.qcAssessment ??= new Int32Array(rowCount).fill(-1);
      cols.qcAssessment[row] = dicts.assessments.codeOrEmpty(m.qcAssessment);
    }
    if (m.qcFlags !== undefined) {
      cols.qcFlags ??= new Array(rowCount).fill(undefined);
      cols.qcFlags[row] = Array.isArray(m.qcFlags) ? m.qcFlags : undefined;
    }
  }
  return metrics;
}

/** datasourceId, time, and the location in force at each row's time. */
function identifyingColumns(rows: Rows, locations: LocationEntry[]): Column[] {
  const ds = new DictBuilder('identifier');
  const time = new TimeBuilder();
  const lat = new NumberBuilder();
  const lon = new NumberBuilder();
  const locate = locator(locations);
  for (let r = 0; r < rows.datasource.length; r++) {
    ds.push(rows.datasource[r]);
    const t = isoToMs(rows.time[r]);
    time.pushTime(t);
    const loc = locate(rows.datasource[r], t);
    lat.pushNumber(loc ? loc.lat : Number.NaN);
    lon.pushNumber(loc ? loc.lon : Number.NaN);
  }
  return [
    ds.finish({ name: 'datasourceId', canonical: 'datasourceId' }),
    time.finish({ name: 'time', canonical: 'time' }),
    lat.finish({ name: 'locationLatitude', canonical: 'locationLatitude' }),
    lon.finish({ name: 'locationLongitude', canonical: 'locationLongitude' }),
  ];
}

/** A metric's table columns: value, raw, status, and qcAssessment and qcFlags when the reply had them. */
function metricTableColumns(cols: MetricColumns, dicts: MetricDicts): Column[] {
  const parts = parseCanonicalLabel(cols.label);
  const meta = (field: 'value' | 'raw' | 'status' | 'qcAssessment' | 'qcFlags') => {
    const name = `${cols.label}.${field}`;
    return parts ? { name, canonical: name, metric: { ...parts, field } } : { name };
  };
  const columns: Column[] = [
    { ...meta('value'), kind: 'number', values: cols.value },
    { ...meta('raw'), kind: 'number', values: cols.raw },
    { ...meta('status'), kind: 'status', dict: dicts.statuses.values, codes: cols.status },
  ];
  if (cols.qcAssessment) {
    columns.push({
      ...meta('qcAssessment'),
      kind: 'qcAssessment',
      dict: dicts.assessments.values,
      codes: cols.qcAssessment,
    });
  }
  if (cols.qcFlags) {
    const flags = new FlagsBuilder();
    for (const f of cols.qcFlags) flags.pushFlags(f);
    columns.push(flags.finish(meta('qcFlags')));
  }
  return columns;
}

function numberOrNaN(v: unknown): number {
  return typeof v === 'number' ? v : Number.NaN;
}

/**
 * The location of a datasource at a time: the latest entry whose changedAt is at or before the time,
 * else the entry without changedAt (the original location).
 */
function locator(
  locations: readonly LocationEntry[],
): (datasourceId: string, time: number) => LocationEntry | undefined {
  const byDs = new Map<string, { base?: LocationEntry; changes: { at: number; loc: LocationEntry }[] }>();
  for (const loc of locations) {
    let e = byDs.get(loc.datasourceId);
    if (!e) {
      e = { changes: [] };
      byDs.set(loc.datasourceId, e);
    }
    const at = loc.changedAt ? isoToMs(loc.changedAt) : Number.NaN;
    if (Number.isNaN(at)) e.base ??= loc;
    else e.changes.push({ at, loc });
  }
  for (const e of byDs.values()) e.changes.sort((a, b) => a.at - b.at);
  return (datasourceId, time) => {
    const e = byDs.get(datasourceId);
    if (!e) return undefined;
    let found = e.base;
    for (const c of e.changes) {
      if (c.at <= time) found = c.loc;
      else break;
    }
    return found ?? e.changes[0]?.loc;
  };
}
