// metricSelect in the real host: a selection the grammar refuses (a bare `only`, a dangling operator) is an
// error in the Problems panel and the cell's output, and running the cell sends nothing. On a real connection
// a label or category the metric catalogue does not know is a warning: the cell is sent, the service decides.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { codeCell } from '../../src/core/notebook';
import { LOCAL_EMULATOR_NAME } from '../../src/extension/connections/connection';
import type { MeasurementsApi } from '../../src/extension/extension';
import { api, eventually, openNotebook, runCell } from './helpers';

const CONNECTION = 'Counting service';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-metric-select-'));

const outputText = (cell: vscode.NotebookCell) =>
  cell.outputs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))).join('\n');

describe('metricSelect the service refuses: an error, and the cell sends nothing', function () {
  this.timeout(60_000);
  let a: MeasurementsApi;
  let server: Server;
  let connectionId: string;
  /** Query requests that reached the service (completion or hover may list datasources: not counted). */
  let queries = 0;

  before(async () => {
    a = await api();
    server = createServer((req, res) => {
      if (req.method === 'POST') queries++;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"counted"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    connectionId = (await a.services.connections.add({ name: CONNECTION, baseUrl: url, org: 'o' }, 'k')).id;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors', { save: false });
    await a.services.connections.remove(connectionId);
    await new Promise((r) => server.close(r));
  });

  it('a bare only, a dangling operator: error diagnostics, a diagnostics output, no request', async () => {
    const cells = [
      'recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only',
      'follow\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only - :pm25',
      'report datasource-measurements\nallDatasources: true\noutputFrequency: day\nstartTime: 2026-11-01\nendTime: 2026-11-02\nmetricSelect: default +',
    ];
    const nb = await openNotebook(path.join(scratch, 'bad.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [
        ...cells.map((c) => codeCell(c)),
        codeCell(`recent\nallDatasources: true\nmetricSelect: only + :pm25 + :internal\noutputFrequency: hour`),
      ],
    });
    for (let i = 0; i < cells.length; i++) {
      const uri = nb.cellAt(i).document.uri;
      const diags = await eventually(() => {
        const d = vscode.languages.getDiagnostics(uri).filter((x) => x.code === 'unknown-metric');
        return d.length > 0 && d;
      }, `the metricSelect diagnostic of cell ${i}`);
      assert.equal(diags[0].severity, vscode.DiagnosticSeverity.Error, cells[i]);
      const summary = await runCell(nb, i);
      assert.equal(summary.success, false, cells[i]);
      const text = outputText(nb.cellAt(i));
      assert.match(text, /The cell has errors; nothing was sent/, text);
      assert.match(
        text,
        /line \d, column \d+: .*('only' must be followed|unknown metric|metric term is missing)/,
        text,
      );
    }
    assert.equal(queries, 0, 'no query reached the service');
    // The valid form real clients send is sent (the counting service answers 500).
    assert.deepEqual(
      vscode.languages.getDiagnostics(nb.cellAt(cells.length).document.uri).filter((d) => d.severity === 0),
      [],
    );
    await runCell(nb, cells.length);
    assert.ok(queries > 0, 'a valid selection is sent');
  });

  it('on a real connection, a misspelt label or unknown category is a warning and the cell is sent', async () => {
    const cells = [
      'recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMasNowcast',
      'recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only :pollutants',
    ];
    const nb = await openNotebook(path.join(scratch, 'catalogue.measnb'), {
      metadata: { connection: CONNECTION },
      cells: cells.map((c) => codeCell(c)),
    });
    for (let i = 0; i < cells.length; i++) {
      const uri = nb.cellAt(i).document.uri;
      const diags = await eventually(() => {
        const d = vscode.languages.getDiagnostics(uri).filter((x) => x.code === 'unknown-metric');
        return d.length > 0 && d;
      }, `the metricSelect warning of cell ${i}`);
      assert.equal(diags[0].severity, vscode.DiagnosticSeverity.Warning, cells[i]);
      assert.match(diags[0].message, /not in the known catalogue; the service will decide/);
      const before = queries;
      await runCell(nb, i);
      assert.ok(queries > before, `cell ${i} was sent`);
    }
  });

  it('switching the notebook to the local emulator (which owns the catalogue) turns the warning into an error', async () => {
    const nb = await openNotebook(path.join(scratch, 'switch.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [codeCell('recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMasNowcast')],
    });
    const uri = nb.cellAt(0).document.uri;
    const severityNow = () =>
      vscode.languages.getDiagnostics(uri).find((x) => x.code === 'unknown-metric')?.severity ?? 'none';
    await eventually(() => severityNow() === vscode.DiagnosticSeverity.Warning, 'a warning on the real connection');
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...nb.metadata, connection: LOCAL_EMULATOR_NAME })]);
    await vscode.workspace.applyEdit(edit);
    await eventually(() => severityNow() === vscode.DiagnosticSeverity.Error, 'an error once the emulator answers');
  });

  it('a misspelt label (a NowCast in a minute cell): the suggestion in the Problems panel and a quick fix', async () => {
    const nb = await openNotebook(path.join(scratch, 'quick-fix.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [codeCell('recent\nallDatasources: true\nmetricSelect: only pm2_5ConcMassNowcst')],
    });
    const doc = nb.cellAt(0).document;
    const diag = await eventually(
      () => vscode.languages.getDiagnostics(doc.uri).find((x) => x.code === 'unknown-metric'),
      'the metricSelect warning',
    );
    assert.match(diag.message, /did you mean pm2_5ConcMassNowcast\? It exists only for hour output, not minute/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diag.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((x) => x.title === "Change 'pm2_5ConcMassNowcst' to 'pm2_5ConcMassNowcast'");
    assert.ok(fix?.edit, JSON.stringify(actions.map((x) => x.title)));
    assert.equal(fix.isPreferred, true);
    await vscode.workspace.applyEdit(fix.edit);
    assert.equal(doc.lineAt(2).text, 'metricSelect: only pm2_5ConcMassNowcast');
  });
});
