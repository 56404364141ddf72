// Restricted Mode: view, don't run. The manifest part runs in every host lane; the rest only in the
// lane with Workspace Trust on and this folder untrusted (`MEASNB_HOST_TRUST=untrusted node
// test/host/run-host.mjs`): a notebook opens with its saved outputs, the table editor and completion
// work, but no cell runs, no command sends, downloads or writes, the emulator and DuckDB are not loaded;
// then trust is granted in the workbench (the runner clicks Trust) and the same window runs cells.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { codeCell, MIME, type NotebookOutput } from '../../src/core/notebook';
import { parseCsvWide } from '../../src/core/table/csv-read.node';
import { cellText } from '../../src/core/table/table';
import { decodeTable, encodeTable } from '../../src/core/table/wire';
import type { MeasurementsApi } from '../../src/extension/extension';
import type { TableFileEditor } from '../../src/extension/table/table-editor';
import { MANAGE_TRUST, TRUSTED_COMMANDS } from '../../src/extension/trust';
import type { Notice } from '../../src/extension/ui/notices';
import {
  api,
  eventually,
  extension,
  type HostEmulator,
  openNotebook,
  runCell,
  startCell,
  startHostEmulator,
  stopHostEmulator,
} from './helpers';

const UNTRUSTED_LANE = process.env.MEASNB_HOST_TRUST === 'untrusted';
const ROOT = path.resolve(__dirname, '../..');
const CONNECTION = 'trust-emulator';
const SAVED_CSV = 'datasourceId,name\nds-saved-1,Saved station one\nds-saved-2,Saved station two\n';

const engineLoaded = () => Object.keys(require.cache).some((k) => k.endsWith('duckdb.node'));
const emulatorLoaded = () => Object.keys(require.cache).some((k) => k.endsWith(path.join('dist', 'emulator.js')));

/** The diagnostics DuckDB's parser gave a sql cell. */
const sqlErrors = (cell: vscode.NotebookCell) =>
  vscode.languages.getDiagnostics(cell.document.uri).filter((d) => d.code === 'sql-error');

/** Asks the runner (test/host/run-host.mjs) for a screenshot of the workbench and waits for it. */
async function screenshot(name: string): Promise<void> {
  const file = path.join(ROOT, '.artifacts', 'screenshots', `host-${name}.png`);
  fs.rmSync(file, { force: true });
  console.log(`[measnb:screenshot ${name}]`);
  await eventually(() => fs.existsSync(file), `the runner's screenshot ${file}`, 300);
}

/** The notices shown from now on, and a wait for one with the Manage Workspace Trust button. */
function noticesOf(a: MeasurementsApi) {
  const seen: Notice[] = [];
  const sub = a.onDidNotify((n) => seen.push(n));
  const refusals = () => seen.filter((n) => n.actions.includes(MANAGE_TRUST));
  return {
    sub,
    refusals,
    refusal: (part: string, after = 0) =>
      eventually(
        () =>
          refusals()
            .slice(after)
            .find((n) => n.message.includes(part)),
        () => `a Restricted Mode notice naming "${part}" (seen: ${JSON.stringify(seen.map((n) => n.message))})`,
      ),
  };
}

describe("Restricted Mode: an untrusted workspace views, doesn't run", function () {
  this.timeout(300_000);

  it('the manifest: limited support; every command that sends, downloads or writes is enabled only when trusted', () => {
    const pkg = extension().packageJSON;
    const untrusted = pkg.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    for (const key of [
      'measurements.activeConnection',
      'measurements.downloadFolder',
      'measurements.tableFile.maxRows',
    ]) {
      assert.ok(untrusted.restrictedConfigurations.includes(key), `${key} is a restricted setting`);
    }
    const gated = pkg.contributes.commands
      .filter((c: { enablement?: string }) => c.enablement === 'isWorkspaceTrusted')
      .map((c: { command: string }) => c.command)
      .sort();
    assert.deepEqual(gated, [...TRUSTED_COMMANDS].sort());
  });

  (UNTRUSTED_LANE ? describe : describe.skip)('in an untrusted folder, then trusted (no reload)', () => {
    let a: MeasurementsApi;
    let nb: vscode.NotebookDocument;
    let notices: ReturnType<typeof noticesOf>;
    let host: HostEmulator | undefined;
    let savedBytes: Uint8Array;
    const folder = () => {
      const f = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      if (!f) throw new Error('the lane opens a folder');
      return f;
    };
    before(async () => {
      a = await api();
      notices = noticesOf(a);
    });
    after(async () => {
      notices.sub.dispose();
      await stopHostEmulator(host);
    });

    it('the folder is untrusted and the extension is active in it', () => {
      assert.equal(vscode.workspace.isTrusted, false, 'the lane opened the folder in Restricted Mode');
      assert.equal(extension().isActive, true);
    });

    it('a notebook opens with its saved outputs; running a cell refuses with Manage Workspace Trust and keeps them', async () => {
      savedBytes = encodeTable(await parseCsvWide(SAVED_CSV));
      const saved: NotebookOutput = {
        items: [
          { mime: MIME.table, data: savedBytes },
          { mime: MIME.csv, data: new TextEncoder().encode(SAVED_CSV) },
        ],
      };
      nb = await openNotebook(path.join(folder(), 'restricted.measnb'), {
        metadata: { connection: CONNECTION },
        cells: [
          codeCell('datasources as ds', [saved]),
          codeCell('sql\nSELECT count(*) AS n FROM ds'),
          codeCell(''),
          codeCell('sql\nSELEC count(*) FROM ds'),
        ],
      });
      assert.equal(nb.notebookType, 'measnb', 'opened by the extension, not as JSON text');
      const item = nb.cellAt(0).outputs[0]?.items.find((i) => i.mime === MIME.table);
      assert.ok(item, 'the saved table output is there');
      assert.equal(decodeTable(item.data).rowCount, 2);
      await new Promise((r) => setTimeout(r, 3000)); // the renderer paints; sql diagnostics have run
      await screenshot('restricted-notebook');

      // Run from the workbench: VS Code itself asks for trust first (a modal, refused under the smoke-test
      // driver, as a user's "Don't Trust") and never calls the controller.
      startCell(nb, 0);
      await new Promise((r) => setTimeout(r, 2000));
      // Called anyway (another extension, an API user), the controller refuses with the Manage button.
      const { controller } = a.notebooks.controller;
      await controller.executeHandler([nb.cellAt(0), nb.cellAt(1)], nb, controller);
      const n = await notices.refusal('Running cells');
      assert.equal(n.severity, 'warning');
      await vscode.commands.executeCommand('notifications.showList');
      await new Promise((r) => setTimeout(r, 1000));
      await screenshot('restricted-refusal');
      const after = nb.cellAt(0).outputs[0]?.items.find((i) => i.mime === MIME.table);
      assert.ok(after && Buffer.from(after.data).equals(savedBytes), 'the saved output is kept as it was');
      for (const i of [0, 1])
        assert.equal(nb.cellAt(i).executionSummary?.executionOrder, undefined, `cell ${i} did not run`);
      assert.equal(engineLoaded(), false, 'a notebook with a sql cell did not load DuckDB');
      assert.deepEqual(sqlErrors(nb.cellAt(3)), [], "DuckDB's parser did not check the SQL");
    });

    it('commands that send, download or write refuse; no request is sent and the emulator does not start', async () => {
      for (const id of ['measurements.createReport', 'measurements.refreshReports', 'measurements.runRecentQuery']) {
        const before = notices.refusals().length;
        await vscode.commands.executeCommand(id);
        await notices.refusal('This command', before);
      }
      const local = a.services.connections.localEmulator();
      await assert.rejects(a.services.clients.forConnection(local), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'UNTRUSTED_WORKSPACE');
        assert.match(e.message, /Restricted Mode/);
        return true;
      });
      assert.equal(emulatorLoaded(), false, 'dist/emulator.js was never loaded');
      assert.deepEqual(a.watcher.watched(), [], 'no report is polled');
    });

    it('the table editor opens a csv file and completion offers the verbs', async () => {
      const csv = path.join(folder(), 'saved.csv');
      fs.writeFileSync(csv, SAVED_CSV);
      const editor = await vscode.commands.executeCommand<TableFileEditor>(
        'measurements.openFileAsTable',
        vscode.Uri.file(csv),
      );
      assert.equal((await editor.loaded).totalRows, 2);
      assert.equal((await editor.view.shown).rowCount, 2);
      await vscode.window.showNotebookDocument(nb);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(nb.cellAt(2).document.uri, new vscode.Position(0, 0), 'rec');
      await vscode.workspace.applyEdit(edit);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        nb.cellAt(2).document.uri,
        new vscode.Position(0, 3),
      );
      const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      assert.ok(labels.includes('recent'), `completion offers recent: ${labels.join(', ')}`);
      assert.equal(engineLoaded(), false);
    });

    it('granting trust in the workbench turns everything on in the same extension host', async () => {
      const before = { pid: process.pid, exports: extension().exports };
      await vscode.commands.executeCommand('workbench.trust.manage');
      console.log('[measnb:grant-trust]');
      await eventually(() => vscode.workspace.isTrusted, 'the runner to click Trust', 600);
      // Nothing edited, nothing run: the sql cells are checked by DuckDB once trust is granted.
      await eventually(() => sqlErrors(nb.cellAt(3)).length === 1, 'the DuckDB parse error of cell 3');
      host = await startHostEmulator(CONNECTION, '2026-03-02T12:00:00Z');
      await vscode.window.showNotebookDocument(nb);
      const refusalsBefore = notices.refusals().length;
      assert.equal((await runCell(nb, 0)).success, true, 'the datasources cell ran');
      const item = nb.cellAt(0).outputs[0]?.items.find((i) => i.mime === MIME.table);
      assert.ok(item);
      const ids = new Set(host.emu.facts.datasources.map((d) => d.datasourceId));
      const fresh = decodeTable(item.data);
      const idColumn = fresh.columns.find((c) => c.name === 'datasourceId');
      assert.ok(idColumn && fresh.rowCount > 2 && ids.has(cellText(idColumn, 0)), "the emulator's datasources");
      assert.equal((await runCell(nb, 1)).success, true, 'the sql cell ran');
      assert.ok(engineLoaded(), 'DuckDB loaded once trusted');
      await vscode.commands.executeCommand('measurements.refreshReports');
      assert.equal(notices.refusals().length, refusalsBefore, 'nothing refused once trusted');
      assert.equal(process.pid, before.pid, 'the same extension host (no reload)');
      assert.equal(extension().exports, before.exports, 'the same activation');
      await screenshot('trusted-notebook');
    });
  });
});
