// The air-quality views' model on a small hand-made hourly result: Summary rows, exceedances,
// collocation of a sensor with a reference site, and map tracks of a moved datasource.
import assert from 'node:assert/strict';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { type Column, cellText, isNumeric, numberAt, type Table } from '../../../../src/core/table/table';
import {
  collocatedSensors,
  collocation,
  collocationMetric,
  datasourceLocations,
  differenceProfiles,
  exceedanceRows,
  locationColumns,
  mapPoints,
  nearestReference,
  profiles,
  referenceDatasources,
  resultFrequency,
  scatterRange,
  summaryTable,
} from '../../../../src/renderer/model/aq-views';
import { identityRows } from '../../../../src/renderer/model/sort';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);
const LABEL = 'pm2_5ConcMassNowcast';

/** 6 hours × 2 datasources: SENSOR reads 1.2·ref + 2 (hour 3 QC-invalid), REF one hour missing; SENSOR moves at hour 4. */
function hourly(): Table {
  const ref = [10, 20, 30, Number.NaN, 50, 60];
  const rows: Array<{ id: string; t: number; v: number; inv: boolean; lat: number }> = [];
  for (let h = 0; h < 6; h++) {
    rows.push({ id: 'SENSOR', t: T0 + h * H, v: 1.2 * (10 + 10 * h) + 2, inv: h === 3, lat: h < 4 ? 47.6 : 47.7 });
    rows.push({ id: 'REF', t: T0 + h * H, v: ref[h], inv: false, lat: 47.6 });
  }
  const n = rows.length;
  const columns: Column[] = [
    {
      name: 'datasourceId',
      kind: 'identifier',
      dict: ['SENSOR', 'REF'],
      codes: Int32Array.from(rows, (r) => (r.id === 'SENSOR' ? 0 : 1)),
    },
    {
      name: 'sourceType',
      kind: 'text',
      dict: ['SERVICE_NODE', 'REFERENCE_SITE'],
      codes: Int32Array.from(rows, (r) => (r.id === 'SENSOR' ? 0 : 1)),
    },
    { name: 'outputFrequency', kind: 'text', dict: ['hour'], codes: new Int32Array(n) },
    { name: 'startOfPeriod', kind: 'time', values: Float64Array.from(rows, (r) => r.t) },
    { name: 'locationLatitude', kind: 'number', values: Float64Array.from(rows, (r) => r.lat) },
    { name: 'locationLongitude', kind: 'number', values: Float64Array.from(rows, () => -122.3) },
    {
      name: `${LABEL}.value`,
      kind: 'number',
      values: Float64Array.from(rows, (r) => r.v),
      metric: parseCanonicalLabel(`${LABEL}.value`),
    },
    {
      name: `${LABEL}.qcAssessment`,
      kind: 'qcAssessment',
      dict: ['valid', 'invalid'],
      codes: Int32Array.from(rows, (r) => (r.inv ? 1 : 0)),
      metric: parseCanonicalLabel(`${LABEL}.qcAssessment`),
    },
  ];
  return { columns, rowCount: n };
}

const cell = (t: Table, name: string, row: number) => {
  const c = t.columns.find((x) => x.name === name)!;
  return isNumeric(c) ? numberAt(c, row) : cellText(c, row);
};

describe('renderer aq views: model', () => {
  const table = hourly();
  const rows = identityRows(table.rowCount);
  const metricCol = table.columns.findIndex((c) => c.name === `${LABEL}.value`);

  it('Summary: one row per datasource × metric with count, expected, completeness, distribution, QC-invalid count', () => {
    assert.equal(resultFrequency(table), 'hour');
    const s = summaryTable(table, rows);
    assert.equal(s.rowCount, 2);
    // Sorted by datasource: REF first. REF: 5 values of 6 hours -> 83.3 %; min 10, mean 34, median 30, max 60.
    assert.equal(cell(s, 'datasourceId', 0), 'REF');
    assert.equal(cell(s, 'unit', 0), 'µg/m³');
    assert.equal(cell(s, 'count', 0), 5);
    assert.equal(cell(s, 'expected', 0), 6);
    assert.equal(cell(s, 'complete %', 0), 83.3);
    assert.equal(cell(s, 'min', 0), 10);
    assert.equal(cell(s, 'mean', 0), 34);
    assert.equal(cell(s, 'median', 0), 30);
    assert.equal(cell(s, 'max', 0), 60);
    assert.equal(cell(s, 'QC-invalid', 0), 0);
    // SENSOR: 14, 26, 38, 50, 62, 74: mean 44, p98 = 62 + 0.9*12 = 72.8 (5 * 0.98 = 4.9), one QC-invalid.
    assert.equal(cell(s, 'datasourceId', 1), 'SENSOR');
    assert.equal(cell(s, 'complete %', 1), 100);
    assert.equal(cell(s, 'mean', 1), 44);
    assert.equal(cell(s, 'p98', 1), 72.8);
    assert.equal(cell(s, 'QC-invalid', 1), 1);
    assert.deepEqual([cell(s, 'note', 0), cell(s, 'note', 1)], ['', '']);
  });

  it('Summary: a datasource without a value of a metric says "no data" (count 0, empty stats)', () => {
    const refRows = rows.filter((r) => r % 2 === 1 && r !== 7); // REF's hours, then blank its values
    const blank = {
      ...table,
      columns: table.columns.map((c, i) =>
        i === metricCol ? { ...c, values: (c as { values: Float64Array }).values.map(() => Number.NaN) } : c,
      ),
    } as Table;
    const s = summaryTable(blank, refRows);
    assert.equal(cell(s, 'count', 0), 0);
    assert.equal(cell(s, 'note', 0), 'no data');
    assert.ok(Number.isNaN(cell(s, 'mean', 0) as number));
  });

  it('Exceedances above 35.4 per datasource, QC-invalid left out: SENSOR hours 2, 4, 5 (run 2; hour 3 invalid), REF hours 4-5', () => {
    const e = exceedanceRows(table, rows, metricCol, 35.4);
    assert.deepEqual(
      e.map((x) => [x.group, x.periods, x.longestRun, x.first - T0, x.last - T0, x.periodsWithValue, x.invalid]),
      [
        ['REF', 2, 2, 4 * H, 5 * H, 5, 0],
        ['SENSOR', 3, 2, 2 * H, 5 * H, 5, 1],
      ],
    );
  });

  it('Exceedances counting QC-invalid values (the toggle): SENSOR hours 2-5 (run 4) of 6', () => {
    const e = exceedanceRows(table, rows, metricCol, 35.4, true);
    assert.deepEqual(
      e.map((x) => [x.group, x.periods, x.longestRun, x.periodsWithValue, x.invalid]),
      [
        ['REF', 2, 2, 5, 0],
        ['SENSOR', 4, 4, 6, 1],
      ],
    );
  });

  it('Exceedances: a datasource whose values are all QC-invalid keeps its row, with 0 valid periods', () => {
    const qc = table.columns.findIndex((c) => c.name === `${LABEL}.qcAssessment`);
    const allInvalid = table.columns.map((c, i) =>
      i === qc && c.kind === 'qcAssessment'
        ? { ...c, codes: Int32Array.from(c.codes, (_, r) => (r % 2 === 0 ? 1 : 0)) } // every SENSOR row
        : c,
    );
    const e = exceedanceRows({ ...table, columns: allInvalid }, rows, metricCol, 35.4);
    assert.deepEqual(
      e.map((x) => [x.group, x.periods, x.periodsWithValue, x.invalid]),
      [
        ['REF', 2, 5, 0],
        ['SENSOR', 0, 0, 6],
      ],
    );
  });

  it('Collocation without a sourceType column (json-long): the reference from the ids the host knows, only ids of the rows', () => {
    const long = { ...table, columns: table.columns.filter((c) => c.name !== 'sourceType') };
    assert.deepEqual([...referenceDatasources(long, rows)], [], 'unknown without the host');
    assert.deepEqual([...referenceDatasources(long, rows, ['REF', 'ELSEWHERE', 42, null])], ['REF']);
    const sensorOnly = rows.filter((r) => r % 2 === 0); // SENSOR's rows
    assert.deepEqual([...referenceDatasources(long, sensorOnly, ['REF'])], [], 'not in the rows shown');
    assert.deepEqual(
      [...referenceDatasources(table, rows, ['SENSOR'])].sort(),
      ['REF', 'SENSOR'],
      'both sources count',
    );
  });

  it('Collocation: REFERENCE_SITE found; 1-hour pairs 5 hours; y = 1.2x + 2 -> slope 1.2, intercept 2, R² 1, NRMSE by EPA', () => {
    assert.deepEqual([...referenceDatasources(table, rows)], ['REF']);
    const c = collocation(table, rows, metricCol, 'SENSOR', 'REF')!;
    const fit = c.hour.fit;
    assert.equal(fit.n, 5);
    assert.ok(Math.abs(fit.slope - 1.2) < 1e-9);
    assert.ok(Math.abs(fit.intercept - 2) < 1e-9);
    assert.ok(Math.abs(fit.r2 - 1) < 1e-12);
    // bias = mean(0.2x + 2) over x = 10,20,30,50,60 -> 0.2*34 + 2 = 8.8
    assert.ok(Math.abs(fit.meanBias - 8.8) < 1e-9);
    // RMSE = √mean((0.2x + 2)²) = √(16 + 36 + 64 + 144 + 196)/5 = √91.2 = 9.55 > 7; NRMSE = 9.55 / 34 = 28.1 % ≤ 30.
    assert.ok(Math.abs(fit.rmse - Math.sqrt(91.2)) < 1e-9);
    assert.ok(Math.abs(fit.nrmse - (100 * Math.sqrt(91.2)) / 34) < 1e-9);
    const met = Object.fromEntries(c.targets.hour.map((t) => [t.name, t.met]));
    assert.deepEqual(met, { Slope: true, Intercept: true, 'R²': true, RMSE: true, NRMSE: true });
    assert.equal(c.day.fit.n, 0, 'six hours make no valid day (18 of 24)');
    assert.deepEqual(c.precision.sensors, ['SENSOR']);
    assert.ok(Number.isNaN(c.precision.hour.sd), 'one sensor: no precision');
  });

  it('Collocation precision: SD and CV across the collocated sensors given (the reference left out), 3 or more', () => {
    // 24 hours; REF = 10; sensors A, B, C read 10, 12, 14 every hour: SD = √(24·8 / (24·3 − 1)), mean 12.
    const ids = ['REF', 'A', 'B', 'C'];
    const n = 24 * ids.length;
    const t: Table = {
      rowCount: n,
      columns: [
        {
          name: 'datasourceId',
          kind: 'identifier',
          dict: ids,
          codes: Int32Array.from({ length: n }, (_, i) => i % 4),
        },
        { name: 'outputFrequency', kind: 'text', dict: ['hour'], codes: new Int32Array(n) },
        {
          name: 'startOfPeriod',
          kind: 'time',
          values: Float64Array.from({ length: n }, (_, i) => T0 + Math.floor(i / 4) * H),
        },
        {
          name: 'pm2_5ConcMass1HourMean.value',
          kind: 'number',
          values: Float64Array.from({ length: n }, (_, i) => [10, 10, 12, 14][i % 4]),
          metric: parseCanonicalLabel('pm2_5ConcMass1HourMean.value'),
        },
      ],
    };
    const all = identityRows(n);
    const c = collocation(t, all, 3, 'A', 'REF', ['A', 'B', 'C', 'REF'])!;
    assert.deepEqual(c.precision.sensors, ['A', 'B', 'C']);
    assert.equal(c.precision.hour.n, 24);
    assert.ok(Math.abs(c.precision.hour.sd - Math.sqrt((24 * 8) / 71)) < 1e-12);
    assert.ok(Math.abs(c.precision.hour.cv - (100 * Math.sqrt((24 * 8) / 71)) / 12) < 1e-9);
    assert.equal(c.precision.day.n, 1, 'one valid day (24 of 24 hours)');
    assert.equal(c.day.fit.n, 1);
    const two = collocation(t, all, 3, 'A', 'REF', ['A', 'B'])!;
    assert.equal(two.precision.hour.sensors, 2);
    assert.ok(Number.isNaN(two.precision.hour.sd), 'needs 3 sensors');
  });

  it('Collocation never pairs a datasource with itself', () => {
    assert.equal(collocation(table, rows, metricCol, 'REF', 'REF'), undefined);
    assert.equal(collocation(table, rows, metricCol, 'SENSOR', 'SENSOR'), undefined);
  });

  it('Collocation starts on a 1-hour or 24-hour mean, PM2.5 first, not on the NowCast', () => {
    const metricColumn = (name: string): Column => ({
      name,
      kind: 'number',
      values: new Float64Array(table.rowCount),
      metric: parseCanonicalLabel(name),
    });
    const withMeans: Table = {
      ...table,
      columns: [
        ...table.columns,
        metricColumn('no2Conc1HourMean.value'),
        metricColumn('pm2_5ConcMass24HourMean.value'),
        metricColumn('pm2_5ConcMass1HourMean.value'),
      ],
    };
    assert.equal(withMeans.columns[collocationMetric(withMeans)].name, 'pm2_5ConcMass1HourMean.value');
    const noPm1h = { ...withMeans, columns: withMeans.columns.slice(0, -1) };
    assert.equal(noPm1h.columns[collocationMetric(noPm1h)].name, 'pm2_5ConcMass24HourMean.value');
    assert.equal(table.columns[collocationMetric(table)].name, `${LABEL}.value`, 'the NowCast when it is all there is');
  });

  it('Pairing by place: the nearest reference site within the radius (haversine); collocated sensors near it', () => {
    const at = datasourceLocations(table, rows);
    // SENSOR moved to 47.7° at hour 4: 0.1° of latitude from REF = 11.12 km.
    assert.deepEqual(at.get('SENSOR'), { lat: 47.7, lon: -122.3 });
    const refs = referenceDatasources(table, rows);
    assert.equal(nearestReference(at, 'SENSOR', refs), undefined, 'not within the default 1 km');
    const near = nearestReference(at, 'SENSOR', refs, 12)!;
    assert.equal(near.reference, 'REF');
    assert.ok(Math.abs(near.km - 11.1195) < 1e-3, `${near.km}`);
    assert.equal(nearestReference(at, 'REF', refs, 12), undefined, 'never itself');
    assert.deepEqual(collocatedSensors(['REF', 'SENSOR'], at, 'REF', refs), []);
    assert.deepEqual(collocatedSensors(['REF', 'SENSOR'], at, 'REF', refs, 12), ['SENSOR']);
    assert.deepEqual(collocatedSensors(['REF', 'SENSOR'], new Map(), 'REF', refs), ['SENSOR'], 'no locations: all');
  });

  it('Map: the moved datasource has a two-point track; the latest value and its AQI category', () => {
    const points = mapPoints(table, rows, metricCol);
    const sensor = points.find((p) => p.group === 'SENSOR')!;
    assert.deepEqual(
      sensor.track.map((t) => [t.lat, t.since - T0]),
      [
        [47.6, 0],
        [47.7, 4 * H],
      ],
    );
    assert.equal(sensor.latestValue, 74);
    assert.equal(sensor.category?.name, 'Unhealthy'); // 74 µg/m³ -> AQI 165
    assert.equal(points.find((p) => p.group === 'REF')!.track.length, 1);
  });

  it('Profiles: hour and weekday per datasource from one gathering, the first datasources by name only', () => {
    const { shown: all, datasources } = profiles(table, rows, metricCol);
    assert.equal(datasources, 2);
    assert.deepEqual(
      all.map((g) => g.group),
      ['REF', 'SENSOR'],
    );
    // REF at 00:00..05:00 UTC on a Friday (2026-11-20): one value per hour, hour 3 empty.
    assert.deepEqual(
      all[0].hour.slice(0, 6).map((p) => p.n),
      [1, 1, 1, 0, 1, 1],
    );
    assert.equal(all[0].weekday[4].n, 5);
    assert.equal(all[0].weekday[4].mean, 34);
    const first = profiles(table, rows, metricCol, undefined, 1);
    assert.deepEqual(
      first.shown.map((g) => g.group),
      ['REF'],
    );
    assert.equal(first.datasources, 2, 'the datasources left out are counted');
  });

  it('Profiles: hour of the week and month panels, the overall mean (for normalise), seeded intervals', () => {
    const { shown } = profiles(table, rows, metricCol, undefined, Number.POSITIVE_INFINITY, { seed: 3 });
    const ref = shown[0];
    // REF: 10, 20, 30, 50, 60 at 00..05 on Friday 2026-11-20 (hour 3 missing): Friday = weekday 4 -> 96..101.
    assert.deepEqual(
      ref.hourWeekday.slice(96, 102).map((p) => p.mean),
      [10, 20, 30, Number.NaN, 50, 60],
    );
    assert.equal(ref.month[10].n, 5);
    assert.equal(ref.mean, 34);
    // One value per bucket: every resample is that value, so the interval is the value itself.
    assert.deepEqual([ref.hour[0].ciLow, ref.hour[0].ciHigh], [10, 10]);
    assert.deepEqual(profiles(table, rows, metricCol, undefined, 2, { seed: 3 }), { shown, datasources: 2 });
  });

  it('Profiles difference: B − A paired by period, with the profiles of each side', () => {
    const d = differenceProfiles(table, rows, { group: 'REF', metricCol }, { group: 'SENSOR', metricCol });
    assert.ok(d);
    // SENSOR = 1.2·(10 + 10h) + 2, REF = 10, 20, 30, —, 50, 60: paired hours 0, 1, 2, 4, 5.
    assert.equal(d.pairs, 5);
    assert.equal(d.difference.group, 'SENSOR − REF');
    const expected = [0, 1, 2, 4, 5].map((h) => 1.2 * (10 + 10 * h) + 2 - [10, 20, 30, 0, 50, 60][h]);
    assert.deepEqual(
      [0, 1, 2, 4, 5].map((h) => Number(d.difference.hour[h].mean.toFixed(9))),
      expected.map((v) => Number(v.toFixed(9))),
    );
    assert.equal(d.difference.hour[3].n, 0);
    assert.equal(d.a.group, 'REF');
    assert.equal(d.b.hour[3].n, 1, "a side's own profile keeps its unpaired hours");
    // Two metrics of one datasource are named by their columns.
    const same = differenceProfiles(table, rows, { group: 'REF', metricCol }, { group: 'REF', metricCol });
    assert.equal(same?.difference.group, `${LABEL}.value − ${LABEL}.value`);
    assert.equal(differenceProfiles(table, rows, { group: 'NONE', metricCol }, { group: 'REF', metricCol }), undefined);
  });

  it('the collocation scatter: one range for both axes, from 0 to 5 % above the highest of either (issue 30 item 16)', () => {
    // Reference up to 60, sensor up to 74 (1.2 × 60 + 2, the hourly fixture's relation): both axes 0 … 74 + 3.7.
    const [lo, hi] = scatterRange([10, 20, 60], [14, 26, 74]);
    assert.equal(lo, 0);
    assert.ok(Math.abs(hi - 77.7) < 1e-9, String(hi));
    // A negative value (a sensor's offset) lowers both axes; empty values are left out; nothing gives [0, 1].
    assert.deepEqual(scatterRange([-2, 8], [Number.NaN, 18]), [-2, 18 + 0.05 * 20]);
    assert.deepEqual(scatterRange([], []), [0, 1]);
  });

  it('a result offers the Map only with locationLatitude and locationLongitude number columns', () => {
    const num = (name: string) => ({ name, kind: 'number' as const, values: Float64Array.of(1) });
    assert.equal(locationColumns({ rowCount: 1, columns: [num('avg_pm')] }), undefined);
    assert.equal(locationColumns({ rowCount: 1, columns: [num('locationLatitude')] }), undefined);
    const located = locationColumns({ rowCount: 1, columns: [num('locationLatitude'), num('locationLongitude')] });
    assert.equal(located?.lon.name, 'locationLongitude');
  });
});
