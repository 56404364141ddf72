// Child process of the table-file benchmark: opens one .csv / .csv.gz / .parquet file the way the
// Measurements Table editor does (core readTableFile: the first maxRows rows kept, the rest counted) and
// prints when the first rows were ready, when the read ended, the rows and the bytes read. Mode `count`:
// the baseline of a Parquet file, DuckDB's count(*) over it (DuckDB loaded inside the timed part).
import { readTableFile } from '../../src/core/sql/file-read.node';

const [mode, file, maxRowsArg] = process.argv.slice(2);

async function read(): Promise<void> {
  const t0 = performance.now();
  let firstMs: number | undefined;
  let bytesRead = 0;
  const r = await readTableFile(file, {
    maxRows: Number(maxRowsArg),
    onFirstRows: () => {
      firstMs = performance.now() - t0;
    },
    onProgress: (done) => {
      bytesRead = Math.max(bytesRead, done);
    },
  });
  const ms = performance.now() - t0;
  // A file with at most maxRows rows (or a Parquet file) has its first rows when the read ends.
  process.stderr.write(
    `@@first_ms=${firstMs ?? ms}\n@@ms=${ms}\n@@rows=${r.table.rowCount}\n@@total_rows=${r.totalRows}\n@@bytes_read=${bytesRead}\n`,
  );
}

async function count(): Promise<void> {
  const t0 = performance.now();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const rows = (await c.runAndReadAll(`SELECT count(*) FROM read_parquet('${file.replace(/'/g, "''")}')`)).getRows();
  process.stderr.write(`@@ms=${performance.now() - t0}\n@@total_rows=${Number(rows[0][0])}\n`);
}

(mode === 'count' ? count() : read()).catch((e) => {
  console.error(e);
  process.exit(1);
});
