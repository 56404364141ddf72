// PM2.5 corrections: the published formulas on values from their sources, the collocation fits against numpy,
// and the `sql` cell that applies them: its text (method, source, coefficients in comments; quoted names) and
// its numbers on the real DuckDB, equal to the formulas'.
import assert from 'node:assert/strict';
import {
  CORRECTIONS,
  correctedColumnName,
  correctionCell,
  correctValue,
  epa2021,
  epaFireSmoke2021,
  fitDatesText,
  fitLinear,
  fitPairsSql,
  fitWithRh,
  nilson2022,
  parseFitDates,
} from '../../../../src/core/aq/corrections';
import { metricScale } from '../../../../src/core/aq/metric-info';
import { parseMetricLabel } from '../../../../src/core/metrics/labels';
import { parseCell } from '../../../../src/core/query/parse';
import { SqlSession } from '../../../../src/core/sql/session.node';
import { type Column, findColumn, floatValues, isNumeric, type Table } from '../../../../src/core/table/table';

const close = (a: number, b: number, tol = 1e-9) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

describe('core aq corrections: published formulas', () => {
  it('EPA US-wide (Barkjohn et al. 2021, AMT 14:4617): 0.524·PM − 0.0862·RH + 5.75', () => {
    // By hand from the published equation: 0.524·20 − 0.0862·50 + 5.75 = 10.48 − 4.31 + 5.75.
    close(epa2021(20, 50), 11.92);
    // Barkjohn et al. 2022 (Sensors 22:9669), range (1): PAcf1 < 570 is "corrected = 300 µg/m³ at 50 % RH":
    // 0.524·570 − 0.0862·50 + 5.75 = 300.12.
    close(epa2021(570, 50), 300.12);
    assert.ok(Number.isNaN(epa2021(10, Number.NaN)));
  });

  it('the Fire and Smoke Map two-piece form switches at 343 µg/m³ (AirSensor2 pat_applyCorrection "EPA_FASM")', () => {
    close(epaFireSmoke2021(343, 50), 0.524 * 343 - 0.0862 * 50 + 5.75); // 181.172, the US-wide equation
    // Above: 0.46·400 + 3.93×10⁻⁴·400² + 2.97 = 184 + 62.88 + 2.97 (no RH term).
    close(epaFireSmoke2021(400, 50), 249.85);
    close(epaFireSmoke2021(400, Number.NaN), 249.85);
  });

  it('Nilson et al. 2022 (AMT 15:3315): PM / (1 + 0.24/(100/RH − 1)), RH clamped to 30–70 %', () => {
    close(nilson2022(12.4, 50), 10); // 100/50 − 1 = 1: PM / 1.24
    close(nilson2022(15.6, 90), 10); // RH 90 → 70: 0.24 / (100/70 − 1) = 0.56
    close(nilson2022(15.6, 70), 10);
    close(nilson2022(11.028571428571428, 10), 10); // RH 10 → 30: 0.24 / (100/30 − 1) = 0.102857…
    assert.ok(Number.isNaN(nilson2022(10, Number.NaN)));
  });

  // Coefficients from numpy 2.4 on the same data: numpy.linalg.lstsq([1, x], y) and lstsq([1, x, rh], y).
  const x = [5.2, 8.1, 12.5, 20.3, 31.0, 44.7, 15.9, 9.4, 27.2, 60.1];
  const rh = [35, 42, 55, 61, 70, 48, 80, 30, 66, 52];
  const y = [4.1, 6.0, 8.2, 12.9, 17.4, 26.8, 8.7, 7.3, 14.9, 33.0];
  it('the collocation fit y = a + b·x equals numpy.linalg.lstsq', () => {
    const f = fitLinear(x, y);
    close(f.a, 1.4399161476448525);
    close(f.b, 0.5328534066704416);
    assert.equal(f.n, 10);
  });
  it('the fit with an RH term (multiple regression) equals numpy.linalg.lstsq', () => {
    const f = fitWithRh(x, rh, y);
    close(f.a, 3.236401288130747);
    close(f.b, 0.5407269027839982);
    close(f.c ?? Number.NaN, -0.03675398681609748);
    // Collinear RH (a multiple of x): no fit, rather than a made-up one.
    assert.ok(
      Number.isNaN(
        fitWithRh(
          x,
          x.map((v) => 2 * v),
          y,
        ).b,
      ),
    );
  });
});

describe('core aq corrections: the corrected column in the metric catalogue', () => {
  it('is named after the metric with the method, and keeps its unit and EPA scale', () => {
    assert.equal(correctedColumnName('pm2_5ConcMass1HourMean.raw', 'epa2021'), 'pm2_5ConcMass1HourMean_epa2021');
    assert.equal(correctedColumnName('pm2_5ConcMass24HourMean', 'nilson2022'), 'pm2_5ConcMass24HourMean_nilson2022');
    assert.equal(correctedColumnName('my pm', 'fit'), 'my pm_fit');
    const parts = parseMetricLabel('pm2_5ConcMass24HourMean_epa2021');
    assert.deepEqual(parts, {
      quantity: 'pm2_5ConcMass',
      aggregation: '24HourMean',
      index: undefined,
      field: undefined,
      correction: 'epa2021',
    });
    assert.deepEqual(metricScale(parts), { kind: 'concentration', unit: 'µg/m³', pollutant: 'pm2_5' });
    assert.equal(parseMetricLabel('pm2_5ConcMass1HourMean_bogus'), undefined);
  });
});

function table(rows: Array<[string, number, number, number]>, pm: string, rh: string): Table {
  const ids = [...new Set(rows.map((r) => r[0]))];
  const num = (name: string, i: number): Column => ({
    kind: i === 1 ? 'time' : 'number',
    name,
    values: Float64Array.from(rows, (r) => r[i] as number),
  });
  return {
    rowCount: rows.length,
    columns: [
      { kind: 'identifier', name: 'datasourceId', dict: ids, codes: Int32Array.from(rows, (r) => ids.indexOf(r[0])) },
      num('time', 1),
      num(pm, 2),
      num(rh, 3),
    ],
  };
}

const T = Date.UTC(2026, 6, 1);
const H = 3_600_000;
const ROWS: Array<[string, number, number, number]> = [
  ['S1', T, 20, 50],
  ['S1', T + H, 570, 50],
  ['S1', T + 2 * H, 400, 90],
  ['S1', T + 3 * H, 12.4, 10],
  ['S2', T, 8, 65],
  ['S2', T + H, Number.NaN, 40],
  ['S2', T + 2 * H, 30, Number.NaN],
];

/** Runs a correction cell's SQL over `pm` on a real DuckDB; the corrected column's values. */
async function runCorrection(cell: string, input: Table, column: string): Promise<number[]> {
  const parsed = parseCell(cell, { now: new Date(T) });
  assert.equal(parsed.cell?.verb, 'sql', JSON.stringify(parsed.diagnostics));
  const session = new SqlSession();
  try {
    session.hold('pm', { kind: 'table', table: input });
    const out = await session.query(parsed.cell?.sql?.text ?? '');
    const c = findColumn(out, column);
    assert.ok(c && isNumeric(c), `no column ${column}: ${out.columns.map((x) => x.name)}`);
    assert.equal(out.columns.length, input.columns.length + 1, 'every input column is kept');
    return Array.from(floatValues(c));
  } finally {
    session.dispose();
  }
}

describe('core aq corrections: the sql cell', function () {
  this.timeout(60_000);
  const PM = 'pm2_5ConcMass1HourMean.raw';
  const RH = 'relHumidAmbient1HourMean.value';
  const input = table(ROWS, PM, RH);

  it('records the method, its source, DOI and the columns in comments', () => {
    const cell = correctionCell({ method: 'epa2021', input: { result: 'pm' }, pmColumn: PM, rhColumn: RH });
    const lines = cell.split('\n');
    assert.equal(lines[0], 'sql as pm_epa2021');
    assert.match(cell, /^-- Correction: EPA US-wide correction \(Barkjohn et al\. 2021\)$/m);
    assert.match(cell, /doi:10\.5194\/amt-14-4617-2021/);
    assert.match(cell, /^-- Formula: PM2\.5 = 0\.524 \* PM - 0\.0862 \* RH \+ 5\.75$/m);
    assert.equal(
      lines.at(-2),
      'SELECT *, 0.524 * "pm2_5ConcMass1HourMean.raw" - 0.0862 * "relHumidAmbient1HourMean.value" + 5.75 AS "pm2_5ConcMass1HourMean_epa2021"',
    );
    assert.equal(lines.at(-1), 'FROM "pm"');
  });

  for (const method of ['epa2021', 'epafsm2021', 'nilson2022'] as const) {
    it(`${method}: DuckDB gives the formula's numbers, NULL where an input is missing`, async () => {
      const cell = correctionCell({ method, input: { result: 'pm' }, pmColumn: PM, rhColumn: RH });
      const got = await runCorrection(cell, input, `pm2_5ConcMass1HourMean_${method}`);
      const want = ROWS.map((r) => correctValue(method, r[2], r[3]));
      for (const [i, g] of got.entries()) {
        if (Number.isNaN(want[i])) assert.ok(Number.isNaN(g), `row ${i}`);
        else close(g, want[i], 1e-12);
      }
    });
  }

  it('a fit: its coefficients in the comment and the SQL, applied to the chosen datasources only', async () => {
    const fit = {
      ...fitWithRh([5, 8, 12, 20, 31], [35, 42, 55, 61, 70], [4, 6, 8.2, 12.9, 17.4]),
      fittedOn: 'S1 vs R1, 2026-06-01 to 2026-06-30',
    };
    const cell = correctionCell({
      method: 'fitrh',
      input: { result: 'pm' },
      pmColumn: PM,
      rhColumn: RH,
      fit,
      datasources: ['S1'],
    });
    assert.match(cell, new RegExp(`^-- Coefficients: a = ${fit.a}, b = ${fit.b}, c = ${fit.c} \\(n = 5\\)$`, 'm'));
    assert.match(cell, /^-- Fitted on: S1 vs R1, 2026-06-01 to 2026-06-30$/m);
    assert.match(cell, /^-- Applied to: S1 \(other datasources: NULL\)$/m);
    const got = await runCorrection(cell, input, 'pm2_5ConcMass1HourMean_fitrh');
    for (const [i, r] of ROWS.entries()) {
      if (r[0] === 'S1') close(got[i], correctValue('fitrh', r[2], r[3], fit), 1e-12);
      else assert.ok(Number.isNaN(got[i]));
    }
  });

  it('hostile names stay names: quoted identifiers, string literals, comments kept on their line', async () => {
    const pm = 'pm"; DROP TABLE pm; --\nSELECT 1 AS "';
    const rh = "rh' OR 1=1 --";
    const cell = correctionCell({
      method: 'nilson2022',
      input: { result: 'pm' },
      pmColumn: pm,
      rhColumn: rh,
      datasources: ["S1') OR ('1'='1"],
    });
    // The comment lines come first, each a comment; the SQL starts after them (a newline in a name stays
    // inside its quotes, further down).
    const lines = cell.split('\n');
    const select = lines.findIndex((l) => l.startsWith('SELECT *, '));
    assert.equal(select, 6);
    for (const line of lines.slice(1, select)) assert.match(line, /^-- /, 'every comment line stays a comment');
    const hostile = table(ROWS, pm, rh);
    const got = await runCorrection(cell, hostile, `${pm}_nilson2022`);
    for (const g of got) assert.ok(Number.isNaN(g), 'no datasource is named that: every value NULL');
    assert.throws(
      () => correctionCell({ method: 'epa2021', input: { result: 'pm' }, pmColumn: PM }),
      /relative humidity/,
    );
    assert.equal(CORRECTIONS.fit.needsRh, false);
  });
});

describe('core aq corrections: what a fit is made on', function () {
  this.timeout(60_000);
  it('dates: YYYY-MM-DD..YYYY-MM-DD as UTC days, both included; empty: all; anything else an error', () => {
    assert.deepEqual(parseFitDates('2026-06-01..2026-06-30'), {
      fromMs: Date.UTC(2026, 5, 1),
      toMs: Date.UTC(2026, 6, 1),
    });
    assert.deepEqual(parseFitDates('  '), {});
    assert.ok('error' in parseFitDates('2026-02-30..2026-03-01'));
    assert.ok('error' in parseFitDates('2026-06-30..2026-06-01'));
    assert.ok('error' in parseFitDates("2026-06-01'; DROP"));
    assert.equal(fitDatesText(Date.UTC(2026, 5, 1), Date.UTC(2026, 6, 1)), '2026-06-01 to 2026-06-30 (UTC days)');
    assert.equal(fitDatesText(), 'all dates');
  });

  it('pairs the sensor with the reference by time inside the dates, on the real DuckDB', async () => {
    const rows: Array<[string, number, number, number]> = [
      ['S', T, 10, 40],
      ['R', T, 7, 50],
      ['S', T + H, 20, 60],
      ['R', T + H, 12, 50],
      ['S', T + 2 * H, 30, 70], // no reference at this hour
      ['S', T + 26 * H, 40, 70], // the next day: outside the dates
      ['R', T + 26 * H, 25, 70],
    ];
    const session = new SqlSession();
    try {
      session.hold('pm', { kind: 'table', table: table(rows, 'pm.raw', 'rh') });
      const sql = fitPairsSql({
        from: '"pm"',
        timeColumn: 'time',
        datasourceColumn: 'datasourceId',
        sensor: 'S',
        reference: 'R',
        sensorColumn: 'pm.raw',
        referenceColumn: 'pm.raw',
        rhColumn: 'rh',
        fromMs: T,
        toMs: T + 24 * H,
      });
      const out = await session.query(sql);
      const col = (n: string) => {
        const c = findColumn(out, n);
        assert.ok(c && isNumeric(c), n);
        return Array.from(floatValues(c));
      };
      assert.deepEqual(
        [col('x'), col('rh'), col('y')],
        [
          [10, 20],
          [40, 60],
          [7, 12],
        ],
      );
    } finally {
      session.dispose();
    }
  });
});
