// Bundled examples in the real extension host: Measurements: Open Example opens one by its name (the
// tour and the walkthrough link to it) and nothing else. Opening a notebook with sql cells may load the
// SQL engine (their diagnostics), so this is not part of the activation suite, which runs first.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extension } from './helpers';

describe('bundled examples', () => {
  it('Open Example opens a bundled example by name (the tour links to it); a name not bundled opens nothing', async () => {
    const nb = await vscode.commands.executeCommand<vscode.NotebookDocument>('measurements.openExample', 'air-quality');
    assert.ok(nb, 'the command returns the notebook');
    assert.equal(nb.notebookType, 'measnb');
    assert.match(nb.cellAt(0).document.getText(), /^# Air quality: every view of a result/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    for (const bad of ['../package', 'air-quality.measnb', '/etc/passwd', 42])
      assert.equal(await vscode.commands.executeCommand('measurements.openExample', bad), undefined, String(bad));
    const tour = await vscode.workspace.fs.readFile(
      vscode.Uri.joinPath(extension().extensionUri, 'examples/tour.measnb'),
    );
    assert.match(Buffer.from(tour).toString('utf8'), /command:measurements\.openExample\?%5B%22air-quality%22%5D/);
  });
});
