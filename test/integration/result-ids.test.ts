// Storage hygiene of full results in the real host: a `follow every` cell over the saved-output limit keeps
// exactly one file however often it polls, and a copied cell (same metadata id) never shares, nor on clear
// deletes, its original's file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { codeCell } from '../../src/core/notebook';
import {
  cellFinished,
  eventually,
  type HostEmulator,
  openNotebook,
  runCell,
  startCell,
  startHostEmulator,
  stopHostEmulator,
} from './helpers';

const CONNECTION = 'Result ids emulator';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-result-ids-'));

describe('full results: one file per follow cell, copied cells get their own id', function () {
  this.timeout(120_000);
  let host: HostEmulator;
  let dir: string;
  let ids: string[];
  const settings = () => vscode.workspace.getConfiguration('measurements.notebook');
  const files = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.parquet')) : []);
  /** The cell's full-result file: its output names it by id (never by path), resolved in the result store. */
  const fullResultPath = (cell: vscode.NotebookCell) => {
    const id = cell.outputs.map((o) => o.metadata?.fullResultId).find((p): p is string => typeof p === 'string');
    return id && path.join(dir, `${id}.parquet`);
  };
  /** Clears cell i's outputs as the cell toolbar does: the command acts on the focused cell. */
  async function clearOutputs(nb: vscode.NotebookDocument, i: number) {
    const editor = await vscode.window.showNotebookDocument(nb);
    editor.selections = [new vscode.NotebookRange(i, i + 1)];
    await vscode.commands.executeCommand('notebook.cell.clearOutputs');
  }

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T09:00:00Z');
    dir = host.a.notebooks.controller.results.dir.fsPath;
    fs.rmSync(dir, { recursive: true, force: true });
    await settings().update('savedOutputLimitKB', 1, vscode.ConfigurationTarget.Global);
    ids = host.emu.facts.datasources.slice(0, 3).map((d) => d.datasourceId);
  });

  after(async () => {
    await settings().update('savedOutputLimitKB', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors', { save: false });
    await stopHostEmulator(host);
  });

  it('follow every 1s over the saved-output limit: after several polls, exactly one full-result file', async () => {
    const nb = await openNotebook(path.join(scratch, 'follow.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [codeCell(`follow every 1s\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: minute\nstartTime: -2h`)],
    });
    let writes = 0;
    const seen = new Set<string>();
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook !== nb) return;
      for (const c of e.cellChanges) {
        const p = c.outputs && fullResultPath(c.cell);
        if (p) {
          writes++;
          seen.add(p);
        }
      }
    });
    const before = startCell(nb, 0);
    try {
      for (let poll = 0; poll < 4; poll++) {
        const at = writes;
        await eventually(() => writes > at, `poll ${poll + 1} to replace the output`);
        host.clock.advance(60_000); // a new minute of rows for the next poll
      }
    } finally {
      await vscode.commands.executeCommand('notebook.cell.cancelExecution', {
        ranges: [{ start: 0, end: 1 }],
        document: nb.uri,
      });
      sub.dispose();
    }
    await cellFinished(nb, 0, before);
    assert.ok(writes >= 4, `${writes} outputs with a full result`);
    assert.equal(seen.size, 1, `every poll wrote the same file: ${[...seen].join(', ')}`);
    const file = [...seen][0];
    assert.deepEqual(files(), [path.basename(file)], 'exactly one file in the result folder');
    await clearOutputs(nb, 0);
    await eventually(() => files().length === 0, 'the file to go with the outputs');
  });

  it('a copied cell (same id) gets its own id: runs write two files, clearing one keeps the other', async () => {
    const nb = await openNotebook(path.join(scratch, 'copies.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [codeCell(`recent\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: hour\nstartTime: -12h`)],
    });
    assert.equal((await runCell(nb, 0)).success, true);
    const original = fullResultPath(nb.cellAt(0));
    assert.ok(original && fs.existsSync(original), 'the original has its full result');
    const id = nb.cellAt(0).metadata.id;
    assert.equal(typeof id, 'string');

    // What copy and paste (or Duplicate) gives: the same text, metadata (id included) and outputs.
    const src = nb.cellAt(0);
    const copy = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, src.document.getText(), 'measq');
    copy.metadata = { ...src.metadata };
    copy.outputs = [...src.outputs];
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.insertCells(1, [copy])]);
    await vscode.workspace.applyEdit(edit);
    assert.equal(nb.cellAt(1).metadata.id, id, 'the copy carries the same id');

    // Clearing the copy before it ran: the file is its original's and stays.
    await clearOutputs(nb, 1);
    await eventually(() => nb.cellAt(1).outputs.length === 0, 'the copy cleared');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(fs.existsSync(original), "clearing a copy that never ran keeps the original's file");

    assert.equal((await runCell(nb, 1)).success, true);
    assert.notEqual(nb.cellAt(1).metadata.id, id, 'the copy got a fresh id before it ran');
    assert.equal(nb.cellAt(0).metadata.id, id, 'the original keeps its id');
    const copied = fullResultPath(nb.cellAt(1));
    assert.ok(copied && copied !== original && fs.existsSync(copied), 'the copy has its own file');
    assert.equal((await runCell(nb, 0)).success, true);
    assert.equal(fullResultPath(nb.cellAt(0)), original, 'the original still writes its own file');
    assert.deepEqual(files().sort(), [path.basename(original), path.basename(copied)].sort());

    await clearOutputs(nb, 1);
    await eventually(() => !fs.existsSync(copied), "the copy's file to go with its outputs");
    assert.ok(fs.existsSync(original), "the original's file stays");
  });
});
