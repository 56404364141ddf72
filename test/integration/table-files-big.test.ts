// Big table files in the Measurements Table editor, in the real host: a csv.gz of a few hundred MB
// (generated here, deleted after) shows its first rows, counts every row and keeps memory bounded; a
// Parquet file written by DuckDB with many row groups (as the service's and users' files are) opens too.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import * as vscode from 'vscode';
import { cellText, columnByName } from '../../src/core/table/table';
import type { TableFileEditor } from '../../src/extension/table/table-editor';
import { api, bigCsvChunks, hostSampler, openTableFile } from './helpers';

const mb = (n: number) => Math.round(n / 1024 / 1024);

/** Gzips about `bytes` of csv-wide text (service-style columns) into `file`; returns its row count. */
async function writeBigCsvGz(file: string, bytes: number): Promise<number> {
  const count = { rows: 0 };
  await pipeline(Readable.from(bigCsvChunks(bytes, count)), createGzip({ level: 1 }), fs.createWriteStream(file));
  return count.rows;
}

describe('Measurements Table editor: a big csv.gz and a multi-row-group DuckDB Parquet', function () {
  this.timeout(180_000);
  let dir: string;
  const maxRows = 100_000;
  before(async () => {
    await api();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-table-big-'));
    await vscode.workspace.getConfiguration('measurements.tableFile').update('maxRows', maxRows, true);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('measurements.tableFile').update('maxRows', undefined, true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a csv.gz of 300 MB (unpacked): the first rows shown, every row counted, memory bounded', async () => {
    const gz = path.join(dir, 'big.csv.gz');
    const t0 = performance.now();
    const rows = await writeBigCsvGz(gz, 300 * 1024 * 1024);
    const writtenMs = performance.now() - t0;
    const memory = hostSampler();
    try {
      const { countedWhenHandedOver, shown, read, firstMs, totalMs } = await openTableFile(gz);
      console.log(
        `      csv.gz ${mb(read.bytes)} MB packed, ${rows.toLocaleString('en-US')} rows (written in ${Math.round(writtenMs)} ms): first ${maxRows} shown after ${Math.round(firstMs)} ms, counted after ${Math.round(totalMs)} ms; memory grew at most ${mb(memory.grew())} MB`,
      );
      assert.equal(read.format, 'csv.gz');
      assert.equal(shown.rowCount, maxRows, 'the first rows are shown');
      assert.equal(read.table.rowCount, maxRows);
      const ds = columnByName(read.table, 'datasourceId');
      assert.ok(ds, 'service columns read');
      assert.equal(cellText(ds, 0), 'D0');
      assert.equal(cellText(ds, 51), 'D1');
      assert.equal(read.totalRows, rows, 'every row of the file counted');
      assert.equal(countedWhenHandedOver, false, 'the first rows went to the view before the rest was counted');
      assert.ok(memory.grew() < 160 * 1024 * 1024, `memory grew ${mb(memory.grew())} MB`);
    } finally {
      memory.stop();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      fs.rmSync(gz, { force: true });
    }
  });

  it('a Parquet file DuckDB wrote with many row groups: the first rows shown, every row counted', async () => {
    const pq = path.join(dir, 'duck.parquet');
    const total = 2_000_000;
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    let rowGroups = 0;
    try {
      await conn.run(
        `COPY (SELECT 'D' || (i % 50) AS datasourceId,
                      TIMESTAMPTZ '2026-01-01 00:00:00+00' + i * INTERVAL 1 MINUTE AS "time",
                      (i % 997)::DOUBLE / 10 AS "pm2_5ConcMass.value",
                      'valid' AS "pm2_5ConcMass.status"
               FROM range(${total}) t(i))
         TO '${pq.replace(/'/g, "''")}' (FORMAT parquet, ROW_GROUP_SIZE 100000)`,
      );
      const reader = await conn.runAndReadAll(
        `SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${pq.replace(/'/g, "''")}')`,
      );
      rowGroups = Number(reader.getRowObjects()[0].n);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    assert.ok(rowGroups >= 10, `${rowGroups} row groups`);
    const memory = hostSampler();
    try {
      const started = performance.now();
      const editor = await vscode.commands.executeCommand<TableFileEditor>(
        'measurements.openFileAsTable',
        vscode.Uri.file(pq),
      );
      const shown = await editor.view.shown;
      const read = await editor.loaded;
      console.log(
        `      DuckDB Parquet ${mb(read.bytes)} MB, ${rowGroups} row groups, ${total.toLocaleString('en-US')} rows: shown and counted after ${Math.round(performance.now() - started)} ms; memory grew at most ${mb(memory.grew())} MB`,
      );
      assert.equal(read.format, 'parquet');
      assert.equal(read.totalRows, total, 'the row count from the footer');
      assert.equal(shown.rowCount, maxRows);
      assert.equal(read.table.rowCount, maxRows);
      const ds = columnByName(read.table, 'datasourceId');
      assert.ok(ds);
      assert.equal(cellText(ds, 0), 'D0');
      assert.equal(cellText(ds, 99_999), `D${99_999 % 50}`);
      const value = columnByName(read.table, 'pm2_5ConcMass.value');
      assert.ok(value);
      assert.equal(cellText(value, 15), '1.5');
      assert.ok(memory.grew() < 400 * 1024 * 1024, `memory grew ${mb(memory.grew())} MB`);
    } finally {
      memory.stop();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      fs.rmSync(pq, { force: true });
    }
  });
});
