// The Reports view's tree kept in place, and the one rule for statuses the client does not know, in the
// real extension host: the extension's own classes (store, watcher, tree provider) over a store of the
// test's own (its own folder of shared records: the window's watcher does not poll these reports), against
// the emulator over HTTP.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { pollDelayMs } from '../../src/core/reports/schedule';
import { sleep, systemClock, type WaitClock } from '../../src/core/time/clock';
import { ManualClock, type RunningEmulator, startEmulator } from '../../src/emulator/index';
import type { MeasurementsApi } from '../../src/extension/extension';
import type { ReportNode, ReportsTreeNode } from '../../src/extension/reports/report-nodes';
import { ReportWatcher } from '../../src/extension/reports/report-watcher';
import { checkTrackedReport, ReportsStore } from '../../src/extension/reports/reports-store';
import { ReportsTreeProvider } from '../../src/extension/reports/reports-tree';
import { SharedRecords } from '../../src/extension/state/shared-records';
import { virtualClock } from '../support/core/virtual-clock';
import { api, eventually } from './helpers';

const REPORT_DELAY_MS = 10 * 60_000;
const focused = { focused: () => true, onDidChange: () => ({ dispose() {} }) };

describe('Reports view tree: nodes kept and updated in place; unknown statuses polled for an hour at most', function () {
  this.timeout(120_000);
  let a: MeasurementsApi;
  let emu: RunningEmulator;
  let clock: ManualClock;
  let connectionId: string;
  let dir: string;
  const disposables: vscode.Disposable[] = [];

  before(async () => {
    a = await api();
    clock = new ManualClock(Date.parse('2026-11-20T09:00:00Z'));
    emu = await startEmulator({ port: 0, clock, reportDelayMs: REPORT_DELAY_MS });
    const c = await a.services.connections.add({ name: 'Tree emulator', baseUrl: emu.url, org: emu.org }, emu.apiKey);
    connectionId = c.id;
    await a.services.connections.select(c.id);
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-tree-'));
  });

  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  after(async () => {
    await a.services.connections.remove(connectionId);
    await emu?.close();
  });

  function newReport(client: MeasurementsClient, day: string) {
    return client.createReport({
      report: 'datasource-measurements',
      org: emu.org,
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      startTime: `2026-11-${day}`,
      endTime: `2026-11-${Number(day) + 1}`,
    });
  }

  it('a report that finishes refreshes its own node only: same object, same parent, the others untouched', async () => {
    const now = () => new Date(clock.now());
    const store = new ReportsStore(new SharedRecords(dir, checkTrackedReport), now);
    const tree = new ReportsTreeProvider(store, a.services.connections, now);
    disposables.push(store, tree);
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey });
    const first = await newReport(client, '10');
    await store.track(first, connectionId);
    clock.advance(5 * 60_000);
    const second = await newReport(client, '12');
    await store.track(second, connectionId);

    const [n2, n1] = tree.getChildren() as ReportNode[];
    assert.deepEqual([n2.report.reportId, n1.report.reportId], [second.reportId, first.reportId], 'the newest first');
    const fired: (ReportsTreeNode | undefined)[] = [];
    disposables.push(tree.onDidChangeTreeData((n) => fired.push(n)));
    // Checks every 50 ms (real waits; the report ages are read from the emulator's clock).
    const watcher = new ReportWatcher(
      store,
      a.services.clients,
      a.services.connections,
      { nowMs: () => clock.now(), sleep },
      () => 50,
      () => {},
      focused,
    );
    disposables.push(watcher);
    clock.advance(1000);
    const checkedNow = new Date(clock.now()).toISOString();
    watcher.resume();
    await eventually(
      () =>
        [first, second].every((r) => store.get(connectionId, r.reportId)?.checkedAt === checkedNow) &&
        watcher.watched().length === 2,
      'both reports checked',
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(fired.length, 0, 'checks that change nothing refresh nothing');

    clock.advance(5 * 60_000 + 1000); // the first is ready, the second is not
    await eventually(
      () => store.get(connectionId, first.reportId)?.record.reportStatus === 'succeeded',
      'the first report to succeed',
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(fired.length, 1, `one change fired (${fired.map((n) => n?.id ?? 'the whole tree')})`);
    assert.equal(fired[0], n1, 'for the node of the report that finished, the very object shown before');
    assert.equal(n1.contextValue, 'report-succeeded', 'updated in place');
    assert.equal((n1.iconPath as vscode.ThemeIcon).id, 'pass-filled');
    assert.equal(n1.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'it opens on its files');
    assert.equal(n2.contextValue, 'report-in-progress');
    assert.equal(n2.id, `report:${connectionId}:${second.reportId}`, 'the unchanged node keeps its id');

    const again = tree.getChildren();
    assert.equal(again[0], n2, 'the same node objects after a refresh of the view');
    assert.equal(again[1], n1);
    const [file] = tree.getChildren(n1);
    assert.equal(file.kind, 'file');
    assert.equal(tree.getParent(file), n1, 'a file’s parent is its report node (reveal walks up to it)');
    assert.equal(tree.getParent(n1), undefined, 'a report is at the root without groups');
    assert.equal(tree.nodes.get(`${connectionId}\u0000${first.reportId}`), n1);

    // A report removed refreshes the root (the list changed); the remaining node is still the same object.
    fired.length = 0;
    await store.remove(connectionId, second.reportId);
    await eventually(() => fired.length > 0, 'a change for the removal');
    assert.deepEqual(fired, [undefined]);
    assert.deepEqual(tree.getChildren(), [n1]);
  });

  it('ages move with the clock: refreshAges updates and fires only the rows whose text changed', async () => {
    const now = () => new Date(clock.now());
    const store = new ReportsStore(new SharedRecords(dir, checkTrackedReport), now);
    const tree = new ReportsTreeProvider(store, a.services.connections, now);
    disposables.push(store, tree);
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey });
    const r = await newReport(client, '16');
    await store.track(r, connectionId);
    const [n] = tree.getChildren() as ReportNode[];
    assert.match(String(n.description), /\b0s ago/, `a new report reads as new (${n.description})`);
    const fired: (ReportsTreeNode | undefined)[] = [];
    disposables.push(tree.onDidChangeTreeData((x) => fired.push(x)));
    assert.deepEqual(tree.refreshAges(), [], 'no time passed: nothing to redraw');
    assert.equal(fired.length, 0);
    const before = n.description;
    clock.advance(7 * 60_000);
    assert.deepEqual(tree.refreshAges(), [n], 'seven minutes later its age text changed');
    assert.notEqual(n.description, before);
    assert.match(String(n.description), /\b7m ago/, `the row says its new age (${n.description})`);
    assert.deepEqual(fired, [n], 'the one node fired, the very object shown');
    await store.remove(connectionId, r.reportId);
  });

  it('grouped: a change fires for the report node, whose parent is its (kept) connection group', async () => {
    await vscode.workspace
      .getConfiguration()
      .update('measurements.reports.showAllConnections', true, vscode.ConfigurationTarget.Global);
    try {
      const now = () => new Date(clock.now());
      const store = new ReportsStore(new SharedRecords(dir, checkTrackedReport), now);
      const tree = new ReportsTreeProvider(store, a.services.connections, now);
      disposables.push(store, tree);
      const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey });
      const r = await newReport(client, '14');
      await store.track(r, connectionId);
      const group = tree.getChildren().find((g) => g.kind === 'connection' && g.label === 'Tree emulator');
      assert.ok(group);
      const [node] = tree.getChildren(group) as ReportNode[];
      assert.equal(tree.getParent(node), group);
      const fired: (ReportsTreeNode | undefined)[] = [];
      disposables.push(tree.onDidChangeTreeData((n) => fired.push(n)));
      clock.advance(REPORT_DELAY_MS + 1000);
      const record = await client.getReport(r.reportId);
      await store.track(record, connectionId);
      await eventually(() => fired.length > 0, 'a change');
      assert.deepEqual(fired, [node]);
      assert.equal(node.contextValue, 'report-succeeded');
      assert.equal(
        tree.getChildren().find((g) => g.id === group.id),
        group,
        'the group node is kept',
      );
    } finally {
      await vscode.workspace
        .getConfiguration()
        .update('measurements.reports.showAllConnections', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a status the client does not know is polled for an hour, then polling stops and the node says why', async () => {
    const odd = await startEmulator({
      port: 0,
      clock,
      reportDelayMs: REPORT_DELAY_MS,
      faults: { rules: [{ kind: 'report-status', endpoint: 'reportStatus', reportStatus: 'queued' }] },
    });
    const c = await a.services.connections.add({ name: 'Odd status', baseUrl: odd.url, org: odd.org }, odd.apiKey);
    try {
      // Virtual time: each wait moves it at once, so an hour of polling takes a moment.
      const vc = virtualClock(clock.now());
      const waitClock: WaitClock = vc;
      const now = () => new Date(vc.t);
      const store = new ReportsStore(new SharedRecords(dir, checkTrackedReport), now);
      const tree = new ReportsTreeProvider(store, a.services.connections, now);
      disposables.push(store, tree);
      const client = new MeasurementsClient({ clock: systemClock, baseUrl: odd.url, apiKey: odd.apiKey });
      const r = await client.createReport({
        report: 'datasource-measurements',
        org: odd.org,
        allDatasources: true,
        outputFrequency: 'day',
        startTime: '2026-11-01',
        endTime: '2026-11-02',
      });
      const watcher = new ReportWatcher(
        store,
        a.services.clients,
        a.services.connections,
        waitClock,
        pollDelayMs,
        () => {},
        focused,
      );
      disposables.push(watcher);
      const started = vc.t;
      await store.track(r, c.id);
      assert.deepEqual(watcher.watched(), [r.reportId]);
      await eventually(
        () => !watcher.watched().includes(r.reportId),
        () => `polling to stop (virtual time ${Math.round((vc.t - started) / 60_000)} min)`,
        600,
      );
      const t = store.get(c.id, r.reportId);
      assert.equal(t?.record.reportStatus, 'queued');
      const polled = vc.t - started;
      assert.ok(polled >= 60 * 60_000 && polled <= 62 * 60_000, `stopped after ${polled / 60_000} min`);
      assert.match(String(t?.lastError), /status "queued" is not one this version knows; checked for 1h, then stopped/);
      await vscode.workspace
        .getConfiguration()
        .update('measurements.reports.showAllConnections', true, vscode.ConfigurationTarget.Global);
      const group = tree.getChildren().find((g) => g.kind === 'connection' && g.label === 'Odd status');
      assert.ok(group);
      const [node] = tree.getChildren(group) as ReportNode[];
      assert.equal((node.iconPath as vscode.ThemeIcon).id, 'question');
      assert.match(String(node.description), /^⚠ status "queued" is not one this version knows/);
    } finally {
      await vscode.workspace
        .getConfiguration()
        .update('measurements.reports.showAllConnections', undefined, vscode.ConfigurationTarget.Global);
      await a.services.connections.remove(c.id);
      await odd.close();
    }
  });
});
