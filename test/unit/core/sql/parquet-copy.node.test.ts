import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlEngine } from '../../../../src/core/sql/engine.node';
import { columnType, ParquetCopier } from '../../../../src/core/sql/parquet-copy.node';
import { cellText, isNumeric, numberAt } from '../../../../src/core/table/table';

// A report's csv-wide file as the emulator writes it (hour output, canonical labels).
const CSV = [
  'datasourceId,sourceId,sourceType,outputFrequency,startOfPeriod,endOfPeriod,locationLatitude,locationLongitude,pm2_5ConcMass1HourMean.raw,pm2_5ConcMass1HourMean.status,pm2_5ConcMass1HourMean.value',
  'DA,NA,SERVICE_NODE,hour,2026-03-01T00:00:00.000Z,2026-03-01T01:00:00.000Z,37.5,-122.25,4.5,calibrated-ready,5.25',
  'DA,NA,SERVICE_NODE,hour,2026-03-01T01:00:00.000Z,2026-03-01T02:00:00.000Z,37.5,-122.25,,calibration-missing,',
  'DB,NB,REFERENCE_SITE,hour,2026-03-01T00:00:00.000Z,2026-03-01T01:00:00.000Z,40,-105,"7",sensor-ready,7',
  '',
].join('\n');

describe('core/sql/parquet-copy: a report CSV to Hive-partitioned Parquet with DuckDB (the archive writer)', function () {
  this.timeout(60_000);
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-copy-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('types columns as our tables do: times TIMESTAMPTZ, numbers DOUBLE, the rest VARCHAR', () => {
    assert.equal(columnType('startOfPeriod'), 'TIMESTAMPTZ');
    assert.equal(columnType('time'), 'TIMESTAMPTZ');
    assert.equal(columnType('locationLatitude'), 'DOUBLE');
    assert.equal(columnType('pm2_5ConcMass1HourMean.value'), 'DOUBLE');
    assert.equal(columnType('pm2_5ConcMass1HourMean.status'), 'VARCHAR');
    assert.equal(columnType('datasourceId'), 'VARCHAR');
    assert.equal(columnType('sourceType'), 'VARCHAR');
  });

  it("reads the header itself (DuckDB's sniffer held ~16 MB through the COPY): quotes, BOM, CRLF, no line end, bounded", async () => {
    const copier = await ParquetCopier.open({ dirs: [dir] });
    try {
      const header = async (text: string | Buffer) => {
        await writeFile(join(dir, 'h.csv'), text);
        return (await copier.csvColumns(join(dir, 'h.csv'))).map((c) => `${c.name}:${c.type}`);
      };
      assert.deepEqual(await header('\uFEFFdatasourceId,"a,b","x\ny",startOfPeriod\r\nD1,1,2,2026-01-01\r\n'), [
        'datasourceId:VARCHAR',
        'a,b:VARCHAR',
        'x\ny:VARCHAR',
        'startOfPeriod:TIMESTAMPTZ',
      ]);
      assert.deepEqual(await header('datasourceId,locationLatitude'), [
        'datasourceId:VARCHAR',
        'locationLatitude:DOUBLE',
      ]);
      // A header longer than a line may be (a file of zeros, say) is refused, not read whole.
      await assert.rejects(header(Buffer.alloc(17 * 1024 * 1024, 0x61)), /longer than 16 MiB/);
      await assert.rejects(
        header(`${Array.from({ length: 10_001 }, (_, i) => `c${i}`).join(',')}\n`),
        /10,001 columns/,
      );
    } finally {
      copier.close();
    }
  });

  it('writes one folder per datasource, counts its rows, and a sql cell reads it in place (relative to the notebook)', async () => {
    const notebookDir = join(dir, 'nb');
    const parts = join(notebookDir, 'archive', 'parts');
    await mkdir(parts, { recursive: true });
    await writeFile(join(notebookDir, 'r.csv'), CSV);
    const copier = await ParquetCopier.open({ dirs: [notebookDir] });
    try {
      assert.equal(await copier.copyPartitioned(join(notebookDir, 'r.csv'), parts, 'datasourceId', 'part-0'), 3);
      assert.deepEqual((await readdir(parts)).sort(), ['datasourceId=DA', 'datasourceId=DB']);
      assert.deepEqual([...(await copier.rowsPerPartition(parts, 'datasourceId'))].sort(), [
        ['DA', 2],
        ['DB', 1],
      ]);
    } finally {
      copier.close();
    }
    const engine = await SqlEngine.open({ readDirs: [notebookDir] });
    try {
      const t = await engine.query(
        `SELECT datasourceId, typeof(startOfPeriod) AS ty, sum("pm2_5ConcMass1HourMean.value") AS v, count(*) AS n
         FROM read_parquet('archive/parts/*/*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY 1`,
        { baseDir: notebookDir },
      );
      const col = (name: string) => t.columns.find((c) => c.name === name)!;
      assert.equal(cellText(col('datasourceId'), 0), 'DA');
      assert.equal(cellText(col('ty'), 0), 'TIMESTAMP WITH TIME ZONE');
      const num = (name: string) => {
        const c = col(name);
        assert.ok(isNumeric(c), `${name} is a number column`);
        return numberAt(c, 0);
      };
      assert.equal(num('v'), 5.25);
      assert.equal(num('n'), 2);
    } finally {
      engine.close();
    }
  });

  it('reads and writes only inside its folders', async () => {
    const inside = join(dir, 'inside');
    await mkdir(inside);
    await writeFile(join(dir, 'outside.csv'), CSV);
    const copier = await ParquetCopier.open({ dirs: [inside] });
    try {
      await assert.rejects(
        copier.copyPartitioned(join(dir, 'outside.csv'), join(inside, 'p'), 'datasourceId', 'x'),
        /Permission|disabled/,
      );
      await writeFile(join(inside, 'r.csv'), CSV);
      await assert.rejects(
        copier.copyPartitioned(join(inside, 'r.csv'), join(dir, 'out'), 'datasourceId', 'x'),
        /Permission|disabled/,
      );
    } finally {
      copier.close();
    }
  });
});
