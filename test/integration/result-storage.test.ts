// Full results of over-limit outputs in the real extension host: one file per cell (a re-run replaces
// it), deleted with the cell's outputs or the cell, and the folder capped by a setting.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { codeCell } from '../../src/core/notebook';
import type { MeasurementsApi } from '../../src/extension/extension';
import { eventually, type HostEmulator, openNotebook, startHostEmulator, stopHostEmulator } from './helpers';

const CONNECTION = 'Result storage emulator';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-results-'));

describe('full results of over-limit outputs: one file per cell, cleaned up, capped', function () {
  this.timeout(120_000);
  let a: MeasurementsApi;
  let host: HostEmulator;
  let nb: vscode.NotebookDocument;
  let dir: string;
  const settings = () => vscode.workspace.getConfiguration('measurements.notebook');

  const files = () =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.parquet'))
          .sort()
      : [];
  /** The cell's full-result file: its output names it by id (never by path), resolved in the result store. */
  const fullResultPath = (i: number) => {
    const id = nb
      .cellAt(i)
      .outputs.map((o) => o.metadata?.fullResultId)
      .find((p): p is string => typeof p === 'string');
    return id && path.join(dir, `${id}.parquet`);
  };

  async function run(i: number) {
    const before = nb.cellAt(i).executionSummary?.executionOrder ?? 0;
    await vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: i, end: i + 1 }],
      document: nb.uri,
    });
    await eventually(() => {
      const s = nb.cellAt(i).executionSummary;
      return (s?.executionOrder ?? 0) > before && s?.success === true && fullResultPath(i);
    }, `cell ${i} to finish with a full result file`);
  }

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T09:00:00Z');
    a = host.a;
    dir = a.notebooks.controller.results.dir.fsPath;
    fs.rmSync(dir, { recursive: true, force: true });
    await settings().update('savedOutputLimitKB', 1, vscode.ConfigurationTarget.Global);
    const ids = host.emu.facts.datasources.slice(0, 3).map((d) => d.datasourceId);
    const cell = (h: number) => `recent\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: hour\nstartTime: -${h}h`;
    nb = await openNotebook(path.join(scratch, 'big.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [codeCell(cell(12)), codeCell(cell(6))],
    });
  });

  after(async () => {
    await settings().update('savedOutputLimitKB', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('resultStorageLimitMB', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors', { save: false });
    await stopHostEmulator(host);
  });

  it('a re-run replaces the cell’s file instead of adding one', async () => {
    await run(0);
    const first = fullResultPath(0);
    assert.deepEqual(files(), [path.basename(first as string)]);
    await run(0);
    assert.equal(fullResultPath(0), first);
    assert.deepEqual(files(), [path.basename(first as string)], 'still one file');
  });

  it('clearing the cell’s outputs deletes its file', async () => {
    const file = fullResultPath(0) as string;
    await vscode.commands.executeCommand('notebook.cell.clearOutputs', {
      ranges: [{ start: 0, end: 1 }],
      document: nb.uri,
    });
    await eventually(() => !fs.existsSync(file), 'the file to be deleted with the outputs');
  });

  it('deleting the cell deletes its file', async () => {
    await run(0);
    const file = fullResultPath(0) as string;
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(0, 1))]);
    await vscode.workspace.applyEdit(edit);
    await eventually(() => !fs.existsSync(file), 'the file to be deleted with its cell');
  });

  it('over the storage limit the oldest files go first; the newest always stays', async () => {
    await run(0); // the former second cell
    const older = fullResultPath(0) as string;
    await settings().update('resultStorageLimitMB', 0.000001, vscode.ConfigurationTarget.Global);
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [
      vscode.NotebookEdit.insertCells(1, [
        new vscode.NotebookCellData(vscode.NotebookCellKind.Code, nb.cellAt(0).document.getText(), 'measq'),
      ]),
    ]);
    await vscode.workspace.applyEdit(edit);
    await run(1);
    const newer = fullResultPath(1) as string;
    assert.notEqual(newer, older);
    assert.ok(fs.existsSync(newer), 'the file just written stays');
    assert.ok(!fs.existsSync(older), 'the older file was deleted to fit the limit');
  });

  it('a symbolic link planted at a cell’s full-result file is refused, not written through', async () => {
    await settings().update('resultStorageLimitMB', undefined, vscode.ConfigurationTarget.Global);
    await run(0);
    const file = fullResultPath(0) as string;
    const victim = path.join(scratch, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    fs.rmSync(file);
    fs.symlinkSync(victim, file);
    const before = nb.cellAt(0).executionSummary?.executionOrder ?? 0;
    await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: nb.uri });
    await eventually(() => {
      const s = nb.cellAt(0).executionSummary;
      return (s?.executionOrder ?? 0) > before && s?.success !== undefined;
    }, 'the re-run to end');
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n', 'the link target is untouched');
    assert.ok(fs.lstatSync(file).isSymbolicLink(), 'the link is left as it was');
    const shown = nb
      .cellAt(0)
      .outputs.flatMap((o) => o.items.map((it) => new TextDecoder().decode(it.data)))
      .join('\n');
    assert.match(shown, /Refusing to write .*: it is a symbolic link/);
    fs.rmSync(file);
  });
});
