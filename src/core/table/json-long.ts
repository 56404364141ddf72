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
  const rowOf = new Map<string, number>();
  const rowDatasource: string[] = [];
  const rowTime: string[] = [];
  for (const m of data) {
    const key = `${m.datasourceId}\u0000${m.time}`;
    if (!rowOf.has(key)) {
      rowOf.set(key, rowDatasource.length);
      rowDatasource.push(m.datasourceId);
      rowTime.push(m.time);
    }
  }
  const rowCount = rowDatasource.length;

  const statuses = new Interner();
  const assessments = new Interner();

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
    const row = rowOf.get(`${m.datasourceId}\u0000${m.time}`)!;
    cols.value[row] = numberOrNaN(m.value);
    cols.raw[row] = numberOrNaN(m.raw);
    cols.status[row] = statuses.codeOrEmpty(m.status);
    if (m.qcAssessment !== undefined) {
      cols.qcAssessment ??= new Int32Array(rowCount).fill(-1);
      cols.qcAssessment[row] = assessments.codeOrEmpty(m.qcAssessment);
    }
    if (m.qcFlags !== undefined) {
      cols.qcFlags ??= new Array(rowCount).fill(undefined);
      cols.qcFlags[row] = Array.isArray(m.qcFlags) ? m.qcFlags : undefined;
    }
  }

  const ds = new DictBuilder('identifier');
  const time = new TimeBuilder();
  const lat = new NumberBuilder();
  const lon = new NumberBuilder();
  const locate = locator(Array.isArray(body?.locations) ? body.locations : []);
  for (let r = 0; r < rowCount; r++) {
    ds.push(rowDatasource[r]);
    const t = isoToMs(rowTime[r]);
    time.pushTime(t);
    const loc = locate(rowDatasource[r], t);
    lat.pushNumber(loc ? loc.lat : Number.NaN);
    lon.pushNumber(loc ? loc.lon : Number.NaN);
  }

  const columns: Column[] = [
    ds.finish({ name: 'datasourceId', canonical: 'datasourceId' }),
    time.finish({ name: 'time', canonical: 'time' }),
    lat.finish({ name: 'locationLatitude', canonical: 'locationLatitude' }),
    lon.finish({ name: 'locationLongitude', canonical: 'locationLongitude' }),
  ];
  for (const cols of metrics.values()) {
    const parts = parseCanonicalLabel(cols.label);
    const meta = (field: 'value' | 'raw' | 'status' | 'qcAssessment' | 'qcFlags') => {
      const name = `${cols.label}.${field}`;
      return parts ? { name, canonical: name, metric: { ...parts, field } } : { name };
    };
    columns.push({ ...meta('value'), kind: 'number', values: cols.value });
    columns.push({ ...meta('raw'), kind: 'number', values: cols.raw });
    columns.push({ ...meta('status'), kind: 'status', dict: statuses.values, codes: cols.status });
    if (cols.qcAssessment) {
      columns.push({
        ...meta('qcAssessment'),
        kind: 'qcAssessment',
        dict: assessments.values,
        codes: cols.qcAssessment,
      });
    }
    if (cols.qcFlags) {
      const flags = new FlagsBuilder();
      for (const f of cols.qcFlags) flags.pushFlags(f);
      columns.push(flags.finish(meta('qcFlags')));
    }
  }
  return { columns, rowCount };
}

function numberOrNaN(v: unknown): number {
  return typeof v === 'number' ? v : Number.NaN;
}

/**
 * The location of a datasource at a time: the latest entry whose changedAt is at or before the time,
 * else the entry without changedAt (the original location).
 */
export function locator(
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
