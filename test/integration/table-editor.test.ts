// The Measurements Table editor in the real host: a report CSV with english headers (every row, typed as
// service output), a Parquet file opened the default way, a malformed file (a clear error), and a file of
// a few hundred MB generated here (the first rows, the rest counted, memory bounded).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import { readTableFile } from '../../src/core/sql/file-read.node';
import { writeParquet } from '../../src/core/table/parquet';
import { columnByName, type NumericColumn } from '../../src/core/table/table';
import type { TableFileEditor } from '../../src/extension/table/table-editor';
import { api, bigCsvChunks, eventually, hostSampler, openTableFile } from './helpers';

const FIXTURE = path.resolve(__dirname, '../../test/fixtures/public-node-report-hourly-english.csv');

/** The next editor the Measurements Table provider opens (when a file is opened without the command). */
async function nextEditor(open: () => Thenable<unknown>): Promise<TableFileEditor> {
  const a = await api();
  const opened = new Promise<TableFileEditor>((resolve) => {
    const sub = a.tableEditor.onDidOpen((e) => {
      sub.dispose();
      resolve(e);
    });
  });
  await open();
  return opened;
}

function activeTab(): vscode.TabInputCustom | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom ? input : undefined;
}

describe('Measurements Table editor (local .csv, .csv.gz, .parquet files)', function () {
  this.timeout(240_000);
  let dir: string;
  before(async () => {
    await api();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-table-editor-'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('measurements.tableFile').update('maxRows', undefined, true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Open as Measurements Table on a report CSV: every row, english headers read as service columns', async () => {
    const file = path.join(dir, 'report-english.csv');
    fs.copyFileSync(FIXTURE, file);
    const editor = await vscode.commands.executeCommand<TableFileEditor>(
      'measurements.openFileAsTable',
      vscode.Uri.file(file),
    );
    assert.ok(editor, 'the command resolves with the editor');
    assert.equal(activeTab()?.viewType, 'measurements.csvTable', 'a custom editor tab, not a text editor');
    // The same file open as text is a tab named "report-english.csv": this one says it is the table.
    const tabLabel = () => vscode.window.tabGroups.activeTabGroup.activeTab?.label;
    await eventually(
      () => tabLabel() === 'report-english.csv (table)',
      () => `the tab's label (${tabLabel()})`,
    );
    const read = await editor.loaded;
    const shown = await editor.view.shown;
    assert.equal(read.totalRows, 2904);
    assert.equal(read.table.rowCount, 2904, 'a small file is shown whole');
    assert.deepEqual(shown, { view: 'renderer', rowCount: 2904, columnCount: read.table.columns.length });
    const start = columnByName(read.table, 'Start of Period') as NumericColumn;
    assert.equal(start.kind, 'time');
    assert.equal(start.canonical, 'startOfPeriod');
    assert.ok(Number.isFinite(start.values[0]), 'timestamps are times');
    const lat = columnByName(read.table, 'Location Latitude [deg]') as NumericColumn;
    assert.equal(lat.kind, 'number');
    const value = read.table.columns.find((c) => c.metric && c.name.endsWith(' value')) as NumericColumn;
    assert.ok(value, 'metric columns are recognised from their english labels');
    assert.equal(value.kind, 'number');
    const status = read.table.columns.find((c) => c.name.endsWith(' status'));
    assert.equal(status?.kind, 'status');
    console.log(`      ${read.table.columns.length} columns; first metric: ${value.name} -> ${value.canonical}`);
  });

  it('a .parquet file opens as a table by default (vscode.open), a .csv.gz with Open With', async () => {
    const small = await readTableFile(FIXTURE, { maxRows: 500 });
    const pq = path.join(dir, 'part-0.parquet');
    fs.writeFileSync(pq, writeParquet(small.table));
    const editor = await nextEditor(() => vscode.commands.executeCommand('vscode.open', vscode.Uri.file(pq)));
    assert.equal(activeTab()?.viewType, 'measurements.tableFile');
    const read = await editor.loaded;
    assert.equal(read.format, 'parquet');
    assert.equal((await editor.view.shown).rowCount, 500);
    assert.equal(read.table.columns.length, small.table.columns.length);
    assert.equal((columnByName(read.table, 'Start of Period') as NumericColumn).kind, 'time');

    const gz = path.join(dir, 'report.csv.gz');
    const { gzipSync } = await import('node:zlib');
    fs.writeFileSync(gz, gzipSync(fs.readFileSync(FIXTURE)));
    const gzEditor = await nextEditor(() =>
      vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(gz), 'measurements.tableFile'),
    );
    assert.equal((await gzEditor.loaded).totalRows, 2904);
    assert.equal((await gzEditor.view.shown).rowCount, 2904);
  });

  it('a malformed file or one that is not a table says so (the editor is never blank)', async () => {
    const bad = path.join(dir, 'broken.parquet');
    fs.writeFileSync(bad, 'this is not parquet');
    const editor = await vscode.commands.executeCommand<TableFileEditor>(
      'measurements.openFileAsTable',
      vscode.Uri.file(bad),
    );
    await assert.rejects(editor.loaded, /could not be read as a Parquet table/);
    const other = path.join(dir, 'people.csv');
    fs.writeFileSync(other, 'name,age\nAda,36\nGrace,45\n');
    const generic = await vscode.commands.executeCommand<TableFileEditor>(
      'measurements.openFileAsTable',
      vscode.Uri.file(other),
    );
    const read = await generic.loaded;
    assert.deepEqual(
      read.table.columns.map((c) => [c.name, c.kind]),
      [
        ['name', 'text'],
        ['age', 'number'],
      ],
    );
    assert.equal((await generic.view.shown).rowCount, 2);
  });

  it('a link to /dev/zero or a FIFO says it is not a regular file; the host stays usable', async function () {
    if (process.platform === 'win32') this.skip();
    const zero = path.join(dir, 'zero.csv.gz');
    fs.symlinkSync('/dev/zero', zero);
    const fifo = path.join(dir, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    for (const [file, what] of [
      [zero, 'a device \\(through a symbolic link\\)'],
      [fifo, 'a named pipe \\(FIFO\\)'],
    ]) {
      const editor = await vscode.commands.executeCommand<TableFileEditor>(
        'measurements.openFileAsTable',
        vscode.Uri.file(file),
      );
      await assert.rejects(editor.loaded, new RegExp(`${path.basename(file)} is ${what}, not a regular file`));
    }
    // libuv's threadpool is free: a file read still completes.
    assert.ok((await fs.promises.readFile(FIXTURE)).length > 0);
  });

  it('a small .csv.gz that takes long to read (it expands ~95 times) offers Cancel in a notification', async () => {
    await vscode.workspace.getConfiguration('measurements.tableFile').update('maxRows', 1000, true);
    // Under 16 MiB on disk (the status bar, no notification at first), ~1.3 GB decoded: gzip members of
    // rows of 300 empty cells.
    const rows = Buffer.from(`2026-03-01T00:00:00.000Z${','.repeat(300)}\n`.repeat(4096));
    const member = gzipSync(rows);
    const count = Math.floor((14 * 1024 * 1024) / member.length);
    const file = path.join(dir, 'slow.csv.gz');
    fs.writeFileSync(file, Buffer.concat([gzipSync(`time${',c'.repeat(300)}\n`), ...Array(count).fill(member)]));
    const editor = await vscode.commands.executeCommand<TableFileEditor>(
      'measurements.openFileAsTable',
      vscode.Uri.file(file),
    );
    editor.loaded.catch(() => undefined);
    const first = await Promise.race([
      editor.cancelOffered.then(() => 'offered'),
      editor.loaded.then(
        () => 'read',
        () => 'failed',
      ),
    ]);
    assert.equal(first, 'offered', 'a Cancel is offered while the read goes on');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.workspace.getConfiguration('measurements.tableFile').update('maxRows', undefined, true);
  });

  it('a 250 MB CSV: the first rows at once, the rest counted, memory bounded', async () => {
    const maxRows = 100_000;
    await vscode.workspace.getConfiguration('measurements.tableFile').update('maxRows', maxRows, true);
    const big = path.join(dir, 'big.csv');
    const rows = await writeBigCsv(big, 250 * 1024 * 1024);
    const mb = (n: number) => Math.round(n / 1024 / 1024);
    const sampler = hostSampler();
    try {
      const { countedWhenHandedOver, shown, read, openedMs, firstMs, totalMs } = await openTableFile(big);
      const grew = sampler.grew();
      const maxLag = sampler.maxLag();
      console.log(
        `      ${mb(read.bytes)} MB, ${rows.toLocaleString('en-US')} rows: editor open after ${Math.round(openedMs)} ms, first ${maxRows} shown after ${Math.round(firstMs)} ms, counted after ${Math.round(totalMs)} ms; memory grew at most ${mb(grew)} MB; longest host stall ${Math.round(maxLag)} ms`,
      );
      assert.equal(shown.rowCount, maxRows, 'the first rows are shown');
      assert.equal(read.table.rowCount, maxRows);
      assert.equal(read.totalRows, rows, 'every row of the file counted');
      assert.equal(countedWhenHandedOver, false, 'the first rows went to the view before the rest was counted');
      assert.ok(maxLag < 1000, `the extension host stalled ${Math.round(maxLag)} ms`);
      assert.ok(grew < 160 * 1024 * 1024, `memory grew ${mb(grew)} MB reading a ${mb(read.bytes)} MB file`);
    } finally {
      sampler.stop();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      fs.rmSync(big, { force: true });
    }
  });
});

/** Writes a csv-wide file of about `bytes` (service-style columns); returns its row count. */
async function writeBigCsv(file: string, bytes: number): Promise<number> {
  const out = fs.createWriteStream(file);
  const count = { rows: 0 };
  for (const chunk of bigCsvChunks(bytes, count)) if (!out.write(chunk)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return count.rows;
}
