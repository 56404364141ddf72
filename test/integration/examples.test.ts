// Bundled examples in the real extension host: Measurements: Open Example opens one by its name (the
// tour and the walkthrough link to it) and nothing else. Opening a notebook with sql cells may load the
// SQL engine (their diagnostics), so this is not part of the activation suite, which runs first.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('bundled examples', () => {
  it('Open Example opens a bundled example by name (the tour links to it); a name not bundled opens nothing', async () => {
    const nb = await vscode.commands.executeCommand<vscode.NotebookDocument>('measurements.openExample', 'air-quality');
    assert.ok(nb, 'the command returns the notebook');
    assert.equal(nb.notebookType, 'measnb');
    assert.match(nb.cellAt(0).document.getText(), /^# Air quality: every view of a result/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    for (const bad of ['../package', 'air-quality.measnb', '/etc/passwd', 42])
      assert.equal(await vscode.commands.executeCommand('measurements.openExample', bad), undefined, String(bad));
  });

  it('Open the Tour opens a tour whose links (relative, to the examples) name files beside it', async () => {
    const tour = await vscode.commands.executeCommand<vscode.NotebookDocument>('measurements.openTour');
    assert.ok(tour, 'the command returns the notebook');
    assert.equal(tour.uri.scheme, 'file', `a file, so that its relative links resolve: ${tour.uri}`);
    const text = tour
      .getCells()
      .map((c) => c.document.getText())
      .join('\n');
    assert.doesNotMatch(text, /\]\(command:/);
    const links = [...text.matchAll(/\]\(([\w-]+\.measnb)\)/g)].map((m) => m[1]);
    assert.deepEqual(links, ['air-quality.measnb', 'compare-data-versions.measnb']);
    for (const link of links) await vscode.workspace.fs.stat(vscode.Uri.joinPath(tour.uri, '..', link));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
