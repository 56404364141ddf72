// Export Notebook with Results and Copy Cell as curl / Python, in the real extension host: a notebook
// run against the emulator, exported in every format (its outputs as shown), and a copied request
// that runs in a shell and returns what the cell returned.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { codeCell, MIME, markdownCell } from '../../src/core/notebook';
import { decodeTable } from '../../src/core/table/wire';
import type { RunningEmulator } from '../../src/emulator/index';
import { COPY_CURL_COMMAND, COPY_PYTHON_COMMAND, EXPORT_COMMAND } from '../../src/extension/notebook/notebook-commands';
import { EXTENSION_ID, type HostEmulator, openNotebook, runCell, startHostEmulator, stopHostEmulator } from './helpers';

const CONNECTION = 'Export test emulator';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-export-'));

describe('notebook commands: export with results, copy a cell as a request', function () {
  this.timeout(120_000);
  let host: HostEmulator;
  let emu: RunningEmulator;
  let nb: vscode.NotebookDocument;

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T09:00:00Z');
    emu = host.emu;
    const ids = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
    const cell = `recent\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast\nstartTime: -12h`;
    nb = await openNotebook(path.join(scratch, 'pm.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [
        markdownCell('# Morning PM2.5'),
        codeCell(cell),
        codeCell(`follow every 5m\ndatasourceIds: ${ids[0]}\noutputFrequency: hour\nstartTime: -3h`),
        codeCell(
          `report datasource-measurements\ndatasourceIds: ${ids[0]}\noutputFrequency: hour\nstartTime: -2d\nendTime: today`,
        ),
      ],
    });
    assert.equal((await runCell(nb, 1)).success, true, 'the query cell runs');
  });

  after(() => stopHostEmulator(host));

  const shownTable = () => {
    const item = nb
      .cellAt(1)
      .outputs.flatMap((o) => o.items)
      .find((i) => i.mime === MIME.table);
    assert.ok(item, 'the cell shows a table');
    return decodeTable(item.data);
  };

  it('is in the notebook toolbar and the cell menu', () => {
    const menus = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes.menus;
    assert.ok(menus['notebook/toolbar'].some((m: { command: string }) => m.command === EXPORT_COMMAND));
    const cellMenu = menus['notebook/cell/title'].map((m: { command: string }) => m.command);
    assert.ok(cellMenu.includes(COPY_CURL_COMMAND) && cellMenu.includes(COPY_PYTHON_COMMAND));
    // Hidden on sql cells: they send no request.
    for (const m of menus['notebook/cell/title'] as { command: string; when: string }[]) {
      if (m.command === COPY_CURL_COMMAND || m.command === COPY_PYTHON_COMMAND) {
        assert.match(m.when, /notebookCellResource not in measurements\.sqlCells/);
      }
    }
  });

  it('copies a follow cell as curl: times resolved, key only as $MEASUREMENTS_API_KEY, and it runs', async () => {
    const text = await vscode.commands.executeCommand<string>(COPY_CURL_COMMAND, nb.cellAt(2));
    assert.ok(text, 'copied');
    assert.ok(!text.includes(emu.apiKey), 'never the key');
    assert.match(text, /-H "x-api-key: \$MEASUREMENTS_API_KEY"/i);
    assert.match(text, /^# then POST .*continuation/m, 'says how to continue');
    const body = JSON.parse(/--data-raw '([^']*)'/.exec(text)?.[1] ?? '{}');
    assert.equal(Date.parse(body.startTime), Date.parse('2026-11-20T06:00:00Z'), `-3h: ${body.startTime}`);
    assert.equal(body.replyWithContinuationToken, true);
    const out = await promisify(execFile)('bash', ['-c', text], {
      env: { ...process.env, MEASUREMENTS_API_KEY: emu.apiKey },
    });
    assert.ok((JSON.parse(out.stdout) as { data: unknown[] }).data.length > 0, 'the service answered');
    const py = await vscode.commands.executeCommand<string>(COPY_PYTHON_COMMAND, nb.cellAt(2));
    assert.match(py, /os\.environ\["MEASUREMENTS_API_KEY"\]/);
    assert.ok(py.includes('2026-11-20T06:00:00') && !py.includes(emu.apiKey));
  });

  it('copies a report cell as curl: -2d and today resolved, and run it creates the report', async () => {
    const text = await vscode.commands.executeCommand<string>(COPY_CURL_COMMAND, nb.cellAt(3));
    assert.ok(text, 'copied');
    assert.ok(!text.includes(emu.apiKey), 'never the key');
    const body = JSON.parse(/--data-raw '([^']*)'/.exec(text)?.[1] ?? '{}');
    assert.equal(Date.parse(body.startTime), Date.parse('2026-11-18T09:00:00Z'), `-2d: ${body.startTime}`);
    assert.equal(Date.parse(body.endTime), Date.parse('2026-11-20T00:00:00Z'), `today: ${body.endTime}`);
    assert.ok(!/"-2d"|"today"/.test(text), 'no relative time left');
    const out = await promisify(execFile)('bash', ['-c', text], {
      env: { ...process.env, MEASUREMENTS_API_KEY: emu.apiKey },
    });
    const record = JSON.parse(out.stdout) as { reportId: string; reportStatus: string };
    assert.ok(record.reportId, `the emulator created a report: ${out.stdout}`);
    const py = await vscode.commands.executeCommand<string>(COPY_PYTHON_COMMAND, nb.cellAt(3));
    assert.match(py, /os\.environ\["MEASUREMENTS_API_KEY"\]/);
    assert.ok(!py.includes(emu.apiKey));
  });

  it('exports the notebook with the results it shows: HTML, Markdown and .ipynb', async () => {
    const table = shownTable();
    assert.ok(table.rowCount > 3);
    for (const format of ['html', 'md', 'ipynb'] as const) {
      const target = vscode.Uri.file(path.join(scratch, `pm.${format}`));
      const written = await vscode.commands.executeCommand<vscode.Uri>(EXPORT_COMMAND, { format, target, maxRows: 3 });
      assert.equal(written?.fsPath, target.fsPath);
      const text = fs.readFileSync(target.fsPath, 'utf8');
      assert.ok(text.includes(`Showing the first 3 of ${table.rowCount} rows.`), `${format} states the total`);
      if (format === 'html') assert.match(text, /<h1>Morning PM2\.5<\/h1>[\s\S]*<svg /);
      if (format === 'md') assert.match(text, /^# Morning PM2\.5\n\n```measq\nrecent/);
      if (format === 'ipynb') {
        const doc = JSON.parse(text);
        const csv: string = doc.cells[1].outputs[0].data['text/csv'].join('');
        assert.equal(csv.split('\n')[0], table.columns.map((c) => c.name).join(','));
      }
    }
  });

  it('copies a cell as curl: no key in it, and run in a shell it returns the rows the cell shows', async () => {
    const text = await vscode.commands.executeCommand<string>(COPY_CURL_COMMAND, nb.cellAt(1));
    assert.equal(await vscode.env.clipboard.readText(), text);
    assert.ok(!text.includes(emu.apiKey), 'never the key');
    assert.ok(text.includes(emu.url));
    const out = await promisify(execFile)('bash', ['-c', text], {
      env: { ...process.env, MEASUREMENTS_API_KEY: emu.apiKey },
    });
    const reply = JSON.parse(out.stdout) as { data: unknown[] };
    assert.ok(reply.data.length > 0, 'the service answered the copied request');
  });

  it('copies a cell as Python (requests) with the key from the environment', async () => {
    const text = await vscode.commands.executeCommand<string>(COPY_PYTHON_COMMAND, nb.cellAt(1));
    assert.equal(await vscode.env.clipboard.readText(), text);
    assert.match(text, /os\.environ\["MEASUREMENTS_API_KEY"\]/);
    assert.ok(!text.includes(emu.apiKey));
  });
});
