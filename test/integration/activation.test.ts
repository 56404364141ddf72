import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { eventually, extension } from './helpers';

describe('activation in a real extension host', () => {
  it('runs the packaged extension (the folder the .vsix installed)', () => {
    const ext = extension();
    const installed = process.env.MEASNB_INSTALLED_EXTENSION;
    console.log(
      `host: VS Code ${vscode.version} (${vscode.env.appName}), node ${process.version}, ${ext.extensionPath}`,
    );
    if (installed) assert.equal(ext.extensionPath, installed);
  });

  it('is lazy: not active at startup; opening a .measnb file activates it', async () => {
    const ext = extension();
    assert.equal(ext.isActive, false, 'nothing should have activated the extension yet');
    const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'activation.measnb');
    fs.copyFileSync(path.join(ext.extensionPath, 'examples', 'datasources.measnb'), file);
    const t0 = performance.now();
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await eventually(() => ext.isActive, 'activation by the .measnb notebook');
    const wall = performance.now() - t0;
    assert.equal(nb.notebookType, 'measnb', 'the notebook type is registered and owns *.measnb');
    assert.equal(nb.cellAt(1).document.languageId, 'measq');
    console.log(
      `activation: activate() took ${ext.exports.activationMs.toFixed(1)} ms; opening the notebook to active ${wall.toFixed(0)} ms`,
    );
  });

  it('registers every command it contributes', async () => {
    const contributed: string[] = extension().packageJSON.contributes.commands.map(
      (c: { command: string }) => c.command,
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
    assert.ok(contributed.length >= 13);
  });

  it('New Measurement Notebook opens an untitled .measnb notebook with a runnable measq cell', async () => {
    const nb = await vscode.commands.executeCommand<vscode.NotebookDocument>('measurements.newNotebook');
    assert.ok(nb, 'the command returns the notebook');
    assert.equal(nb.notebookType, 'measnb');
    assert.equal(nb.isUntitled, true);
    const code = nb.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code);
    assert.equal(code?.document.languageId, 'measq');
    assert.match(String(code?.document.getText()), /^recent$/m);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
