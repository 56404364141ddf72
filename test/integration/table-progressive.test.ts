// Progressive outputs in the real extension host and workbench: a result over the head size
// (measurements.notebook.outputHeadMB) hands the workbench an item with only its first rows; the real
// renderer in the output webview asks for the rest through renderer messaging, in order, to the last row;
// the host answers from the result it holds, else from the cell's full-result file (written after the
// hand-over), and says plainly when it has neither.
// Named to run after sql.test.ts (files run in name order): that suite checks that activation has not
// loaded DuckDB, and the sql cell here loads it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { codeCell, MIME } from '../../src/core/notebook';
import type { RowsReply, RowsRequest } from '../../src/core/notebook/renderer-protocol';
import { readParquet } from '../../src/core/table/parquet';
import { cellText, type Table } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import type { TableHandOver } from '../../src/extension/notebook/controller';
import { ProgressiveResults } from '../../src/extension/notebook/progressive-results';
import { bigSqlCellLines } from '../support/big-sql-cell.mjs';
import { eventually, type HostEmulator, openNotebook, runCell, startHostEmulator, stopHostEmulator } from './helpers';

const CONNECTION = 'Progressive outputs emulator';
const ROWS = 120_000;
/** ROWS x 20: a time, an id and 18 numbers (~18.7 MB in the wire format). */
const BIG_CELL = bigSqlCellLines(ROWS).join('\n');

const fromBase64 = (reply: RowsReply): Table => {
  if (reply.type !== 'rows-chunk') throw new Error(`rows-unavailable: ${reply.message}`);
  return decodeTable(new Uint8Array(Buffer.from(reply.base64, 'base64')));
};

describe('progressive outputs: the head in the item, the rest through renderer messaging', function () {
  this.timeout(300_000);
  let host: HostEmulator;
  let nb: vscode.NotebookDocument;
  const requests: RowsRequest[] = [];
  const handOvers: TableHandOver[] = [];
  const subscriptions: vscode.Disposable[] = [];
  const settings = () => vscode.workspace.getConfiguration('measurements.notebook');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-progressive-'));

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T12:00:00Z');
    await settings().update('outputHeadMB', 0.5, vscode.ConfigurationTarget.Global);
    // The rows-requests the host answers: the real renderer's, through renderer messaging.
    subscriptions.push(
      host.a.notebooks.controller.progressive.onDidAnswer(({ request, reply }) => {
        if (reply.type === 'rows-chunk') requests.push(request);
      }),
      host.a.notebooks.controller.onDidHandOverTable((h) => handOvers.push(h)),
    );
    nb = await openNotebook(path.join(scratch, 'big.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [codeCell(BIG_CELL)],
    });
  });

  after(async () => {
    for (const s of subscriptions) s.dispose();
    await settings().update('outputHeadMB', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors', { save: false });
    await stopHostEmulator(host);
  });

  it('hands over only the first rows, and the renderer fetches every other row in order', async () => {
    const summary = await runCell(nb, 0);
    assert.equal(summary.success, true);
    const output = nb.cellAt(0).outputs[0];
    const item = output.items.find((i) => i.mime === MIME.table);
    assert.ok(item, 'a table item');
    const head = decodeTable(item.data);
    const meta = output.metadata as {
      rowCount: number;
      resultBytes: number;
      measnb: { rest: RowsRequest & { totalRows: number; headRows: number } };
    };
    const rest = meta.measnb.rest;
    assert.equal(meta.rowCount, ROWS);
    assert.equal(rest.totalRows, ROWS);
    assert.equal(rest.headRows, head.rowCount);
    assert.ok(head.rowCount > 1_000 && head.rowCount < ROWS / 10, `head of ${head.rowCount} rows`);
    assert.ok(item.data.byteLength <= 0.5 * 1024 * 1024, `item ${item.data.byteLength} B within 0.5 MB`);
    assert.ok(meta.resultBytes > 15e6, `the whole result's size is kept: ${meta.resultBytes}`);
    assert.equal(handOvers.at(-1)?.itemBytes, item.data.byteLength);
    assert.equal(cellText(head.columns[2], head.rowCount - 1), String(head.rowCount - 1));

    // The renderer asks for the rows after the head, one range after the other, up to the last row.
    const mine = () => requests.filter((r) => r.key === rest.key).sort((x, y) => x.start - y.start);
    await eventually(
      () => mine().some((r) => r.start + r.maxRows >= ROWS),
      () => `the renderer to ask for the last rows (asked: ${JSON.stringify(mine().map((r) => [r.start, r.maxRows]))})`,
      1800,
    );
    let next = head.rowCount;
    for (const r of mine()) {
      if (r.start < next) continue; // a re-render asks again from the head
      assert.equal(r.start, next, 'contiguous ranges');
      next = r.start + r.maxRows;
    }
    assert.ok(next >= ROWS);
  });

  it('answers from the held result, and from the full-result file written after the hand-over', async () => {
    const { controller } = host.a.notebooks;
    const key = (nb.cellAt(0).outputs[0].metadata as { measnb: { rest: { key: string } } }).measnb.rest.key;
    const ask = (p: ProgressiveResults | typeof controller.progressive, start: number, maxRows: number) =>
      p.rows(nb, { type: 'rows-request', requestId: `t${start}`, key, start, maxRows });
    const tail = fromBase64(await ask(controller.progressive, ROWS - 10, 100));
    assert.equal(tail.rowCount, 10);
    assert.equal(cellText(tail.columns[2], 9), String(ROWS - 1));
    assert.equal(cellText(tail.columns[1], 9), `D${String((ROWS - 1) % 400).padStart(7, '0')}`);

    const file = controller.results.fileOfCell(nb.cellAt(0));
    assert.ok(file && fs.existsSync(file.fsPath), 'the full-result file');
    assert.equal((await readParquet(fs.readFileSync(file.fsPath))).rowCount, ROWS);
    // A host that no longer holds the result (another window, a restarted extension host) reads the file.
    const fresh = new ProgressiveResults((cell) => controller.results.fileOfCell(cell));
    const fromFile = fromBase64(await ask(fresh, 50_000, 5));
    assert.deepEqual(
      fromFile.columns.map((c) => cellText(c, 4)),
      fromBase64(await ask(controller.progressive, 50_000, 5)).columns.map((c) => cellText(c, 4)),
    );
    fs.rmSync(file.fsPath);
    const none = await ask(new ProgressiveResults((cell) => controller.results.fileOfCell(cell)), 50_000, 5);
    assert.equal(none.type, 'rows-unavailable');
    assert.match((none as { message: string }).message, /not on this machine/);
  });
});
