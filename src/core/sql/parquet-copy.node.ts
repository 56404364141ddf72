// Host code, not a sql cell: DuckDB's own COPY turns a report's CSV into Hive-partitioned Parquet (the
// archive's writer). Columns are typed as our tables type them (core/table/column-kinds: times
// TIMESTAMPTZ in UTC, numbers DOUBLE, the rest VARCHAR), never guessed from the cells. The engine reads
// and writes only inside the folders it is given, with a small memory limit and one thread by default,
// so converting a file of any size keeps the process's memory flat.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { classifyColumn } from '../table/column-kinds';
import { asAllowedDir } from './confine.node';
import { loadApi, quoteIdent, quoteString } from './engine.node';

/** DuckDB's CSV read buffer (default 16 MB) and the Parquet row group: small, so 96 MB of engine memory suffice (wide reports need ~64 MB: a block per column). */
const CSV_BUFFER_BYTES = 1 << 20;
const ROW_GROUP_ROWS = 16_384;
/** Partition files a COPY keeps open at once (each holds a row group of every column in memory). */
const MAX_OPEN_PARTITIONS = 2;

interface ParquetCopyOptions {
  /** The only folders the engine may read and write (the archive's folder). */
  dirs: readonly string[];
  /** DuckDB threads (default 1). */
  threads?: number;
  /** DuckDB memory_limit (default 96MB; measured peak RSS of the archive ~190 MB, flat). */
  memoryLimit?: string;
}

interface CsvColumn {
  name: string;
  type: 'TIMESTAMPTZ' | 'DOUBLE' | 'VARCHAR';
}

/** The DuckDB type of a csv-wide column, as our Table types it. */
export function columnType(header: string): CsvColumn['type'] {
  const { kind } = classifyColumn(header);
  return kind === 'time' ? 'TIMESTAMPTZ' : kind === 'number' ? 'DOUBLE' : 'VARCHAR';
}

export class ParquetCopier {
  private constructor(
    private readonly db: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly tempDir: string,
  ) {}

  static async open(options: ParquetCopyOptions): Promise<ParquetCopier> {
    const lib = await loadApi();
    const root = options.dirs[0];
    if (!root) throw new Error('ParquetCopier needs a folder');
    await mkdir(root, { recursive: true });
    const tempDir = await mkdtemp(join(root, '_duckdb-'));
    const db = await lib.DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      allow_community_extensions: 'false',
      temp_directory: tempDir,
      memory_limit: options.memoryLimit ?? '96MB',
      threads: String(options.threads ?? 1),
      preserve_insertion_order: 'false',
    });
    const conn = await db.connect();
    const dirs = [...new Set([...options.dirs, tempDir].map(asAllowedDir))];
    await conn.run(`SET allowed_directories = [${dirs.map(quoteString).join(', ')}]`);
    await conn.run('SET enable_external_access = false');
    await conn.run("SET TimeZone = 'UTC'");
    // Report files are sorted by datasource: one partition open at a time, flushed per row group.
    await conn.run(`SET partitioned_write_max_open_files = ${MAX_OPEN_PARTITIONS}`);
    await conn.run(`SET partitioned_write_flush_threshold = ${ROW_GROUP_ROWS}`);
    await conn.run('SET lock_configuration = true');
    return new ParquetCopier(db, conn, tempDir);
  }

  /** The header of a CSV file, in order, each with its type (DuckDB reads the first line only). */
  async csvColumns(csv: string): Promise<CsvColumn[]> {
    const r = await this.conn.runAndReadAll(
      `DESCRIBE SELECT * FROM read_csv(${quoteString(csv)}, header = true, all_varchar = true, auto_detect = true)`,
    );
    return r.getRowObjectsJS().map((o) => {
      const name = String(o.column_name);
      return { name, type: columnType(name) };
    });
  }

  /**
   * COPY of the CSV file `csv` into `destDir` as Parquet partitioned by `partitionBy` (a column of
   * the file; Hive folders `<column>=<value>`, the column left out of the files), snappy-compressed as DuckDB writes by default.
   * Returns the rows written.
   */
  async copyPartitioned(csv: string, destDir: string, partitionBy: string, filePrefix: string): Promise<number> {
    const columns = await this.csvColumns(csv);
    if (!columns.some((c) => c.name === partitionBy)) {
      throw new Error(`The file has no ${partitionBy} column.`);
    }
    const struct = columns.map((c) => `${quoteString(c.name)}: ${quoteString(c.type)}`).join(', ');
    const read = `read_csv(${quoteString(csv)}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', columns = {${struct}}, buffer_size = ${CSV_BUFFER_BYTES})`;
    const r = await this.conn.runAndReadAll(
      `COPY (SELECT * FROM ${read}) TO ${quoteString(destDir)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${ROW_GROUP_ROWS}, PARTITION_BY (${quoteIdent(partitionBy)}), FILENAME_PATTERN ${quoteString(`${filePrefix}-{i}`)}, OVERWRITE_OR_IGNORE true)`,
    );
    return Number(r.getRows()[0]?.[0] ?? 0);
  }

  /** Rows per Hive partition value of `column` in the folders under `parts` (read from the files' metadata and names). */
  async rowsPerPartition(parts: string, column: string): Promise<Map<string, number>> {
    const files = quoteString(join(parts, '*', '*.parquet'));
    const r = await this.conn.runAndReadAll(
      `SELECT ${quoteIdent(column)}::VARCHAR AS k, count(*)::DOUBLE AS n FROM read_parquet(${files}, hive_partitioning = true, hive_types_autocast = false) GROUP BY 1`,
    );
    return new Map(r.getRowObjectsJS().map((o) => [String(o.k), Number(o.n)]));
  }

  /** Plain COPY of a CSV file to one Parquet file with DuckDB's own type detection (the benchmark's yardstick). */
  async copyAutodetected(csv: string, dest: string): Promise<void> {
    await this.conn.run(`COPY (SELECT * FROM read_csv(${quoteString(csv)})) TO ${quoteString(dest)} (FORMAT parquet)`);
  }

  close(): void {
    this.conn.closeSync();
    this.db.closeSync();
    void rm(this.tempDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
