import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvToPartitionedParquet, ROW_GROUP_ROWS } from '../../../../src/core/archive/parquet-parts.node';
import { withDuckDb as duckdb } from '../../../support/duckdb-query';

// A report's csv-wide file as the emulator writes it (hour output, canonical labels), with what a hostile or
// odd file may hold: a quoted cell with a comma and a quote, an empty number, a qcFlags column and an
// unknown column (both kept as the text written), a datasource met again after another.
const HEADER =
  'datasourceId,sourceType,startOfPeriod,endOfPeriod,locationLatitude,pm2_5ConcMass1HourMean.value,pm2_5ConcMass1HourMean.status,qcFlags,vendorNote';
const CSV = [
  HEADER,
  'DA,SERVICE_NODE,2026-03-01T00:00:00.000Z,2026-03-01T01:00:00.000Z,37.5,5.25,calibrated-ready,,12',
  'DA,SERVICE_NODE,2026-03-01T01:00:00.000Z,2026-03-01T02:00:00.000Z,37.5,,calibration-missing,"[""drift""]",x',
  'DB,REFERENCE_SITE,2026-03-01T00:00:00.000Z,2026-03-01T01:00:00.000Z,40,7,"ready, ""checked""",,',
  'DA,SERVICE_NODE,2026-03-01T02:00:00.000Z,2026-03-01T03:00:00.000Z,37.5,0.1,calibrated-ready,,',
  '',
].join('\n');

describe('core/archive/parquet-parts: a report CSV to Hive-partitioned Parquet without DuckDB', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-parts-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes a folder per datasource that DuckDB reads with the types our tables have and the cells written', async () => {
    const csv = join(dir, 'r.csv');
    await writeFile(csv, CSV);
    const parts = join(dir, 'parts');
    const rows = await csvToPartitionedParquet(csv, parts, 'datasourceId', 'part-0', new Set(['DA', 'DB', 'DC']));
    assert.deepEqual(
      [...rows],
      [
        ['DA', 3],
        ['DB', 1],
      ],
    );
    // DA met again after DB in the same piece: its rows go together, in order (its full latitude column
    // gathered from rows 0, 1 and 3 into one Float64Array).
    assert.deepEqual(await readdir(join(parts, 'datasourceId=DA')), ['part-0-0.parquet']);
    const glob = join(parts, '*', '*.parquet');
    await duckdb(async (q) => {
      const types = await q(
        `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${glob}', hive_partitioning = false))`,
      );
      assert.deepEqual(Object.fromEntries(types.map((t) => [t.column_name, t.column_type])), {
        sourceType: 'VARCHAR',
        startOfPeriod: 'TIMESTAMP WITH TIME ZONE',
        endOfPeriod: 'TIMESTAMP WITH TIME ZONE',
        locationLatitude: 'DOUBLE',
        'pm2_5ConcMass1HourMean.value': 'DOUBLE',
        'pm2_5ConcMass1HourMean.status': 'VARCHAR',
        qcFlags: 'VARCHAR',
        vendorNote: 'VARCHAR',
      });
      const got = await q(
        `SELECT datasourceId AS id, strftime(startOfPeriod, '%Y-%m-%dT%H:%M:%S.%g') AS t, epoch_us(endOfPeriod) AS e,
                "pm2_5ConcMass1HourMean.value" AS v, "pm2_5ConcMass1HourMean.status" AS s, qcFlags AS f, vendorNote AS n,
                locationLatitude AS lat
         FROM read_parquet('${glob}', hive_partitioning = true) ORDER BY id, t`,
      );
      assert.deepEqual(got, [
        {
          id: 'DA',
          t: '2026-03-01T00:00:00.000',
          e: 1772326800000000n,
          v: 5.25,
          s: 'calibrated-ready',
          f: null,
          n: '12',
          lat: 37.5,
        },
        {
          id: 'DA',
          t: '2026-03-01T01:00:00.000',
          e: 1772330400000000n,
          v: null,
          s: 'calibration-missing',
          f: '["drift"]',
          n: 'x',
          lat: 37.5,
        },
        {
          id: 'DA',
          t: '2026-03-01T02:00:00.000',
          e: 1772334000000000n,
          v: 0.1,
          s: 'calibrated-ready',
          f: null,
          n: null,
          lat: 37.5,
        },
        {
          id: 'DB',
          t: '2026-03-01T00:00:00.000',
          e: 1772326800000000n,
          v: 7,
          s: 'ready, "checked"',
          f: null,
          n: null,
          lat: 40,
        },
      ]);
      // The partition column is the folder's, not in the files (Hive).
      const inFile = await q(`SELECT name FROM parquet_schema('${glob}') WHERE name = 'datasourceId'`);
      assert.equal(inFile.length, 0);
    });
  });

  it('writes a long file in row groups of ROW_GROUP_ROWS at most, every row once, holding no more than a piece', async () => {
    const n = 3 * ROW_GROUP_ROWS + 17;
    const lines = [HEADER];
    for (let i = 0; i < n; i++) {
      const t = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      lines.push(`D${i < n / 2 ? 'A' : 'B'},NODE,${t},${t},1,${i},ok,,`);
    }
    const csv = join(dir, 'long.csv');
    await writeFile(csv, `${lines.join('\n')}\n`);
    const rows = await csvToPartitionedParquet(csv, join(dir, 'p'), 'datasourceId', 'part-0', new Set(['DA', 'DB']));
    assert.equal((rows.get('DA') ?? 0) + (rows.get('DB') ?? 0), n);
    await duckdb(async (q) => {
      const glob = join(dir, 'p', '*', '*.parquet');
      const [s] = await q(
        `SELECT count(*)::INT AS c, sum("pm2_5ConcMass1HourMean.value") AS v FROM read_parquet('${glob}')`,
      );
      assert.deepEqual(s, { c: n, v: (n * (n - 1)) / 2 });
      const [g] = await q(`SELECT max(row_group_num_rows)::INT AS m FROM parquet_metadata('${glob}')`);
      assert.ok((g.m as number) <= ROW_GROUP_ROWS, `row groups of ${g.m} rows`);
    });
  });

  it('refuses a datasource not asked for, a number that is not one, a time that is not one (ARCHIVE_REPORT_CONTENT)', async () => {
    const cases: Array<[string, RegExp]> = [
      [CSV, /not asked for: "DB"/],
      [
        `${HEADER}\nDA,N,2026-03-01T00:00:00.000Z,2026-03-01T01:00:00.000Z,abc,1,ok,,\n`,
        /locationLatitude.*not a number/,
      ],
      [`${HEADER}\nDA,N,yesterday,2026-03-01T01:00:00.000Z,1,1,ok,,\n`, /startOfPeriod.*not a time/],
      [
        `${HEADER}\n../../x,N,2026-03-01T00:00:00.000Z,2026-03-01T01:00:00.000Z,1,1,ok,,\n`,
        /not asked for: "\.\.\/\.\.\/x"/,
      ],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const csv = join(dir, `bad-${i}.csv`);
      await writeFile(csv, text);
      await assert.rejects(
        csvToPartitionedParquet(csv, join(dir, `out-${i}`), 'datasourceId', 'part-0', new Set(['DA'])),
        (e: Error & { code?: string }) => e.code === 'ARCHIVE_REPORT_CONTENT' && message.test(e.message),
        `case ${i}`,
      );
    }
  });
});
