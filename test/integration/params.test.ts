// Notebook parameters in the real extension host: diagnostics, completion and hover of {{name}}; Run All
// with the defaults; Run with Parameters… answered through the real quick input (a bad value refused as
// typed); each output's caption names the values it used.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { codeCell, MIME } from '../../src/core/notebook';
import { cellText, type Table } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import type { RunningEmulator } from '../../src/emulator/index';
import { RUN_WITH_PARAMS_COMMAND } from '../../src/extension/notebook/run-with-params';
import { eventually, type HostEmulator, openNotebook, startHostEmulator, stopHostEmulator } from './helpers';
import { QuickInputDriver } from './quick-input-driver';

const CONNECTION = 'Params test emulator';

describe('notebook parameters in the extension host', function () {
  this.timeout(180_000);
  let host: HostEmulator;
  let emu: RunningEmulator;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-params-'));
  let seq = 0;

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T12:00:30Z');
    ({ emu } = host);
  });
  after(() => stopHostEmulator(host));

  const open = (cells: string[]) =>
    openNotebook(path.join(scratch, `params-${++seq}.measnb`), {
      metadata: { connection: CONNECTION },
      cells: cells.map((t) => codeCell(t)),
    });
  function output(cell: vscode.NotebookCell): { table: Table; notes: string[] } {
    for (const o of cell.outputs) {
      const item = o.items.find((i) => i.mime === MIME.table);
      if (item)
        return { table: decodeTable(item.data), notes: (o.metadata?.measnb as { notes?: string[] })?.notes ?? [] };
    }
    throw new Error(
      `no table output: ${cell.outputs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))).join(' | ')}`,
    );
  }
  const column = (t: Table, name: string) => {
    const c = t.columns.find((x) => x.name === name);
    assert.ok(c, `column ${name}`);
    return Array.from({ length: t.rowCount }, (_, r) => cellText(c, r));
  };
  const finished = (nb: vscode.NotebookDocument, order: number) =>
    eventually(
      () =>
        nb
          .getCells()
          .every((c) => (c.executionSummary?.executionOrder ?? 0) > order && c.executionSummary?.timing?.endTime),
      'every cell to run',
      1200,
    );
  const lastOrder = (nb: vscode.NotebookDocument) =>
    Math.max(0, ...nb.getCells().map((c) => c.executionSummary?.executionOrder ?? 0));

  it('diagnostics, completion after {{ and hover know the params cell', async () => {
    const nb = await open([
      'params\nsite: DABC1234\nstart: -6h',
      'recent\ndatasourceIds: {{sitee}}\nstartTime: {{start}}',
    ]);
    const doc = nb.cellAt(1).document;
    const d = await eventually(
      () => vscode.languages.getDiagnostics(doc.uri).find((x) => x.code === 'unknown-parameter'),
      'the unknown parameter diagnostic',
    );
    assert.match(d.message, /Unknown parameter 'sitee'; did you mean 'site'\?/);
    assert.equal(d.range.start.line, 1);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      d.range,
    );
    assert.deepEqual(
      actions.map((x) => x.title),
      ["Change '{{sitee}}' to '{{site}}'"],
    );
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(2, 13),
    );
    const labels = list.items.filter((i) => i.kind === vscode.CompletionItemKind.Variable).map((i) => i.label);
    assert.deepEqual(labels, ['site', 'start']);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      new vscode.Position(2, 14),
    );
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /start\*\*: time parameter/);
    assert.match(text, /default: -6h/);
  });

  it('Run All uses the defaults; Run with Parameters… asks each value (checked as typed) and the captions name them', async () => {
    const [a, b] = emu.facts.datasources.map((x) => x.datasourceId);
    const nb = await open([
      `params\nsite: ${a}\nstart: -3h\nthreshold: 1.5`,
      'recent as pm\ndatasourceIds: {{site}}\noutputFrequency: hour\nstartTime: {{start}}',
      'sql\nSELECT $site AS site, $threshold * 2 AS t2, count(*) AS n FROM pm',
    ]);
    let before = lastOrder(nb);
    // Run All: every cell through the controller, with the params cell's defaults.
    await vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: 0, end: nb.cellCount }],
      document: nb.uri,
    });
    await finished(nb, before);
    assert.deepEqual(new Set(column(output(nb.cellAt(1)).table, 'datasourceId')), new Set([a]));
    assert.match(
      output(nb.cellAt(1)).notes[0],
      new RegExp(`^parameters: site=${a}, start=-3h \\(2026-11-20T09:00:30.000Z\\)`),
    );
    assert.deepEqual(column(output(nb.cellAt(2)).table, 't2'), ['3']);

    const driver = new QuickInputDriver(host.a);
    try {
      before = lastOrder(nb);
      const ran = vscode.commands.executeCommand<boolean>(RUN_WITH_PARAMS_COMMAND);
      const site = await driver.type(b);
      assert.equal(site.value, b);
      assert.match(String(site.prompt), /^site \(text; default /);
      await driver.type('-2h');
      const threshold = await driver.type('high');
      await eventually(() => threshold.validationMessage, 'a validation message');
      assert.match(String(threshold.validationMessage), /'high' is not a number/);
      threshold.value = '10';
      await new Promise((r) => setTimeout(r, 50));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.equal(await ran, true);
    } finally {
      driver.dispose();
    }
    await finished(nb, before);
    assert.deepEqual(new Set(column(output(nb.cellAt(1)).table, 'datasourceId')), new Set([b]));
    assert.match(output(nb.cellAt(1)).notes[0], new RegExp(`^parameters: site=${b}, start=-2h \\(`));
    const sql = output(nb.cellAt(2));
    assert.deepEqual(column(sql.table, 'site'), [b]);
    assert.deepEqual(column(sql.table, 't2'), ['20']);
    assert.equal(sql.notes[0], `parameters: site=${b}, threshold=10`);
    assert.deepEqual(column(output(nb.cellAt(0)).table, 'value'), [b, '-2h (2026-11-20T10:00:30.000Z)', '10']);
  });
});
