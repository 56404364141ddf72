// Completion and hover for every id in the real extension host, against the emulator over HTTP:
// datasourceIds, nodeIds and refSiteIds offer the connection's ids of the right source type; a hover shows
// the datasource's name, group, tags and source, fetched once per connection (the emulator counts requests).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { PATHS } from '../../src/core/api/paths';
import type { DatasourceInfo } from '../../src/core/api/types';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { codeCell, serializeNotebook } from '../../src/core/notebook';
import { systemClock } from '../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index';
import type { MeasurementsApi } from '../../src/extension/extension';
import { api, eventually } from './helpers';

const CONNECTION = 'Id hover test emulator';
const OFFLINE = 'Id hover offline';

let a: MeasurementsApi;
let emu: RunningEmulator;
let list: DatasourceInfo[];
const requests: string[] = [];
const added: string[] = [];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-ids-'));
let seq = 0;

async function openNotebook(cells: string[], connection = CONNECTION) {
  const file = path.join(scratch, `ids-${++seq}.measnb`);
  fs.writeFileSync(file, serializeNotebook({ metadata: { connection }, cells: cells.map((t) => codeCell(t)) }));
  const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
  await vscode.window.showNotebookDocument(nb);
  return nb;
}

async function labelsAt(doc: vscode.TextDocument, line: number, column: number): Promise<vscode.CompletionItem[]> {
  const items = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    doc.uri,
    new vscode.Position(line, column),
  );
  return items.items.filter((i) => i.kind === vscode.CompletionItemKind.Value);
}

const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

async function hoverText(doc: vscode.TextDocument, line: number, column: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    doc.uri,
    new vscode.Position(line, column),
  );
  return hovers
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
    .join('\n');
}

const detailRequests = () => requests.filter((p) => p.startsWith(`${PATHS.datasources}/`)).length;
const plainText = (md: string) => md.replace(/\\(.)/g, '$1');

describe('ids: completion and hover from the connection', function () {
  this.timeout(120_000);

  before(async () => {
    a = await api();
    emu = await startEmulator({ port: 0, onRequest: (r) => requests.push(r.path) });
    added.push((await a.services.connections.add({ name: CONNECTION, baseUrl: emu.url, org: emu.org }, emu.apiKey)).id);
    list = (
      await new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey }).listDatasources(
        emu.org,
      )
    ).datasources;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const id of added) await a.services.connections.remove(id);
    await emu?.close();
  });

  it('nodeIds offers node ids, refSiteIds reference site ids, datasourceIds every datasource, with name and type', async () => {
    const nb = await openNotebook([
      'report node-measurements\nnodeIds: ',
      'report reference-site-measurements\nrefSiteIds: ',
      'recent\ndatasourceIds: ',
    ]);
    const nodes = await labelsAt(nb.cellAt(0).document, 1, 9);
    const sites = await labelsAt(nb.cellAt(1).document, 1, 12);
    const all = await labelsAt(nb.cellAt(2).document, 1, 15);
    const sourceIds = (type: string) =>
      list
        .filter((d) => d.sourceType === type)
        .map((d) => d.currentSourceId)
        .sort();
    assert.deepEqual(nodes.map(label).sort(), sourceIds('SERVICE_NODE'));
    assert.deepEqual(sites.map(label).sort(), sourceIds('REFERENCE_SITE'));
    assert.ok(sites.length > 0 && nodes.length > 0);
    assert.deepEqual(all.map(label).sort(), list.map((d) => d.datasourceId).sort());
    const first = list.find((d) => d.sourceType === 'SERVICE_NODE');
    const item = nodes.find((i) => label(i) === first?.currentSourceId);
    assert.equal(item?.insertText, first?.currentSourceId);
    assert.ok(item?.detail?.startsWith(`${first?.orgAnnotations.name} · SERVICE_NODE`), item?.detail);
  });

  it('an unknown datasource id, once the datasources are cached: a warning with the closest ids and a quick fix', async () => {
    const known = list[0].datasourceId;
    const nb = await openNotebook([`recent\ndatasourceIds: ${known}Z`]);
    const doc = nb.cellAt(0).document;
    await labelsAt(doc, 1, 15); // completion caches the connection's datasources
    // The next check (here after an edit) uses them.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(1, doc.lineAt(1).text.length), '\n');
    await vscode.workspace.applyEdit(edit);
    const diag = await eventually(
      () => vscode.languages.getDiagnostics(doc.uri).find((d) => d.code === 'unknown-id'),
      'the unknown id warning',
    );
    assert.equal(diag.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(diag.message, new RegExp(`the datasource id '${known}Z'; closest: ${known}(, |$)`));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diag.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((x) => x.title === `Change '${known}Z' to '${known}'`);
    assert.ok(fix?.edit, JSON.stringify(actions.map((x) => x.title)));
    await vscode.workspace.applyEdit(fix.edit);
    assert.equal(doc.lineAt(1).text, `datasourceIds: ${known}`);
    await eventually(() => !vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'unknown-id'), 'fixed');
  });

  it('a hover shows name, group, tags and source; the second hover is served from the cache', async () => {
    const d = list.find((x) => x.orgAnnotations.group && x.orgAnnotations.tags.length > 0) ?? list[0];
    const nb = await openNotebook([`recent\ndatasourceIds: ${d.datasourceId}`]);
    const before = detailRequests();
    const text = plainText(await hoverText(nb.cellAt(0).document, 1, 16));
    assert.ok(text.includes(d.orgAnnotations.name), text);
    assert.ok(text.includes(`Group: ${d.orgAnnotations.group ?? '(none)'}`), text);
    assert.ok(text.includes(`Tags: ${d.orgAnnotations.tags.join(', ')}`), text);
    assert.ok(text.includes(`Source: ${d.sourceType} ${d.currentSourceId}`), text);
    assert.equal(detailRequests(), before + 1, 'one GET /v2/datasources/{id}');
    assert.equal(plainText(await hoverText(nb.cellAt(0).document, 1, 16)), text);
    assert.equal(detailRequests(), before + 1, 'the second hover did not ask the service again');
  });

  it('a node id and a reference site id hover with their datasource; an unknown id says so', async () => {
    const node = list.find((x) => x.sourceType === 'SERVICE_NODE')!;
    const site = list.find((x) => x.sourceType === 'REFERENCE_SITE')!;
    const nb = await openNotebook([
      `report node-measurements\nnodeIds: ${node.currentSourceId}, ${site.currentSourceId}`,
      `report reference-site-measurements\nrefSiteIds: ${site.currentSourceId}`,
      'recent\ndatasourceIds: DNOSUCH99',
    ]);
    const nodeText = plainText(await hoverText(nb.cellAt(0).document, 1, 10));
    assert.ok(nodeText.includes(`Datasource: ${node.datasourceId}`), nodeText);
    const wrongType = await hoverText(nb.cellAt(0).document, 1, 11 + node.currentSourceId.length);
    assert.match(plainText(wrongType), /no datasource of this connection has this node id/);
    const siteText = plainText(await hoverText(nb.cellAt(1).document, 1, 13));
    assert.ok(siteText.includes(`Datasource: ${site.datasourceId}`), siteText);
    const missing = plainText(await hoverText(nb.cellAt(2).document, 1, 16));
    assert.match(missing, /^DNOSUCH99: could not look up this datasource id: not found on this connection \(404\)\.$/m);
  });

  it('offline: the hover says the service is not reachable, completion offers nothing, nothing throws', async () => {
    const dead = await startEmulator({ port: 0 });
    const deadUrl = dead.url;
    await dead.close();
    added.push((await a.services.connections.add({ name: OFFLINE, baseUrl: deadUrl, org: emu.org }, emu.apiKey)).id);
    const nb = await openNotebook(['recent\ndatasourceIds: D1'], OFFLINE);
    assert.match(plainText(await hoverText(nb.cellAt(0).document, 1, 15)), /D1: could not look up .*not reachable/);
    assert.deepEqual(await labelsAt(nb.cellAt(0).document, 1, 18), []);
  });

  it('a change of connections drops what was cached: the next hover asks again', async () => {
    const d = list[0];
    const nb = await openNotebook([`recent\ndatasourceIds: ${d.datasourceId}`]);
    await hoverText(nb.cellAt(0).document, 1, 16);
    const before = detailRequests();
    await hoverText(nb.cellAt(0).document, 1, 16);
    assert.equal(detailRequests(), before, 'cached');
    // Any change of the connection list (here a new one) may have changed this one's URL, org or key.
    added.push((await a.services.connections.add({ name: 'Id hover other', baseUrl: emu.url, org: emu.org })).id);
    await hoverText(nb.cellAt(0).document, 1, 16);
    assert.equal(detailRequests(), before + 1, 'asked again after the connection changed');
  });
});
