// A .measnb file from someone else, opened in the real extension host: only this extension's output types
// reach VS Code (a script output is dropped with a note), a BOM opens, an old notebook's full-result path
// is trusted only inside the result store; a report's tooltip is Markdown that shows service text as text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { MIME } from '../../src/core/notebook';
import { ReportNode } from '../../src/extension/reports/report-nodes';
import { api } from './helpers';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-files-'));
const lines = (text: string) => text.split('\n');

async function open(name: string, doc: unknown, bom = false): Promise<vscode.NotebookDocument> {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, `${bom ? '\ufeff' : ''}${JSON.stringify(doc, null, 2)}`);
  return await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
}

const text = (item: vscode.NotebookCellOutputItem) => new TextDecoder().decode(item.data);

describe('notebook files: outputs read back, full-result ids, report tooltips', function () {
  this.timeout(60_000);
  before(() => api());
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('a script output (text/html, application/javascript) is dropped with a visible note; a BOM opens', async () => {
    const nb = await open(
      'script.measnb',
      {
        measnb: 1,
        cells: [
          {
            kind: 'code',
            language: 'measq',
            source: ['datasources'],
            outputs: [
              {
                items: [
                  { mime: 'text/html', lines: lines('<script>document.title = "pwned"</script><b>hi</b>') },
                  { mime: 'application/javascript', lines: ['alert(1)'] },
                ],
              },
              {
                items: [
                  { mime: MIME.csv, lines: ['a', '1'] },
                  { mime: 'image/svg+xml', lines: ['<svg onload=x/>'] },
                ],
              },
            ],
          },
        ],
      },
      true,
    );
    await vscode.window.showNotebookDocument(nb);
    const outputs = nb.cellAt(0).outputs;
    const mimes = outputs.flatMap((o) => o.items.map((i) => i.mime));
    assert.ok(!mimes.includes('text/html') && !mimes.includes('application/javascript'), mimes.join(', '));
    assert.deepEqual(mimes, [MIME.text, MIME.csv, MIME.text]);
    assert.match(
      text(outputs[0].items[0]),
      /^2 output item\(s\) of type text\/html, application\/javascript were dropped: this extension shows only its own output types/,
    );
    assert.match(text(outputs[2].items[0]), /^1 output item\(s\) of type image\/svg\+xml were dropped/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("an old notebook's full-result path becomes an id only inside the result store; others are dropped", async () => {
    const results = (await api()).notebooks.controller.results;
    const inStore = path.join(results.dir.fsPath, '0123abcd-c1.parquet');
    const output = (p: string) => ({ items: [{ mime: MIME.text, lines: ['x'] }], metadata: { fullResultPath: p } });
    const nb = await open('old.measnb', {
      measnb: 1,
      cells: [
        {
          source: ['datasources'],
          outputs: [
            output(inStore),
            output(path.join(os.homedir(), '.ssh', 'id_rsa')),
            output('run.results/cell-1.parquet'),
          ],
        },
      ],
    });
    const metas = nb.cellAt(0).outputs.map((o) => o.metadata);
    assert.deepEqual(metas, [{ fullResultId: '0123abcd-c1' }, {}, { fullResultPath: 'run.results/cell-1.parquet' }]);
    assert.equal(results.resolve(nb.uri, '0123abcd-c1'), undefined, "another notebook's id does not resolve here");
  });

  it("a report's tooltip is untrusted Markdown, without HTML, showing the service's text escaped", () => {
    const hostile = '![p](http://host/x.png) [click](command:workbench.action.quit) <img src=x>';
    const node = new ReportNode(
      {
        connectionId: 'c',
        reportId: 'r1',
        record: {
          reportId: 'r1',
          reportStatus: 'failed',
          message: hostile,
          report: 'datasource-measurements',
          urls: [],
          query: {},
        },
        addedAt: '2026-11-21T11:00:00Z',
        lastError: hostile,
        files: [],
      },
      new Date('2026-11-21T12:00:00Z'),
    );
    const tooltip = node.tooltip as vscode.MarkdownString;
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.equal(tooltip.isTrusted, false);
    assert.equal(tooltip.supportHtml, false);
    assert.ok(!tooltip.value.includes('![p](http'), tooltip.value);
    assert.ok(tooltip.value.includes('\\!\\[p\\]\\(http\\:\\/\\/host\\/x\\.png\\)'), tooltip.value);
  });
});
