// 10. A local table file opened as a Measurements Table (core readTableFile, as the custom editor reads
//     it: the first measurements.tableFile.maxRows rows kept, the rest counted), for a ~1 GB csv-wide
//     file, its gzip, and Parquet written by DuckDB (default row groups, and one single row group). Each
//     read runs in a fresh process: time to the first rows, total time, peak RSS; the same read of the
//     ~250 MB file shows whether memory depends on the file's size. Baselines counting the same file's rows:
//     `wc -l`, `zcat | wc -l`, DuckDB count(*). Files are generated once under .artifacts/bench/data.
import fs from 'node:fs';
import path from 'node:path';
import { makeCsv } from './csv-table.bench';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, type Sample, sideBySide } from './lib';

/** The setting's default (measurements.tableFile.maxRows). */
const MAX_ROWS = 250_000;
const SIZES = { small: 1_750_000, large: 7_000_000 }; // rows: ~250 MB and ~1 GB of csv-wide
/** Targets: the first rows on screen within this, whatever the size... */
const FIRST_ROWS_MS = 3000;
/** ...and peak RSS for the 1 GB file at most this much above the 250 MB file's (bounded, not growing with it). */
const RSS_GROWTH_MB = 32;

type Variant = 'csv' | 'csv.gz' | 'parquet' | 'parquet-1rg';

interface Files {
  csv: string;
  'csv.gz': string;
  parquet: string;
  'parquet-1rg': string;
}

async function makeFiles(dir: string, rows: number): Promise<Files> {
  const base = path.join(dir, `table-file-${rows}x20`);
  const files: Files = {
    csv: `${base}.csv`,
    'csv.gz': `${base}.csv.gz`,
    parquet: `${base}.parquet`,
    'parquet-1rg': `${base}-one-row-group.parquet`,
  };
  makeCsv(files.csv, rows);
  if (!fs.existsSync(files['csv.gz'])) {
    await runCommand('gzip', ['-c', files.csv], { stdoutFile: `${files['csv.gz']}.tmp` });
    fs.renameSync(`${files['csv.gz']}.tmp`, files['csv.gz']);
  }
  if (!fs.existsSync(files.parquet) || !fs.existsSync(files['parquet-1rg'])) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
    const from = `read_csv(${q(files.csv)})`;
    for (const [file, options] of [
      [files.parquet, ''],
      [files['parquet-1rg'], `, ROW_GROUP_SIZE ${rows * 2}`],
    ]) {
      if (fs.existsSync(file)) continue;
      await c.run(`COPY (SELECT * FROM ${from}) TO ${q(`${file}.tmp`)} (FORMAT parquet${options})`);
      fs.renameSync(`${file}.tmp`, file);
    }
    c.closeSync();
    db.closeSync();
  }
  return files;
}

interface Read extends Sample {
  firstMs: number;
  rows: number;
  totalRows: number;
  bytesRead: number;
}

export async function tableFileBench(runs: number): Promise<BenchResult[]> {
  const dir = path.resolve('.artifacts/bench/data');
  fs.mkdirSync(dir, { recursive: true });
  console.error('  generating (once) ~250 MB and ~1 GB csv-wide files, their gzip and Parquet ...');
  const small = await makeFiles(dir, SIZES.small);
  const large = await makeFiles(dir, SIZES.large);
  const childJs = await bundledChild('bench/support/table-file-child.ts');

  const read = async (file: string): Promise<Read> => {
    const r = await runCommand(process.execPath, [...NODE_RSS, childJs, 'read', file, String(MAX_ROWS)]);
    const get = (k: string) => Number(new RegExp(`@@${k}=([\\d.]+)`).exec(r.stderr)?.[1]);
    return {
      ms: r.ms,
      maxRssMb: r.maxRssMb,
      firstMs: get('first_ms'),
      rows: get('rows'),
      totalRows: get('total_rows'),
      bytesRead: get('bytes_read'),
    };
  };
  const results: BenchResult[] = [];
  for (const variant of ['csv', 'csv.gz', 'parquet', 'parquet-1rg'] as Variant[]) {
    console.error(`  ${variant} ...`);
    const file = large[variant];
    const rows = new Set<number>();
    const baseline = baselineOf(variant, file, childJs, rows);
    const subject = async () => {
      const r = await read(file);
      if (r.rows !== MAX_ROWS) throw new Error(`${variant}: ${r.rows} rows kept, expected ${MAX_ROWS}`);
      rows.add(r.totalRows);
      return r;
    };
    try {
      const s = await sideBySide(runs, baseline, subject);
      if (rows.size !== 1 || !rows.has(SIZES.large)) throw new Error(`${variant}: row counts ${[...rows]}`);
      const smallRead = await read(small[variant]);
      results.push(resultOf(variant, file, s.baseline, s.subject as Read[], smallRead));
    } catch (e) {
      // One variant failing (e.g. out of memory) is its row's MISS; the others are still measured.
      const note = String(e).split('\n')[0].slice(0, 300);
      results.push({
        name: `table file (${variant})`,
        target: '',
        baseline: '',
        subject: '',
        figures: {},
        pass: false,
        note,
      });
    }
  }
  return results;
}

/** The baseline for a variant: counting the file's rows with the usual tool; the count is checked. */
function baselineOf(variant: Variant, file: string, childJs: string, rows: Set<number>): () => Promise<Sample> {
  const out = path.resolve('.artifacts/bench/table-file-baseline.out');
  return async () => {
    if (variant.startsWith('parquet')) {
      const r = await runCommand(process.execPath, [...NODE_RSS, childJs, 'count', file]);
      rows.add(Number(/@@total_rows=(\d+)/.exec(r.stderr)?.[1]));
      return r;
    }
    const cmd = variant === 'csv' ? 'wc -l < "$1"' : 'zcat "$1" | wc -l';
    const r = await runCommand('sh', ['-c', cmd, 'sh', file], { stdoutFile: out });
    rows.add(Number(fs.readFileSync(out, 'utf8').trim()) - 1); // the header line
    return r;
  };
}

function resultOf(variant: Variant, file: string, baseline: Sample[], subject: Read[], small: Read): BenchResult {
  const b = median(baseline.map((x) => x.ms));
  const p = median(subject.map((x) => x.ms));
  const firstMs = median(subject.map((x) => x.firstMs));
  const rssLarge = median(subject.map((x) => x.maxRssMb ?? Number.NaN));
  const growth = rssLarge - (small.maxRssMb ?? Number.NaN);
  const fileMb = fs.statSync(file).size / 1e6;
  const label = {
    csv: 'wc -l',
    'csv.gz': 'zcat | wc -l',
    parquet: 'DuckDB count(*)',
    'parquet-1rg': 'DuckDB count(*)',
  }[variant];
  const kind = variant === 'parquet-1rg' ? 'parquet, one row group' : variant;
  return {
    name: `table file (${kind}), ${Math.round(fileMb)} MB, first ${MAX_ROWS} of ${SIZES.large} rows`,
    target: `first rows ≤ ${FIRST_ROWS_MS} ms; peak RSS 1 GB − 250 MB file ≤ ${RSS_GROWTH_MB} MB`,
    baseline: `${label} (process wall time)`,
    subject: 'readTableFile in a fresh node process (wall time)',
    baselineMedianMs: b,
    subjectMedianMs: p,
    ratio: p / b,
    figures: {
      fileMb,
      firstRowsMs: firstMs,
      peakRssMb: rssLarge,
      peakRssMbAt250MbFile: small.maxRssMb ?? Number.NaN,
      rssGrowthMb: growth,
      mbRead: median(subject.map((x) => x.bytesRead)) / 1e6,
      baselinePeakRssMb: median(baseline.map((x) => x.maxRssMb ?? Number.NaN)),
    },
    pass: firstMs <= FIRST_ROWS_MS && growth <= RSS_GROWTH_MB,
  };
}
