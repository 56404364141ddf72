// A synthetic measurements Table for renderer tests, the renderer page and the benchmarks: minute rows for
// many (or few, with long series) datasources, metric value/status/QC columns, a PM2.5 NowCast with EPA
// breakpoints (so Exceedances has a default threshold and the Map has AQI categories: values from Good to
// Unhealthy, with smoke episodes), and a hostile datasource id that must stay text. 20 columns.
import { parseCanonicalLabel } from '../../src/core/metrics/labels';
import type { Column, Table } from '../../src/core/table/table';

export const HOSTILE_ID = '<img src=x onerror=alert(1)>';

/** A PM2.5 NowCast (µg/m³) of row r: a daily swing by datasource, 4 to 40, and a smoke episode (to ~90) every 3 days. */
function nowcast(r: number, datasources: number): number {
  const ds = r % datasources;
  const minute = Math.floor(r / datasources);
  const day = (minute / 1440 + ds / 97) % 3;
  const smoke = day > 2.5 ? 50 * Math.sin((day - 2.5) * 2 * Math.PI) : 0;
  return 22 + 18 * Math.sin(minute / 229 + ds) + Math.max(0, smoke) + (ds % 5);
}

export function syntheticTable(rowCount: number, datasources = 500): Table {
  const ids = Array.from({ length: datasources }, (_, i) => (i === 3 ? HOSTILE_ID : `D${String(i).padStart(6, '0')}`));
  const dsCodes = new Int32Array(rowCount);
  const time = new Float64Array(rowCount);
  const lat = new Float64Array(rowCount);
  const lon = new Float64Array(rowCount);
  const t0 = Date.UTC(2026, 10, 20, 0, 0, 0);
  for (let r = 0; r < rowCount; r++) {
    const ds = r % datasources;
    dsCodes[r] = ds;
    time[r] = t0 + Math.floor(r / datasources) * 60_000;
    lat[r] = 47.6 + ds * 0.001;
    lon[r] = -122.3 - ds * 0.001;
  }
  const metric = (name: string, values: Float64Array): Column => ({
    name,
    kind: 'number',
    values,
    metric: parseCanonicalLabel(name),
  });
  const columns: Column[] = [
    { name: 'datasourceId', kind: 'identifier', dict: ids, codes: dsCodes },
    {
      name: 'sourceType',
      kind: 'text',
      dict: ['SERVICE_NODE', 'REFERENCE_SITE'],
      codes: dsCodes.map((d) => (d % 7 === 0 ? 1 : 0)),
    },
    { name: 'sourceId', kind: 'identifier', dict: ids.map((_, i) => `N${1000 + i}`), codes: dsCodes },
    { name: 'outputFrequency', kind: 'text', dict: ['minute'], codes: new Int32Array(rowCount) },
    { name: 'time', kind: 'time', values: time },
    { name: 'locationLatitude', kind: 'number', values: lat },
    { name: 'locationLongitude', kind: 'number', values: lon },
  ];
  // The fourth is a NowCast (EPA breakpoints): no Individual suffix.
  const labels = [
    'pm2_5ConcMassIndividual',
    'pm10ConcMassIndividual',
    'no2ConcIndividual',
    'pm2_5ConcMassNowcast',
    'temperatureAmbientIndividual',
  ];
  for (const [qi, label] of labels.entries()) {
    const value = new Float64Array(rowCount);
    const raw = new Float64Array(rowCount);
    const status = new Int32Array(rowCount);
    const assessment = new Int32Array(rowCount);
    for (let r = 0; r < rowCount; r++) {
      const v =
        qi === 3
          ? nowcast(r, datasources)
          : 10 + qi * 5 + 8 * Math.sin(r / datasources / 30 + (r % datasources)) + (r % 13) / 10;
      const invalid = r % 97 === 0;
      value[r] = r % 211 === 0 ? Number.NaN : Math.round((invalid ? v * 40 : v) * 10) / 10;
      raw[r] = Math.round(v * 1.1 * 100) / 100;
      status[r] = r % 211 === 0 ? 2 : r % 3 === 0 ? 1 : 0;
      assessment[r] = invalid ? 1 : 0;
    }
    columns.push(metric(`${label}.value`, value));
    if (qi < 3) {
      columns.push(metric(`${label}.raw`, raw));
      columns.push({
        name: `${label}.status`,
        kind: 'status',
        dict: ['sensor-ready', 'calibrated-ready', 'calibration-missing'],
        codes: status,
        metric: parseCanonicalLabel(`${label}.status`),
      });
    }
    if (qi === 0) {
      columns.push({
        name: `${label}.qcAssessment`,
        kind: 'qcAssessment',
        dict: ['valid', 'invalid'],
        codes: assessment,
        metric: parseCanonicalLabel(`${label}.qcAssessment`),
      });
      columns.push({
        name: `${label}.qcFlags`,
        kind: 'qcFlags',
        dict: [[], ['QC.I.OOB.001']],
        codes: assessment,
        metric: parseCanonicalLabel(`${label}.qcFlags`),
      });
    }
  }
  return { columns, rowCount };
}
