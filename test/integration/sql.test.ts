// sql cells in the real extension host, from the installed .vsix: the engine (DuckDB, a native binary
// packaged beside the bundles) loads on the notebook's first sql cell, not at activation; a sql cell
// joins the named results of earlier cells; DuckDB's errors and unknown names show as diagnostics.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { codeCell, MIME } from '../../src/core/notebook';
import { cellText, type Table } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import { systemClock } from '../../src/core/time/clock';
import type { ManualClock, RunningEmulator } from '../../src/emulator/index';
import { COPY_CURL_COMMAND, COPY_PYTHON_COMMAND } from '../../src/extension/notebook/notebook-commands';
import {
  eventually,
  extension,
  type HostEmulator,
  openNotebook,
  runCell,
  startHostEmulator,
  stopHostEmulator,
} from './helpers';

const CONNECTION = 'SQL test emulator';
const engineLoaded = () => Object.keys(require.cache).some((k) => k.endsWith('duckdb.node'));

describe('sql cells in the extension host', function () {
  this.timeout(180_000);
  let host: HostEmulator;
  let emu: RunningEmulator;
  let clock: ManualClock;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-sql-'));
  let seq = 0;

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T12:00:30Z');
    ({ emu, clock } = host);
  });
  after(() => stopHostEmulator(host));

  const open = (cells: string[]) =>
    openNotebook(path.join(scratch, `sql-${++seq}.measnb`), {
      metadata: { connection: CONNECTION },
      cells: cells.map((t) => codeCell(t)),
    });
  const text = (cell: vscode.NotebookCell) =>
    cell.outputs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))).join('\n');
  function table(cell: vscode.NotebookCell): Table {
    const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === MIME.table);
    if (!item) throw new Error(`no table output: ${text(cell)}`);
    return decodeTable(item.data);
  }

  it('the engine is packaged in the .vsix and not loaded at activation', () => {
    const binary = path.join(
      extension().extensionPath,
      'dist/node_modules/@duckdb',
      `node-bindings-${process.platform}-${process.arch}`,
      'duckdb.node',
    );
    assert.ok(fs.existsSync(binary), `${binary} is installed with the extension`);
    assert.equal(engineLoaded(), false, 'activation did not load DuckDB');
  });

  it('a sql cell joins a recent result with a datasources result; errors and unknown names are diagnostics', async () => {
    const id = emu.facts.datasources[1].datasourceId;
    const nb = await open([
      'datasources as ds',
      `recent as pm\ndatasourceIds: ${id}\noutputFrequency: hour\nstartTime: -3h`,
      'sql as joined\n-- rows per datasource, with its name\nSELECT pm.datasourceId, ds.name, count(*) AS n\nFROM pm JOIN ds USING (datasourceId)\nGROUP BY ALL',
      'sql\nSELECT nope FROM joined',
      'sql\nSELECT * FROM missing_name',
    ]);
    for (const i of [0, 1, 2]) assert.equal((await runCell(nb, i)).success, true, text(nb.cellAt(i)));
    assert.ok(engineLoaded(), 'the first sql cell loaded DuckDB');
    const t = table(nb.cellAt(2));
    assert.equal(t.rowCount, 1);
    assert.equal(cellText(t.columns[0], 0), id);
    const list = await new MeasurementsClient({
      clock: systemClock,
      baseUrl: emu.url,
      apiKey: emu.apiKey,
    }).listDatasources(emu.org);
    assert.equal(cellText(t.columns[1], 0), list.datasources.find((x) => x.datasourceId === id)?.orgAnnotations.name);
    assert.ok(Number(cellText(t.columns[2], 0)) >= 2);

    // A DuckDB error: one line, at the cell's line and column.
    assert.equal((await runCell(nb, 3)).success, false);
    const item = nb
      .cellAt(3)
      .outputs.flatMap((o) => o.items)
      .find((i) => i.mime === MIME.error);
    assert.ok(item, text(nb.cellAt(3)));
    const error = JSON.parse(new TextDecoder().decode(item.data)) as { name: string; message: string };
    assert.equal(error.name, 'DuckDB could not run the SQL');
    assert.match(
      error.message,
      /^line 2, column \d+: Binder Error: Referenced column "nope" not found in FROM clause!/,
    );
    assert.ok(!error.message.includes('\n'), 'one line');
    // The editor: an unknown result name, and DuckDB's parser error at its position.
    const missing = nb.cellAt(4).document;
    const d = await eventually(
      () => vscode.languages.getDiagnostics(missing.uri).find((x) => x.code === 'unknown-result-name'),
      'the unknown-name diagnostic',
    );
    assert.deepEqual([d.range.start.line, d.range.start.character], [1, 14]);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(missing.uri, new vscode.Range(1, 0, 1, 27), 'SELECT * FORM joined');
    await vscode.workspace.applyEdit(edit);
    const parse = await eventually(
      () => vscode.languages.getDiagnostics(missing.uri).find((x) => x.code === 'sql-error'),
      'the parser diagnostic',
    );
    assert.match(parse.message, /^Parser Error: syntax error at or near "joined"/);
    assert.deepEqual([parse.range.start.line, parse.range.start.character], [1, 14]);
    // Completion: the notebook's result names, and a result's columns after `name.`.
    const labels = async (line: number, col: number) =>
      (
        await vscode.commands.executeCommand<vscode.CompletionList>(
          'vscode.executeCompletionItemProvider',
          missing.uri,
          new vscode.Position(line, col),
        )
      ).items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    const names = await labels(1, 9);
    for (const n of ['ds', 'pm', 'joined']) assert.ok(names.includes(n), `${n} offered (got ${names.join(', ')})`);
    const edit2 = new vscode.WorkspaceEdit();
    edit2.replace(missing.uri, new vscode.Range(1, 0, 1, 20), 'SELECT joined. FROM joined');
    await vscode.workspace.applyEdit(edit2);
    const cols = await labels(1, 14);
    assert.deepEqual(cols.filter((c) => ['datasourceId', 'name', 'n'].includes(c)).sort(), [
      'datasourceId',
      'n',
      'name',
    ]);
  });

  it('completion after `pm.` offers every column of pm, replacing only what follows the dot, quoted when needed', async () => {
    const id = emu.facts.datasources[1].datasourceId;
    const nb = await open([
      `recent as pm\ndatasourceIds: ${id}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMass1HourMean\nstartTime: -3h`,
      'sql\nSELECT pm. FROM pm',
    ]);
    assert.equal((await runCell(nb, 0)).success, true, text(nb.cellAt(0)));
    const doc = nb.cellAt(1).document;
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(1, 10),
    );
    const columns = list.items.filter((i) => i.kind === vscode.CompletionItemKind.Field);
    const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);
    const names = columns.map(label);
    for (const n of ['datasourceId', 'time', 'pm2_5ConcMass1HourMean.value'])
      assert.ok(names.includes(n), `${n} offered after pm. (got ${names.join(', ')})`);
    for (const i of columns) {
      // The editor filters by the text in the range: it starts after the dot (nothing typed yet), not at `pm.`.
      const range = i.range instanceof vscode.Range ? i.range : i.range?.replacing;
      assert.deepEqual([range?.start.line, range?.start.character, range?.end.character], [1, 10, 10], label(i));
    }
    const value = columns.find((i) => label(i) === 'pm2_5ConcMass1HourMean.value');
    assert.equal(value?.insertText, '"pm2_5ConcMass1HourMean.value"');
    assert.equal(columns.find((i) => label(i) === 'time')?.insertText, 'time');
    // Inserted as the editor would: the cell runs.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(1, 10, 1, 10), String(value?.insertText));
    await vscode.workspace.applyEdit(edit);
    assert.equal(doc.lineAt(1).text, 'SELECT pm."pm2_5ConcMass1HourMean.value" FROM pm');
    assert.equal((await runCell(nb, 1)).success, true, text(nb.cellAt(1)));
    assert.equal(table(nb.cellAt(1)).columns[0].name, 'pm2_5ConcMass1HourMean.value');
  });

  it('a sql cell reads beside its notebook only, runs no COPY; the user setting measurements.sql.allowedDirectories widens it', async () => {
    const dir = path.join(scratch, 'confined');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'beside.csv'), 'k\nnear\n');
    fs.writeFileSync(path.join(scratch, 'secret.csv'), 'k\nfar\n');
    const cells = ["sql\nSELECT * FROM 'beside.csv'", "sql\nSELECT * FROM read_csv('../secret.csv')"];
    const nb = await openNotebook(path.join(dir, 'c.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [...cells, "sql\nCOPY (SELECT 1 AS one) TO 'planted.csv'"].map((t) => codeCell(t)),
    });
    assert.equal((await runCell(nb, 0)).success, true, text(nb.cellAt(0)));
    assert.equal(cellText(table(nb.cellAt(0)).columns[0], 0), 'near');
    assert.equal((await runCell(nb, 1)).success, false);
    assert.match(text(nb.cellAt(1)), /notebook's folder.*measurements\.sql\.allowedDirectories/);
    assert.doesNotMatch(text(nb.cellAt(1)), /far/);
    assert.equal((await runCell(nb, 2)).success, false);
    assert.match(text(nb.cellAt(2)), /COPY is not run in a sql cell/);
    assert.equal(fs.existsSync(path.join(dir, 'planted.csv')), false);
    const config = vscode.workspace.getConfiguration('measurements.sql');
    await config.update('allowedDirectories', [scratch], vscode.ConfigurationTarget.Global);
    try {
      const wide = await openNotebook(path.join(dir, 'wide.measnb'), {
        metadata: { connection: CONNECTION },
        cells: cells.map((t) => codeCell(t)),
      });
      assert.equal((await runCell(wide, 1)).success, true, text(wide.cellAt(1)));
      assert.equal(cellText(table(wide.cellAt(1)).columns[0], 0), 'far');
    } finally {
      await config.update('allowedDirectories', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a named follow is, to sql cells, every row the cell shows (not only the last poll)', async () => {
    const id = emu.facts.datasources[0].datasourceId;
    const nb = await open([
      `follow as tail\ndatasourceIds: ${id}\noutputFrequency: hour\nstartTime: -3h`,
      'sql\nSELECT count(*) AS n FROM tail',
    ]);
    assert.equal((await runCell(nb, 0)).success, true, text(nb.cellAt(0)));
    const first = table(nb.cellAt(0)).rowCount;
    clock.advance(2 * 3_600_000);
    assert.equal((await runCell(nb, 0)).success, true, text(nb.cellAt(0)));
    const shown = table(nb.cellAt(0)).rowCount;
    assert.ok(first > 0 && shown > first, `rows appended (${first} then ${shown})`);
    assert.equal((await runCell(nb, 1)).success, true, text(nb.cellAt(1)));
    assert.equal(cellText(table(nb.cellAt(1)).columns[0], 0), String(shown));
  });

  it('Copy Cell as curl / Python: hidden on sql cells (the menu context lists them, and only them), and say why there is nothing to copy', async () => {
    const id = emu.facts.datasources[0].datasourceId;
    const nb = await open([`recent\ndatasourceIds: ${id}\nstartTime: -1h`, 'sql\nSELECT 1 AS one']);
    const sqlUri = nb.cellAt(1).document.uri.toString();
    await eventually(() => host.a.notebooks.sqlCells.uris.includes(sqlUri), 'the sql cell in the context key');
    assert.ok(!host.a.notebooks.sqlCells.uris.includes(nb.cellAt(0).document.uri.toString()), 'a recent cell is not');
    await vscode.env.clipboard.writeText('before');
    assert.equal(await vscode.commands.executeCommand(COPY_CURL_COMMAND, nb.cellAt(1)), undefined);
    assert.equal(await vscode.commands.executeCommand(COPY_PYTHON_COMMAND, nb.cellAt(1)), undefined);
    assert.equal(await vscode.env.clipboard.readText(), 'before', 'nothing copied');
    // A cell edited into a sql cell joins the list; edited back, it leaves it.
    const edit = new vscode.WorkspaceEdit();
    const doc = nb.cellAt(0).document;
    const all = new vscode.Range(0, 0, doc.lineCount, 0);
    const before = doc.getText();
    edit.replace(doc.uri, all, 'sql\nSELECT 2');
    await vscode.workspace.applyEdit(edit);
    await eventually(() => host.a.notebooks.sqlCells.uris.includes(doc.uri.toString()), 'the edited cell listed');
    const back = new vscode.WorkspaceEdit();
    back.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), before);
    await vscode.workspace.applyEdit(back);
    await eventually(() => !host.a.notebooks.sqlCells.uris.includes(doc.uri.toString()), 'the cell unlisted again');
  });
});
