// The notebook controller in the real extension host against the emulator: every verb (rows and
// columns checked against the service), follow without gaps or duplicates across runs and across a
// token expiry (emulator clock), report progress and the Reports view, cancellation keeping partial
// rows, readable errors, language features, and outputs bounded in the saved file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { connectionStyleSlots } from '../../src/core/aq/line-styles';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { codeCell, MIME } from '../../src/core/notebook';
import type { ResultInfo } from '../../src/core/notebook/renderer-protocol';
import { timeColumn } from '../../src/core/run/index.node';
import { tableOutput } from '../../src/core/run/outputs';
import { tableToCsv } from '../../src/core/table/csv-export';
import { cellText, findColumn, type Table } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import { systemClock } from '../../src/core/time/clock';
import type { ManualClock, RunningEmulator } from '../../src/emulator/index';
import type { MeasurementsApi } from '../../src/extension/extension';
import type { TableFileEditor } from '../../src/extension/table/table-editor';
import { HOUR } from '../support/now';
import {
  cellFinished,
  eventually,
  type HostEmulator,
  openNotebook,
  runCell,
  startCell,
  startHostEmulator,
  stopHostEmulator,
} from './helpers';

const CONNECTION = 'Notebook test emulator';

let host: HostEmulator;
let a: MeasurementsApi;
let emu: RunningEmulator;
let clock: ManualClock;
let client: MeasurementsClient;
let connectionId: string;
let ids: string[];
let seq = 0;
/** Every request the emulator saw, with when (this process's monotonic clock). */
const requests: { method: string; path: string; at: number }[] = [];
/** When the emulator answered a status check of `reportId` (GET /v2/report-requests/<id>). */
const statusChecksOf = (reportId: string) =>
  requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${reportId}`)).map((r) => r.at);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-nb-'));

/** Writes a .measnb file of code cells and opens it as a notebook with the extension's controller. */
function openCells(cells: string[], metadata: Record<string, unknown> = { connection: CONNECTION }) {
  const file = path.join(scratch, `nb-${++seq}.measnb`);
  return openNotebook(file, { metadata, cells: cells.map((text) => codeCell(text)) });
}

function tableOf(cell: vscode.NotebookCell): { table: Table; metadata: Record<string, unknown> } {
  for (const o of cell.outputs) {
    const item = o.items.find((i) => i.mime === MIME.table);
    if (item) return { table: decodeTable(item.data), metadata: (o.metadata ?? {}) as Record<string, unknown> };
  }
  const texts = cell.outputs.flatMap((o) => o.items.map((i) => `${i.mime}: ${new TextDecoder().decode(i.data)}`));
  throw new Error(`no table output; outputs: ${texts.join(' | ')}`);
}

function outputText(cell: vscode.NotebookCell): string {
  return cell.outputs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))).join('\n');
}

/** `datasourceId|time` of every row (the measurement time column, whatever the format named it). */
function keys(table: Table): string[] {
  const ds = findColumn(table, 'datasourceId')!;
  const t = timeColumn(table)!;
  const out: string[] = [];
  for (let r = 0; r < table.rowCount; r++) out.push(`${cellText(ds, r)}|${cellText(t, r)}`);
  return out;
}

describe('notebook controller against the emulator', function () {
  this.timeout(180_000);

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T09:00:00Z', {
      reportDelayMs: 5 * 60_000,
      onRequest: (r) => requests.push({ ...r, at: performance.now() }),
    });
    ({ a, emu, clock, connectionId } = host);
    client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey });
    ids = (await client.listDatasources(emu.org)).datasources.map((d) => d.datasourceId);
  });

  after(() => stopHostEmulator(host));

  it('datasources: one row per datasource of the org', async () => {
    const nb = await openCells(['datasources']);
    const s = await runCell(nb, 0);
    assert.equal(s.success, true, outputText(nb.cellAt(0)));
    const { table } = tableOf(nb.cellAt(0));
    assert.equal(table.rowCount, ids.length);
    assert.deepEqual(keysOf(table, 'datasourceId').sort(), [...ids].sort());
  });

  it('recent: the same rows and columns as the service returns, with a text/csv fallback item', async () => {
    const cell = [
      'recent',
      `datasourceIds: ${ids[0]}, ${ids[1]}`,
      'outputFrequency: hour',
      'metricSelect: only pm2_5ConcMassNowcast',
      'startTime: -6h',
      'format: csv-wide',
    ].join('\n');
    const nb = await openCells([cell]);
    const s = await runCell(nb, 0);
    assert.equal(s.success, true, outputText(nb.cellAt(0)));
    const { table, metadata } = tableOf(nb.cellAt(0));
    const direct = await client.recentQuery({
      org: emu.org,
      datasourceIds: [ids[0], ids[1]],
      outputFrequency: 'hour',
      metricSelect: 'only pm2_5ConcMassNowcast',
      startTime: new Date(clock.now() - 6 * HOUR).toISOString(),
      format: 'csv-wide',
    });
    assert.ok(table.rowCount > 0);
    assert.equal(table.rowCount, direct.table.rowCount);
    assert.deepEqual(
      table.columns.map((c) => c.name),
      direct.table.columns.map((c) => c.name),
    );
    assert.ok(findColumn(table, 'pm2_5ConcMassNowcast'));
    assert.equal(metadata.rowCount, table.rowCount);
    const info = metadata.measnb as ResultInfo;
    assert.equal(info.referenceSites, undefined, 'csv-wide has its sourceType column: not sent');
    assert.deepEqual(Object.keys(info.datasourceNames ?? {}).sort(), [ids[0], ids[1]].sort(), 'names of its ids only');
    const all = (await client.listDatasources(emu.org)).datasources.map((d) => d.datasourceId);
    assert.ok(all.length > 2);
    assert.deepEqual(
      info.datasourceStyles,
      connectionStyleSlots(all, [ids[0], ids[1]]),
      "line style slots from the connection's whole datasource list, of its ids only",
    );
    const csv = nb.cellAt(0).outputs[0].items.find((i) => i.mime === MIME.csv);
    assert.ok(csv, 'a text/csv fallback item');
    assert.equal(new TextDecoder().decode(csv.data).trimEnd().split('\n').length, table.rowCount + 1);
    assert.equal(nb.cellAt(0).outputs[0].items[0].mime, MIME.table, 'the table item comes first');
    // One builder (core/run/outputs.ts): the items `measnb run` would write for this table are these (the
    // table item compared by its rows: a decoded table encodes its decimals as floats, other bytes, same values).
    const cli = tableOutput(table);
    const itemText = (i: { mime: string; data: Uint8Array }) =>
      i.mime === MIME.table ? tableToCsv(decodeTable(i.data)) : new TextDecoder().decode(i.data);
    assert.deepEqual(
      nb.cellAt(0).outputs[0].items.map((i) => [i.mime, itemText(i)]),
      cli.items.map((i) => [i.mime, itemText(i)]),
    );
  });

  it("json-long: the output names the result's reference sites from the connection's datasources", async () => {
    const all = (await client.listDatasources(emu.org)).datasources;
    const ref = all.find((d) => d.sourceType === 'REFERENCE_SITE')!.datasourceId;
    const other = all.find((d) => d.sourceType !== 'REFERENCE_SITE')!.datasourceId;
    const cell = [
      'recent',
      `datasourceIds: ${other}, ${ref}`,
      'outputFrequency: hour',
      'metricSelect: only pm2_5ConcMass1HourMean',
      'startTime: -6h',
    ].join('\n');
    const nb = await openCells([cell]);
    const s = await runCell(nb, 0);
    assert.equal(s.success, true, outputText(nb.cellAt(0)));
    const { table, metadata } = tableOf(nb.cellAt(0));
    assert.equal(findColumn(table, 'sourceType'), undefined, 'json-long: no sourceType column');
    const info = metadata.measnb as { referenceSites?: string[]; datasourceNames?: Record<string, string> };
    assert.deepEqual(info.referenceSites, [ref]);
    const refName = all.find((d) => d.datasourceId === ref)!.orgAnnotations.name;
    assert.equal(info.datasourceNames?.[ref], refName, "the reference site's name for the Map and Collocation");
  });

  it('follow: each run appends only newer rows, without gap or duplicate, also across a token expiry', async () => {
    const startTime = new Date(clock.now() - 2 * HOUR).toISOString();
    const cell = [
      'follow',
      `datasourceIds: ${ids[0]}, ${ids[2]}`,
      'outputFrequency: hour',
      `startTime: ${startTime}`,
    ].join('\n');
    const nb = await openCells([cell]);
    assert.equal((await runCell(nb, 0)).success, true, outputText(nb.cellAt(0)));
    const first = tableOf(nb.cellAt(0)).table.rowCount;
    assert.ok(first > 0);

    clock.advance(3 * HOUR);
    assert.equal((await runCell(nb, 0)).success, true, outputText(nb.cellAt(0)));
    const second = tableOf(nb.cellAt(0)).table;
    assert.ok(second.rowCount > first, 'new rows appended');

    // Past the 24-hour token lifetime: a fresh query from the last time seen continues the tail.
    clock.advance(25 * HOUR);
    assert.equal((await runCell(nb, 0)).success, true, outputText(nb.cellAt(0)));
    const { table, metadata } = tableOf(nb.cellAt(0));
    const notes = JSON.stringify(metadata.measnb);
    assert.match(notes, /no longer valid/i, 'the output says the tail resumed with a fresh query');

    const shown = keys(table);
    assert.equal(new Set(shown).size, shown.length, 'no duplicate rows');
    const direct = await client.recentQuery({
      org: emu.org,
      datasourceIds: [ids[0], ids[2]],
      outputFrequency: 'hour',
      startTime,
      format: 'json-long',
    });
    assert.deepEqual([...shown].sort(), keys(direct.table).sort(), 'no gap: exactly the service rows');

    // The token lives in workspace state, never in the notebook.
    const cellId = nb.cellAt(0).metadata.id as string;
    const state = a.notebooks.follow.get(nb.uri, cellId);
    assert.ok(state?.token, 'a continuation token is kept in workspace state');
    assert.ok(!(await saved(nb)).includes(state.token), 'the token is not in the saved file');
  });

  it('report: live progress, then the files as a table, and the report in the Reports view', async () => {
    const cell = [
      'report datasource-measurements',
      `datasourceIds: ${ids[0]}, ${ids[1]}`,
      'outputFrequency: hour',
      'startTime: 2026-11-19',
      'endTime: 2026-11-20',
      'fileFormat: parquet',
    ].join('\n');
    const nb = await openCells([cell]);
    const notices: string[] = [];
    const noticeSub = a.onDidNotify((n) => notices.push(n.message));
    const before = startCell(nb, 0);
    const progress = await eventually(
      () => /in-progress · \d+s elapsed · next check in/.exec(outputText(nb.cellAt(0)))?.[0],
      'report progress in the cell',
    );
    assert.ok(progress);
    const reportId = /Report (\S+):/.exec(outputText(nb.cellAt(0)))![1];
    assert.ok(a.services.reports.get(connectionId, reportId), 'in the Reports view while in progress');
    // One poller per report: the cell's. The Reports view's watcher observes it and does not poll it too
    // (two loops on the same 2 s, 3 s, 4 s schedule would check within a fraction of a second of each other).
    const checks = await eventually(() => {
      const at = statusChecksOf(reportId);
      return at.length >= 3 && at;
    }, 'three status checks');
    const gaps = checks.slice(1).map((t, i) => Math.round(t - checks[i]));
    assert.ok(
      gaps.every((g) => g >= 1500),
      `checks at least 1.8 s apart (one schedule, one loop): ${gaps.join(', ')} ms`,
    );
    assert.ok(!a.watcher.watched().includes(reportId), "the watcher observes the cell's poller, it does not poll");
    const seen = a.services.reports.get(connectionId, reportId);
    assert.equal(seen?.record.message, 'Processing', "the view shows the record the cell's poller got");
    clock.advance(10 * 60_000);
    const s = await cellFinished(nb, 0, before);
    assert.equal(s.success, true, outputText(nb.cellAt(0)));
    const { table } = tableOf(nb.cellAt(0));
    assert.equal(table.rowCount, 2 * 24, 'two datasources, 24 hours');
    assert.ok(findColumn(table, 'startOfPeriod') && findColumn(table, 'datasourceId'));
    assert.equal(a.services.reports.get(connectionId, reportId)?.record.reportStatus, 'succeeded');

    // The caption names the files, not their long folder in the editor's storage; Open and Reveal are
    // items of the cell's status bar, on the files the cell downloaded (the Reports view knows them too).
    const notes = ((tableOf(nb.cellAt(0)).metadata.measnb as { notes?: string[] }).notes ?? []).join('\n');
    assert.match(notes, /files: [\w.-]+\.parquet/, notes);
    assert.ok(!notes.includes('/') && !notes.includes('\\'), `no paths in the caption: ${notes}`);
    const tracked = a.services.reports.get(connectionId, reportId)!;
    assert.ok(tracked.files.length > 0 && tracked.files.every((f) => f.localPath && fs.existsSync(f.localPath)));
    // The cell shows the report: it is marked as the cell's (the Reports view's watcher then notifies nothing
    // when it sees it finish, notifiesWhenFinished), and no "is ready" notification came.
    assert.equal(tracked.startedBy, 'cell');
    noticeSub.dispose();
    assert.deepEqual(
      notices.filter((m) => /^Report .* (is ready|ended as)/.test(m)),
      [],
      'no notification for a report the cell shows',
    );
    const items = await eventually(() => {
      const found = a.reportCells.provideCellStatusBarItems(nb.cellAt(0));
      return found.length ? found : undefined;
    }, 'the Open/Reveal items of the cell');
    assert.deepEqual(
      items.map((i) => i.text),
      [...tracked.files.slice(0, 3).map((f) => `$(table) ${f.name}`), '$(folder-opened) Reveal'],
    );
    const open = items[0].command as vscode.Command;
    const shown = await vscode.commands.executeCommand<TableFileEditor>(open.command, ...(open.arguments ?? []));
    assert.ok(shown?.view.panel, 'Open shows the Parquet file as a table (the Measurements Table editor)');
    assert.equal((await shown.view.shown).view, 'renderer');
    const read = await shown.loaded;
    assert.equal(read.format, 'parquet');
    assert.ok(read.totalRows > 0, 'the file has rows');
    shown.view.panel.dispose();
  });

  it('cancellation: the request is aborted and the cell says so; follow every keeps its rows, marked partial', async () => {
    const nb = await openCells([
      [
        'report datasource-measurements',
        `datasourceIds: ${ids[0]}`,
        'outputFrequency: day',
        'startTime: 2026-11-10',
        'endTime: 2026-11-18',
      ].join('\n'),
      ['follow every 5m', `datasourceIds: ${ids[3]}`, 'outputFrequency: hour', 'startTime: -3h'].join('\n'),
    ]);
    let before = startCell(nb, 0);
    await eventually(() => outputText(nb.cellAt(0)).includes('in-progress'), 'the report to be waiting');
    const reportId = /Report ([^\s:]+)/.exec(outputText(nb.cellAt(0)))![1];
    assert.ok(!a.watcher.watched().includes(reportId), 'while the cell waits, its poller is the only one');
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', {
      ranges: [{ start: 0, end: 1 }],
      document: nb.uri,
    });
    let s = await cellFinished(nb, 0, before);
    assert.equal(s.success, false);
    assert.match(outputText(nb.cellAt(0)), /cancelled/i);
    assert.ok(a.watcher.watched().includes(reportId), 'the cell stopped waiting: the Reports view polls the report');

    before = startCell(nb, 1);
    await eventually(
      () => /follow: \d+ new rows/.test(JSON.stringify(nb.cellAt(1).outputs[0]?.metadata ?? {})),
      'first poll',
    );
    const rows = tableOf(nb.cellAt(1)).table.rowCount;
    assert.ok(rows > 0);
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', {
      ranges: [{ start: 1, end: 2 }],
      document: nb.uri,
    });
    s = await cellFinished(nb, 1, before);
    const { table, metadata } = tableOf(nb.cellAt(1));
    assert.equal(table.rowCount, rows, 'the rows that arrived are kept');
    assert.match(JSON.stringify(metadata.measnb), /partial|cancelled/i);
  });

  it('errors are readable: cell diagnostics (nothing sent) and a rejected key', async () => {
    const nb = await openCells(['recent\ndatasourceIds: X\noutputFrequency: hourly']);
    assert.equal((await runCell(nb, 0)).success, false);
    assert.match(outputText(nb.cellAt(0)), /outputFrequency|hourly/);
    // A 400 from the service: its status said once (the error's name does not repeat the message's "(400)").
    const rejected = await openCells(['recent\ndatasourceIds: NOPE1234\nstartTime: -1h']);
    assert.equal((await runCell(rejected, 0)).success, false);
    const said = outputText(rejected.cellAt(0));
    assert.match(said, /rejected the request \(400\)/);
    assert.equal(said.match(/400/g)?.length, 1, said);
    const bad = await a.services.connections.add({ name: 'Bad key', baseUrl: emu.url, org: emu.org }, 'not-the-key');
    try {
      const nb2 = await openCells(['datasources'], { connection: 'Bad key' });
      assert.equal((await runCell(nb2, 0)).success, false);
      const text = outputText(nb2.cellAt(0));
      assert.match(text, /not allowed|forbidden|unauthorized/i);
      assert.ok(!text.includes('not-the-key'), 'the key is never in an output');
    } finally {
      await a.services.connections.remove(bad.id);
    }
  });

  it('a blank cell (what Shift+Enter adds, or one emptied) has no problems; a typo in it has', async () => {
    const nb = await openCells(['recent\nstartTime: -1h\n', '']);
    const blank = nb.cellAt(1).document;
    const set = async (text: string) => {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(blank.uri, new vscode.Range(0, 0, blank.lineCount, 0), text);
      await vscode.workspace.applyEdit(edit);
    };
    await set('recnt\n');
    await eventually(() => vscode.languages.getDiagnostics(blank.uri).length > 0, 'the typo diagnosed');
    for (const text of ['', '  \n', '# a note only\n']) {
      await set(text);
      await eventually(
        () => vscode.languages.getDiagnostics(blank.uri).length === 0,
        () =>
          `no problem for ${JSON.stringify(text)}: ${vscode.languages.getDiagnostics(blank.uri).map((d) => d.message)}`,
      );
      await set('recnt\n');
      await eventually(() => vscode.languages.getDiagnostics(blank.uri).length > 0, 'the typo diagnosed again');
    }
  });

  it('language features: diagnostics as you type, completion with datasource ids, hover docs', async () => {
    const nb = await openCells(['recent\ndatasourceIdz: X\n']);
    const doc = nb.cellAt(0).document;
    const diags = await eventually(() => {
      const d = vscode.languages.getDiagnostics(doc.uri);
      return d.length ? d : undefined;
    }, 'diagnostics');
    assert.ok(diags.some((d) => /datasourceIdz/.test(d.message)));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(1, 0, 1, 16), 'datasourceIds: ');
    await vscode.workspace.applyEdit(edit);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(1, 15),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes(ids[0]), `datasource ids offered (got ${labels.slice(0, 5).join(', ')})`);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      new vscode.Position(1, 3),
    );
    assert.ok(hovers.length > 0);
  });

  it('saved outputs are bounded: past the limit the file keeps a summary naming the full result', async () => {
    const config = vscode.workspace.getConfiguration('measurements.notebook');
    await config.update('savedOutputLimitKB', 1, vscode.ConfigurationTarget.Global);
    try {
      const nb = await openCells([
        ['recent', 'allDatasources: true', 'outputFrequency: hour', 'startTime: -12h'].join('\n'),
      ]);
      assert.equal((await runCell(nb, 0)).success, true, outputText(nb.cellAt(0)));
      const rows = tableOf(nb.cellAt(0)).table.rowCount;
      const text = await saved(nb);
      assert.match(text, new RegExp(MIME.summary.replace(/[.+]/g, '\\$&')));
      const file = JSON.parse(text);
      const meta = file.cells[0].outputs[0].metadata;
      assert.equal(meta.truncated, true);
      assert.equal(meta.rowCount, rows);
      assert.equal(meta.fullResultPath, undefined, 'no path (it holds the home folder) in the saved file');
      const store = a.notebooks.controller.results.dir.fsPath;
      assert.ok(!text.includes(store), `the result store's path (${store}) is nowhere in the saved file`);
      const full = path.join(store, `${meta.fullResultId}.parquet`);
      assert.ok(fs.existsSync(full), `the full result of id ${meta.fullResultId} exists at ${full}`);
    } finally {
      await config.update('savedOutputLimitKB', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

function keysOf(table: Table, name: string): string[] {
  const c = findColumn(table, name)!;
  return Array.from({ length: table.rowCount }, (_, r) => cellText(c, r));
}

/** Saves the notebook through the extension's serializer and returns the file's text. */
async function saved(nb: vscode.NotebookDocument): Promise<string> {
  await nb.save();
  return fs.readFileSync(nb.uri.fsPath, 'utf8');
}
