// "Copy as snippet" for an archive folder: the few lines each engine needs to read the dataset where it
// lies (Hive partitions frequency=/datasourceId=/year=/month=). Paths are quoted for each language, so
// a folder name with quotes, backslashes or spaces stays one string literal.
import type { OutputFrequency } from '../api/types';

export const SNIPPET_ENGINES = ['duckdb', 'pandas', 'dask', 'ray', 'spark', 'athena'] as const;
export type SnippetEngine = (typeof SNIPPET_ENGINES)[number];

/** A SQL string literal ('' doubles a quote). */
function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** A Python string literal (JSON's escapes are Python's for every character JSON.stringify emits). */
function pythonString(text: string): string {
  return JSON.stringify(text);
}

/** A SQL identifier for Athena/Trino (a table name made of the folder's last name). */
function tableName(dir: string, frequency: OutputFrequency): string {
  const base = dir.split(/[\\/]/).filter(Boolean).pop() ?? 'archive';
  const name = `${base}_${frequency}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return /^[a-z_]/.test(name) ? name : `t_${name}`;
}

/** Joins a folder and a relative path with the folder's own separator (a URL such as s3:// keeps '/'). */
function under(dir: string, rel: string): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return `${dir.replace(/[\\/]+$/, '')}${sep}${rel.split('/').join(sep)}`;
}

interface SnippetOptions {
  /** The archive folder (local path, or an s3:// prefix for Athena/Spark). */
  dir: string;
  frequency: OutputFrequency;
}

/** The snippet for `engine`: code to paste, reading one frequency of the archive with its partitions as columns. */
export function archiveSnippet(engine: SnippetEngine, { dir, frequency }: SnippetOptions): string {
  const base = under(dir, `frequency=${frequency}`);
  const files = under(dir, `frequency=${frequency}/*/*/*/*.parquet`);
  switch (engine) {
    case 'duckdb':
      return [
        `SELECT * FROM read_parquet(${sqlString(files)}, hive_partitioning = true,`,
        `  hive_types = {'datasourceId': VARCHAR, 'year': INTEGER, 'month': INTEGER})`,
        `WHERE datasourceId = 'D123' AND year = 2026 AND month = 3;`,
      ].join('\n');
    case 'pandas':
      return [
        'import pyarrow.dataset as ds',
        `dataset = ds.dataset(${pythonString(base)}, format="parquet", partitioning="hive")`,
        `df = dataset.to_table(filter=(ds.field("year") == 2026) & (ds.field("month") == 3)).to_pandas()`,
      ].join('\n');
    case 'dask':
      return [
        'import dask.dataframe as dd',
        `df = dd.read_parquet(${pythonString(base)}, dataset={"partitioning": "hive"})`,
        'daily = df.groupby("datasourceId").size().compute()',
      ].join('\n');
    case 'ray':
      return [
        'import ray',
        'ray.init()',
        `ds = ray.data.read_parquet(${pythonString(base)}, partitioning=ray.data.datasource.partitioning.Partitioning("hive"))`,
        'print(ds.count())',
      ].join('\n');
    case 'spark':
      return [
        `df = (spark.read.option("basePath", ${pythonString(dir)})`,
        `      .parquet(${pythonString(base)}))`,
        'df.where("year = 2026 AND month = 3").groupBy("datasourceId").count().show()',
      ].join('\n');
    case 'athena':
      return athenaSnippet(dir, frequency);
  }
}

/** Athena/Trino (Hive connector): an external table over one frequency's folder, then its partitions loaded. */
function athenaSnippet(dir: string, frequency: OutputFrequency): string {
  const table = tableName(dir, frequency);
  const time =
    frequency === 'minute' ? '  `time` timestamp,' : '  `startOfPeriod` timestamp,\n  `endOfPeriod` timestamp,';
  return [
    `CREATE EXTERNAL TABLE ${table} (`,
    '  `sourceId` string,',
    '  `sourceType` string,',
    '  `outputFrequency` string,',
    time,
    '  `locationLatitude` double,',
    '  `locationLongitude` double',
    '  -- metric columns as in the files, e.g. `pm2_5ConcMass1HourMean.value` double',
    ')',
    'PARTITIONED BY (`datasourceId` string, `year` int, `month` int)',
    'STORED AS PARQUET',
    `LOCATION ${sqlString(`${under(dir, `frequency=${frequency}`)}/`)};`,
    `MSCK REPAIR TABLE ${table};`,
  ].join('\n');
}
