import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extension } from './helpers';

describe('activation in a real extension host', () => {
  it('runs the packaged extension (the folder the .vsix installed)', () => {
    const ext = extension();
    const installed = process.env.MEASNB_INSTALLED_EXTENSION;
    console.log(
      `host: VS Code ${vscode.version} (${vscode.env.appName}), node ${process.version}, ${ext.extensionPath}`,
    );
    if (installed) assert.equal(ext.extensionPath, installed);
  });

  it('is lazy: not active before one of its commands runs, active after', async () => {
    const ext = extension();
    assert.equal(ext.isActive, false, 'nothing should have activated the extension yet');
    const t0 = performance.now();
    await vscode.commands.executeCommand('measurements.showOutput');
    const wall = performance.now() - t0;
    assert.equal(ext.isActive, true);
    console.log(
      `activation: activate() took ${ext.exports.activationMs.toFixed(1)} ms; first command ${wall.toFixed(0)} ms`,
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
});
