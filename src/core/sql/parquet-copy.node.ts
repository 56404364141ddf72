// Host code, not a sql cell: DuckDB's own COPY turns a report's CSV into Hive-partitioned Parquet (the
// archive's writer). Columns are typed as our tables type them (core/table/column-kinds: times
// TIMESTAMPTZ in UTC, numbers DOUBLE, the rest VARCHAR), never guessed from the cells. The engine reads
// and writes only inside the folders it is given, with a small memory limit and one thread by default,
// so converting a file of any size keeps the process's memory flat.
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { lineTooLong, MAX_COLUMNS, MAX_LINE_BYTES, tooManyColumns } from '../io/limits';
import { classifyColumn } from '../table/column-kinds';
import { splitCsvRecord } from '../table/csv-shape';
import { asAllowedDir } from './confine.node';
import { loadApi, quoteIdent, quoteString } from './engine.node';

/**
 * DuckDB's CSV read buffer (default 16 MB) and the Parquet row group: small, so 96 MB of engine memory
 * suffice (wide reports need ~64 MB: a block per column). Row groups of 4,096 rather than 16,384 rows:
 * a month of minute data for 7 datasources peaked at 208 MB instead of 245 MB, the conversion as fast.
 */
const CSV_BUFFER_BYTES = 1 << 20;
const ROW_GROUP_ROWS = 4096;
/** How much of a file's start is read at a time for its header. */
const HEADER_CHUNK_BYTES = 64 * 1024;
/** Partition files a COPY keeps open at once (each holds a row group of every column in memory): report files are sorted by datasource. */
const MAX_OPEN_PARTITIONS = 1;

interface ParquetCopyOptions {
  /** The only folders the engine may read and write (the archive's folder). */
  dirs: readonly string[];
  /** DuckDB threads (default 1). */
  threads?: number;
  /** DuckDB memory_limit (default 96MB; the archive's peak RSS, flat: docs/PERFORMANCE.md row 14). */
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

/** The first record of a text file (its header; a line end inside quotes does not end it), at most MAX_LINE_BYTES. */
async function firstRecord(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let quoted = false;
    for (let total = 0; total <= MAX_LINE_BYTES; ) {
      const chunk = Buffer.alloc(HEADER_CHUNK_BYTES);
      const { bytesRead } = await file.read(chunk, 0, chunk.length, total);
      let end = -1;
      for (let i = 0; i < bytesRead && end < 0; i++) {
        if (chunk[i] === 0x22) quoted = !quoted;
        else if (chunk[i] === 0x0a && !quoted) end = i;
      }
      chunks.push(chunk.subarray(0, end < 0 ? bytesRead : end));
      total += bytesRead;
      if (end >= 0 || bytesRead === 0)
        return Buffer.concat(chunks)
          .toString('utf8')
          .replace(/^\uFEFF/, '');
    }
    throw lineTooLong();
  } finally {
    await file.close();
  }
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

  /**
   * The header of a CSV file, in order, each with its type: its first record, read here (DuckDB's sniffer
   * held ~16 MB of buffers for it, which stayed in the process through the COPY).
   */
  async csvColumns(csv: string): Promise<CsvColumn[]> {
    const names = splitCsvRecord(await firstRecord(csv));
    if (names.length > MAX_COLUMNS) throw tooManyColumns(names.length);
    return names.map((name) => ({ name, type: columnType(name) }));
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

  /**
   * Rows per Hive partition value of `column` in the folders under `parts`: each file's row count from its
   * footer (parquet_file_metadata), its value from its folder's name (a scan of the files, even a count,
   * held ~35 MB more than the COPY).
   */
  async rowsPerPartition(parts: string, column: string): Promise<Map<string, number>> {
    const files = quoteString(join(parts, '*', '*.parquet'));
    const r = await this.conn.runAndReadAll(
      `SELECT file_name, num_rows::DOUBLE AS n FROM parquet_file_metadata(${files})`,
    );
    const out = new Map<string, number>();
    for (const o of r.getRowObjectsJS()) {
      const folder = basename(dirname(String(o.file_name)));
      if (!folder.startsWith(`${column}=`)) continue;
      const value = folder.slice(column.length + 1);
      out.set(value, (out.get(value) ?? 0) + Number(o.n));
    }
    return out;
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
