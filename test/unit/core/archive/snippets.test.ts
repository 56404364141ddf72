import assert from 'node:assert/strict';
import { archiveSnippet, SNIPPET_ENGINES } from '../../../../src/core/archive/snippets';

describe('core/archive/snippets: how each engine reads an archive folder', () => {
  const dir = '/data/o\'hara "x"\\y';

  it('DuckDB: one SQL string literal with the partition glob, partitions typed', () => {
    const s = archiveSnippet('duckdb', { dir, frequency: 'hour' });
    assert.match(
      s,
      /^SELECT \* FROM read_parquet\('\/data\/o''hara "x"\\y\/frequency=hour\/\*\/\*\/\*\/\*\.parquet', hive_partitioning = true,/,
    );
    assert.match(s, /hive_types = \{'datasourceId': VARCHAR, 'year': INTEGER, 'month': INTEGER\}/);
  });

  it('Python engines: the path is one Python string literal (quotes and backslashes escaped)', () => {
    const literal = '"/data/o\'hara \\"x\\"\\\\y/frequency=day"';
    for (const engine of ['pandas', 'dask', 'ray'] as const) {
      const s = archiveSnippet(engine, { dir, frequency: 'day' });
      assert.ok(s.includes(literal), `${engine}: ${s}`);
    }
    const spark = archiveSnippet('spark', { dir, frequency: 'day' });
    assert.ok(spark.includes('option("basePath", "/data/o\'hara \\"x\\"\\\\y")'), spark);
    assert.ok(spark.includes(`.parquet(${literal})`), spark);
  });

  it('Athena/Trino: an external table partitioned by datasource, year and month, then MSCK REPAIR', () => {
    const s = archiveSnippet('athena', { dir: 's3://bucket/air quality', frequency: 'minute' });
    assert.match(s, /^CREATE EXTERNAL TABLE air_quality_minute \(/);
    assert.match(s, /`time` timestamp,/);
    assert.match(s, /PARTITIONED BY \(`datasourceId` string, `year` int, `month` int\)/);
    assert.match(s, /LOCATION 's3:\/\/bucket\/air quality\/frequency=minute\/';/);
    assert.match(s, /MSCK REPAIR TABLE air_quality_minute;$/);
  });

  it('has a snippet for every engine', () => {
    for (const e of SNIPPET_ENGINES) assert.ok(archiveSnippet(e, { dir: '/a', frequency: 'hour' }).length > 40, e);
  });
});
