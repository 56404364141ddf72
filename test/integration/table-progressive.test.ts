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
import type { RowsReply, RowsRequest, SummaryReply } from '../../src/core/notebook/renderer-protocol';
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

  it("answers a summary-request over every row of the output's result (held, else its file); refuses forged keys and paths", async () => {
    // Issue 28: the Summary of an output holding the first rows covers all of them. Column i is 0 … ROWS − 1:
    // over every row its mean is (ROWS − 1) / 2 = 59,999.5 (arithmetic series), over the head's rows it is
    // (head − 1) / 2, far below.
    const { controller } = host.a.notebooks;
    const output = nb.cellAt(0).outputs[0];
    const key = (output.metadata as { measnb: { rest: { key: string; headRows: number } } }).measnb.rest.key;
    const headRows = (output.metadata as { measnb: { rest: { headRows: number } } }).measnb.rest.headRows;
    const plan = { timeColumn: 'time', frequency: 'minute', metrics: [{ column: 'i' }, { column: 'm3' }] };
    const ask = (p: ProgressiveResults, k: unknown) =>
      p.summary(nb, { type: 'summary-request', requestId: 's1', key: k, plan });
    const check = (reply: SummaryReply) => {
      assert.equal(reply.type, 'summary-result', JSON.stringify(reply));
      const { summary } = reply as Extract<SummaryReply, { type: 'summary-result' }>;
      assert.equal(summary.rows, ROWS);
      const i = summary.cells.find((c) => c.metric === 'i');
      assert.deepEqual([i?.count, i?.withValue, i?.min, i?.max, i?.mean], [ROWS, ROWS, 0, ROWS - 1, (ROWS - 1) / 2]);
      assert.ok((i?.mean ?? 0) - (headRows - 1) / 2 > 50_000, `held rows' mean ${(headRows - 1) / 2}`);
      assert.equal(summary.to! - summary.from!, (ROWS - 1) * 60_000);
      return summary;
    };
    const held = check(await ask(controller.progressive, key));
    // Asked again (the view drawn again), the same computation answers: not a second scan of every row.
    assert.equal(check(await ask(controller.progressive, key)), held);
    // A host that no longer holds the result reads the cell's full-result file in place (DuckDB), same numbers.
    await eventually(() => {
      const file = controller.results.fileOfCell(nb.cellAt(0));
      return !!file && fs.existsSync(file.fsPath);
    }, 'the full-result file written');
    const fresh = new ProgressiveResults((cell) => controller.results.fileOfCell(cell));
    assert.equal(check(await ask(fresh, key)).cells.length, held.cells.length);
    // A key of the right form that no output of this notebook has, a path, a full-result id: refused.
    const forged = await ask(fresh, 'r1zzzzzzzz');
    assert.equal(forged.type, 'summary-failed');
    assert.match((forged as { message: string }).message, /neither in memory nor in its full-result file/);
    const file = controller.results.fileOfCell(nb.cellAt(0))!;
    for (const k of [file.fsPath, controller.results.idOf(file), file.toString()]) {
      const refused = await ask(controller.progressive, k);
      assert.deepEqual(refused, {
        type: 'summary-failed',
        requestId: 's1',
        message: 'the request names no result of this notebook',
      });
    }
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
