// SqlEngine.putTable on the real DuckDB: a Table goes in column by column (data chunks of 2,048 rows,
// text as ENUM codes cast to VARCHAR) and comes back through `query` cell for cell, bit for bit: every
// column kind, empty cells (NaN, decimal empties, codes < 0), unicode, 0, 1 and 2,049 rows, times before
// 1970 and past 2^53 µs, the virtual `X` twin of `X.value`. The expected values are the input's own, by
// the rules putTable documents (times: epoch ms rounded to whole ms, as microseconds).
import assert from 'node:assert/strict';
import { DuckDBInstance, DuckDBTimestampTZValue } from '@duckdb/node-api';
import { EngineQueryError } from '../../../../src/core/api/errors';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { SqlEngine } from '../../../../src/core/sql/engine.node';
import { sqlTypeOf } from '../../../../src/core/sql/put-table.node';
import { DECIMAL_EMPTY, DECIMAL16_EMPTY } from '../../../../src/core/table/decimal';
import { type Column, cellText, isNumeric, numberAt, type Table } from '../../../../src/core/table/table';

const M = 'pm2_5ConcMass1HourMean';
const DAY = 86_400_000;

/** A table of `n` rows with every column kind; its values repeat with the row so any row can be checked. */
function everyKind(n: number): Table {
  const rows = Array.from({ length: n }, (_, i) => i);
  const texts = ['', 'ä', 'naïve café', '東京都 ☁️ 12 µg/m³', 'a much longer text than twelve bytes', 'dup', 'dup'];
  return {
    rowCount: n,
    columns: [
      // Ids: 600 of them (an ENUM past 8 bits), one row in 7 empty.
      {
        name: 'datasourceId',
        kind: 'identifier',
        dict: Array.from({ length: 600 }, (_, i) => `D${String(i).padStart(7, '0')}`),
        codes: Int32Array.from(rows, (i) => (i % 7 === 3 ? -1 : (i * 37) % 600)),
      },
      // Times: before 1970, fractional ms (rounded), an empty one, and past 2^53 µs (year ~2300).
      {
        name: 'time',
        kind: 'time',
        values: Float64Array.from(rows, (i) =>
          i % 11 === 5 ? Number.NaN : i % 13 === 7 ? 10_500_000_000_000.25 : -40 * 365 * DAY + i * 60_000 + (i % 4) / 2,
        ),
      },
      {
        name: `${M}.value`,
        kind: 'number',
        metric: parseCanonicalLabel(M),
        values: Float64Array.from(rows, (i) => (i % 5 === 2 ? Number.NaN : i % 9 === 4 ? -0 : (i * 0.1) / 3 - 7)),
      },
      // Decimal columns (csv text read as scaled integers), 16 and 32 bits, with their empty cells.
      {
        name: 'pm10ConcMass1HourMean.value',
        kind: 'number',
        ints: Int16Array.from(rows, (i) => (i % 6 === 1 ? DECIMAL16_EMPTY : (i % 30000) - 15000)),
        scale: 2,
      },
      {
        name: 'pressure',
        kind: 'number',
        ints: Int32Array.from(rows, (i) => (i % 8 === 6 ? DECIMAL_EMPTY : 100_000_000 + i * 7)),
        scale: 5,
      },
      {
        name: `${M}.status`,
        kind: 'status',
        dict: ['sensor-ready', 'offline'],
        codes: Int16Array.from(rows, (i) => (i % 3 === 2 ? -1 : i % 2)),
      },
      {
        name: `${M}.qcAssessment`,
        kind: 'qcAssessment',
        dict: ['valid', 'invalid'],
        codes: Int32Array.from(rows, (i) => i % 2),
      },
      {
        name: `${M}.qcFlags`,
        kind: 'qcFlags',
        dict: [[], ['spike'], ['spike', 'flatline']],
        codes: Int32Array.from(rows, (i) => (i % 4) - 1),
      },
      // Free text: unicode, the empty text (not empty: a code), a duplicated dictionary text.
      { name: 'note', kind: 'text', dict: texts, codes: Int32Array.from(rows, (i) => (i % 8) - 1) },
      // A text column with no text at all.
      { name: 'nothing', kind: 'text', dict: [], codes: new Int32Array(n).fill(-1) },
    ],
  };
}

/** What DuckDB must hold for a cell: NaN and codes < 0 as null; times as epoch µs (ms rounded) in text. */
function expected(c: Column, row: number): number | string | null {
  if (!isNumeric(c)) return (c.codes[row] < 0 ? null : cellText(c, row)) as string | null;
  const v = numberAt(c, row);
  if (Number.isNaN(v)) return null;
  return c.kind === 'time' ? String(BigInt(Math.round(v)) * 1000n) : v;
}

/**
 * Every cell as DuckDB holds it, column by column: times as epoch µs text, text behind a '=' (a Table
 * holds an empty text as an empty cell; DuckDB's '' and NULL differ), numbers as they come back.
 */
async function held(engine: SqlEngine, name: string, table: Table): Promise<(number | string | null)[][]> {
  const select = table.columns
    .map((c) =>
      c.kind === 'time' ? `'=' || epoch_us("${c.name}")` : isNumeric(c) ? `"${c.name}"` : `'=' || "${c.name}"`,
    )
    .join(', ');
  const back = await engine.query(`SELECT ${select} FROM ${name} ORDER BY rowid`);
  assert.equal(back.rowCount, table.rowCount);
  return back.columns.map((c) =>
    Array.from({ length: back.rowCount }, (_, r) => {
      if (isNumeric(c)) return Number.isNaN(numberAt(c, r)) ? null : numberAt(c, r);
      return c.codes[r] < 0 ? null : cellText(c, r).slice(1);
    }),
  );
}

function assertSameCells(got: (number | string | null)[][], table: Table): void {
  table.columns.forEach((c, i) => {
    for (let r = 0; r < table.rowCount; r++) {
      const want = expected(c, r);
      // Object.is: -0 stays -0, and a double is the same double, not a near one.
      assert.ok(Object.is(got[i][r], want), `${c.name} row ${r}: ${String(got[i][r])} ≠ ${String(want)}`);
    }
  });
}

describe('putTable: a Table into DuckDB column by column', function () {
  this.timeout(60_000);
  let engine: SqlEngine;
  before(async () => {
    engine = await SqlEngine.open();
  });
  after(() => engine.close());

  for (const n of [0, 1, 2047, 2048, 2049, 5000]) {
    it(`${n} rows of every column kind come back cell for cell, bit for bit`, async () => {
      const table = everyKind(n);
      await engine.putTable('t', table);
      assertSameCells(await held(engine, 't', table), table);
    });
  }

  it('keeps the column types: TIMESTAMPTZ, DOUBLE and VARCHAR, and the virtual twin of a metric value', async () => {
    const table = everyKind(3);
    await engine.putTable('typed', table);
    const types = await engine.query(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'typed' ORDER BY ordinal_position",
    );
    const rows = Array.from({ length: types.rowCount }, (_, r) => types.columns.map((c) => cellText(c, r)).join(' '));
    assert.deepEqual(rows, [
      'datasourceId VARCHAR',
      'time TIMESTAMP WITH TIME ZONE',
      `${M}.value DOUBLE`,
      'pm10ConcMass1HourMean.value DOUBLE',
      'pressure DOUBLE',
      `${M}.status VARCHAR`,
      `${M}.qcAssessment VARCHAR`,
      `${M}.qcFlags VARCHAR`,
      'note VARCHAR',
      'nothing VARCHAR',
      `${M} DOUBLE`,
      'pm10ConcMass1HourMean DOUBLE',
    ]);
    const twin = await engine.query(`SELECT count(*) AS n FROM typed WHERE ${M} IS NOT DISTINCT FROM "${M}.value"`);
    assert.equal(numberAt(twin.columns[0] as never, 0), 3);
  });

  it('a time before 1970 and half milliseconds: rounded as Math.round, the instant DuckDB shows', async () => {
    const times = [-1.5, -0.5, 0.5, 2.5, -2_208_988_800_000 + 0.4];
    const table: Table = {
      rowCount: times.length,
      columns: [{ name: 'time', kind: 'time', values: Float64Array.from(times) }],
    };
    await engine.putTable('old', table);
    const back = await engine.query(
      `SELECT epoch_us("time")::VARCHAR AS us, strftime("time", '%Y-%m-%d %H:%M:%S.%f') AS at FROM old ORDER BY rowid`,
    );
    const got = Array.from(
      { length: back.rowCount },
      (_, r) => `${cellText(back.columns[0], r)} ${cellText(back.columns[1], r)}`,
    );
    // Math.round(-1.5) = -1, Math.round(-0.5) = -0, Math.round(0.5) = 1, Math.round(2.5) = 3 (ECMA-262 Math.round).
    assert.deepEqual(got, [
      '-1000 1969-12-31 23:59:59.999000',
      '0 1970-01-01 00:00:00.000000',
      '1000 1970-01-01 00:00:00.001000',
      '3000 1970-01-01 00:00:00.003000',
      '-2208988800000000 1900-01-01 00:00:00.000000',
    ]);
  });

  it('a nulls in one chunk do not carry into the next (a chunk is reused)', async () => {
    const n = 4096 + 10;
    const values = Float64Array.from({ length: n }, (_, i) => (i < 2048 ? Number.NaN : i));
    const codes = Int32Array.from({ length: n }, (_, i) => (i < 2048 ? -1 : 0));
    const table: Table = {
      rowCount: n,
      columns: [
        { name: 'v', kind: 'number', values },
        { name: 'id', kind: 'identifier', dict: ['A'], codes },
      ],
    };
    await engine.putTable('nulls', table);
    const back = await engine.query('SELECT count(v) AS v, count(id) AS id, sum(v) AS s FROM nulls');
    assert.deepEqual(
      back.columns.map((c) => cellText(c, 0)),
      [String(n - 2048), String(n - 2048), String(((2048 + n - 1) * (n - 2048)) / 2)],
    );
  });

  it('refuses a malformed table with SQL_QUERY: a code past its dictionary, a short column, a time no TIMESTAMPTZ holds', async () => {
    const badCode: Table = {
      rowCount: 1,
      columns: [{ name: 'id', kind: 'identifier', dict: ['A'], codes: Int32Array.of(1) }],
    };
    await assert.rejects(
      engine.putTable('bad', badCode),
      (e) => e instanceof EngineQueryError && /past its dictionary/.test(e.message),
    );
    const short: Table = { rowCount: 3, columns: [{ name: 'v', kind: 'number', values: Float64Array.of(1, 2) }] };
    await assert.rejects(
      engine.putTable('bad', short),
      (e) => e instanceof EngineQueryError && /2 cells for 3 rows/.test(e.message),
    );
    for (const ms of [Number.POSITIVE_INFINITY, 1e300]) {
      const badTime: Table = { rowCount: 1, columns: [{ name: 'time', kind: 'time', values: Float64Array.of(ms) }] };
      await assert.rejects(
        engine.putTable('bad', badTime),
        (e) =>
          e instanceof EngineQueryError && e.code === 'SQL_QUERY' && /outside what a TIMESTAMPTZ holds/.test(e.message),
      );
    }
  });
});

/**
 * The baseline of the speed check: @duckdb/node-api's appender fed one value at a time (appendDouble,
 * appendVarchar, appendTimestampTZ, endRow per row), as its documentation shows and putTable did before.
 */
async function appendValueByValue(table: Table): Promise<number> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    await conn.run(`CREATE TABLE v (${table.columns.map((c) => `"${c.name}" ${sqlTypeOf(c)}`).join(', ')})`);
    const t0 = performance.now();
    const appender = await conn.createAppender('v');
    for (let row = 0; row < table.rowCount; row++) {
      for (const c of table.columns) {
        const v = isNumeric(c) ? numberAt(c, row) : c.codes[row];
        if (isNumeric(c) ? Number.isNaN(v) : v < 0) appender.appendNull();
        else if (c.kind === 'time')
          appender.appendTimestampTZ(new DuckDBTimestampTZValue(BigInt(Math.round(v)) * 1000n));
        else if (isNumeric(c)) appender.appendDouble(v);
        else appender.appendVarchar(cellText(c, row));
      }
      appender.endRow();
    }
    appender.flushSync();
    appender.closeSync();
    return performance.now() - t0;
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** 100,000 rows × 20 shaped like a report: an id, the time, a status, 17 metric values (one in 50 empty). */
function reportShaped(n: number): Table {
  const rows = { length: n };
  const columns: Column[] = [
    {
      name: 'datasourceId',
      kind: 'identifier',
      dict: Array.from({ length: 500 }, (_, i) => `D${String(i).padStart(7, '0')}`),
      codes: Int32Array.from(rows, (_, i) => i % 500),
    },
    {
      name: 'time',
      kind: 'time',
      values: Float64Array.from(rows, (_, i) => 1_767_225_600_000 + Math.floor(i / 500) * 60_000),
    },
    { name: `${M}.status`, kind: 'status', dict: ['sensor-ready'], codes: new Int32Array(n) },
  ];
  for (let c = 0; c < 17; c++)
    columns.push({
      name: `m${c}`,
      kind: 'number',
      values: Float64Array.from(rows, (_, i) => (i % 50 === c ? Number.NaN : (i * (c + 1)) / 7)),
    });
  return { rowCount: n, columns };
}

describe('putTable: speed', function () {
  this.timeout(120_000);
  it('loads 100,000 × 20 at least 2.5× faster than appending value by value (medians of 3, alternating)', async () => {
    const table = reportShaped(100_000);
    const engine = await SqlEngine.open();
    const ours: number[] = [];
    const baseline: number[] = [];
    try {
      for (let k = 0; k < 3; k++) {
        baseline.push(await appendValueByValue(table));
        const t0 = performance.now();
        await engine.putTable('t', table);
        ours.push(performance.now() - t0);
      }
    } finally {
      engine.close();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
    // Measured on the 2-core dev machine at load ~5: value by value 0.9–1.15 s, putTable 190–390 ms (medians
    // 1,005 vs 203 ms: 5×); the per-value putTable before this change: 838 vs 998 ms (1.2×, this fails).
    assert.ok(
      median(ours) * 2.5 < median(baseline),
      `putTable ${median(ours).toFixed(0)} ms vs value by value ${median(baseline).toFixed(0)} ms`,
    );
  });
});
