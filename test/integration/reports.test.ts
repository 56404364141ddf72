import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ReportRecord } from '../../src/core/api/types';
import { connectionStyleSlots } from '../../src/core/aq/line-styles';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { parseCell } from '../../src/core/query/parse';
import { resolveCell } from '../../src/core/query/resolve';
import { pollDelayMs } from '../../src/core/reports/schedule';
import { sleep, systemClock } from '../../src/core/time/clock';
import { ManualClock, type RunningEmulator, startEmulator } from '../../src/emulator/index';
import { LOCAL_EMULATOR_NAME } from '../../src/extension/connections/connection';
import type { MeasurementsApi } from '../../src/extension/extension';
import { NOTEBOOK_TYPE } from '../../src/extension/notebook/serializer';
import { checkQuotaMark, QuotaTracker } from '../../src/extension/quota/quota-tracker';
import type { ReportNode } from '../../src/extension/reports/report-nodes';
import { PAUSE_WHEN_UNFOCUSED_MS, ReportWatcher } from '../../src/extension/reports/report-watcher';
import { checkTrackedReport, ReportsStore } from '../../src/extension/reports/reports-store';
import { SharedRecords } from '../../src/extension/state/shared-records';
import type { TableFileEditor } from '../../src/extension/table/table-editor';
import type { ShownPanel } from '../../src/extension/table/table-panel';
import type { Notice } from '../../src/extension/ui/notices';
import { api, eventually } from './helpers';
import { QuickInputDriver } from './quick-input-driver';

const REPORT_DELAY_MS = 10 * 60_000;

const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

/** Answers every step of Create Report: all datasources, hourly, 2 days, canonical csv, one metric. */
async function answerCreateReport(driver: QuickInputDriver) {
  await answerUpToMetricSelect(driver);
  await driver.type('only pm2_5ConcMassNowcast');
  await driver.pick([]);
}

/** Answers Create Report up to the typed metricSelect (all datasources, hourly, 2 days, canonical csv). */
async function answerUpToMetricSelect(driver: QuickInputDriver) {
  await driver.pick('datasource-measurements');
  await driver.pick(['All datasources']);
  await driver.pick('hour');
  await driver.type('2026-11-18');
  await driver.type('2026-11-20');
  await driver.pick('canonical');
  await driver.pick('csv-wide');
  await driver.pick('Type a metricSelect');
}

/** The workbench's Back (what the Back button of a step does). */
const back = () => vscode.commands.executeCommand('workbench.action.quickInputBack');

/** The view type of the active tab when it is a custom editor. */
function activeCustomViewType(): string | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom ? input.viewType : undefined;
}

/** A node's tooltip as read (the Markdown escapes of service text removed: "2026\\-11" is "2026-11"). */
function tooltipText(node: ReportNode): string {
  return (node.tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');
}

function reportNode(a: MeasurementsApi, reportId: string): ReportNode | undefined {
  // The suite bundles its own copy of the classes: match on the node's kind, not instanceof.
  return a.tree.getChildren().find((n): n is ReportNode => n.kind === 'report' && n.report.reportId === reportId);
}

describe('reports against the emulator, through the commands', function () {
  this.timeout(120_000);
  let a: MeasurementsApi;
  /** The extension's clock, as a window's parts read it. */
  const now = () => a.services.clock.now();
  let emu: RunningEmulator;
  let clock: ManualClock;
  let connectionId: string;
  let driver: QuickInputDriver;
  const notices: Notice[] = [];
  let noticeSub: vscode.Disposable;

  before(async () => {
    a = await api();
    clock = new ManualClock(Date.parse('2026-11-20T09:00:00Z'));
    emu = await startEmulator({ port: 0, clock, reportDelayMs: REPORT_DELAY_MS });
    const c = await a.services.connections.add({ name: 'Test emulator', baseUrl: emu.url, org: emu.org }, emu.apiKey);
    connectionId = c.id;
    await a.services.connections.select(c.id);
    driver = new QuickInputDriver(a);
    noticeSub = a.onDidNotify((n) => notices.push(n));
  });

  after(async () => {
    driver?.dispose();
    noticeSub?.dispose();
    await a.services.connections.remove(connectionId);
    await emu?.close();
  });

  let reportId: string;

  /** The line style slots of `ids` over the connection's whole datasource list (core/aq/line-styles). */
  async function connectionSlots(ids: string[]): Promise<Record<string, number>> {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const all = (await client.listDatasources(emu.org)).datasources.map((d) => d.datasourceId);
    return connectionStyleSlots(all, ids);
  }

  it('Create Report: the node goes in progress, then succeeded (with a notification), and its file downloads and opens', async () => {
    const created = vscode.commands.executeCommand<{ reportId: string; reportStatus: string }>(
      'measurements.createReport',
    );
    await answerCreateReport(driver);
    const record = await created;
    assert.ok(record, 'the command returned the created report');
    assert.equal(record.reportStatus, 'in-progress');
    reportId = record.reportId;
    await eventually(
      () => a.services.quota.used(`${connectionId}|${emu.org}`) === 1,
      'the report counted against the quota',
    );
    assert.equal(a.quotaStatus.text, '$(graph) 1/30 reports (this machine)', 'the text says it is counted here');

    const pending = reportNode(a, reportId);
    assert.ok(pending, 'the report is in the Reports view');
    assert.equal(pending.contextValue, 'report-in-progress');
    assert.equal((pending.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    // What tells reports apart is the label: range, frequency, datasources; the kind and age follow.
    assert.equal(pending.label, 'Nov 18–20 · hour · all ds');
    assert.match(String(pending.description), /^\d+s ago$/);
    const tip = tooltipText(pending);
    assert.ok(tip.includes('2026-11-18T00:00Z → 2026-11-20T00:00Z, hour'), tip);
    assert.ok(tip.includes(reportId), tip);
    assert.ok(a.watcher.watched().includes(reportId), 'an in-progress report is polled');

    clock.advance(REPORT_DELAY_MS + 1000);
    const done = await eventually(
      () => {
        const n = reportNode(a, reportId);
        return n?.contextValue === 'report-succeeded' ? n : undefined;
      },
      () =>
        `the report to succeed (polling; the node is ${reportNode(a, reportId)?.contextValue}, last error ${reportNode(a, reportId)?.report.lastError})`,
    );
    assert.equal((done.iconPath as vscode.ThemeIcon).id, 'pass-filled');
    const expireAt = done.report.record.urlsExpireAt;
    assert.ok(expireAt, 'the emulator sends urlsExpireAt');
    assert.match(String(done.description), /links (expire in \d+[mh]|expired)$/, 'the URL expiry is shown');
    assert.ok(!a.watcher.watched().includes(reportId), 'polling stops at a terminal status');
    const ready = await eventually(
      () => notices.find((n) => n.message.includes('is ready')),
      'the finished notification',
    );
    assert.deepEqual(ready.actions, ['Open']);

    const files = a.tree.getChildren(done);
    assert.ok(files.length >= 1, 'the succeeded report has file children');

    const downloading = vscode.commands.executeCommand<{ files: { localPath?: string }[] }>(
      'measurements.downloadReportFiles',
      done,
    );
    await driver.pick('Default folder');
    const updated = await downloading;
    const local = updated.files[0].localPath!;
    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.equal(path.dirname(local), path.join(ws, '.measurements', 'reports', reportId));
    const head = fs.readFileSync(local, 'utf8').split('\n')[0];
    assert.match(head, /datasourceId/);
    assert.match(head, /pm2_5ConcMassNowcast/);

    const fresh = a.services.reports.get(connectionId, reportId)!;
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('measurements.openReportFile', {
      report: fresh,
      file: fresh.files[0],
    });
    assert.equal(editor?.document.uri.fsPath, local);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, local);

    // Open as Table: the downloaded file in the Measurements Table editor (the bounded, streamed reader).
    const table = await vscode.commands.executeCommand<TableFileEditor>('measurements.openReportFileAsTable', {
      report: fresh,
      file: fresh.files[0],
    });
    assert.ok(table, 'a table editor opened');
    assert.equal(table.uri.fsPath, local);
    assert.equal(activeCustomViewType(), 'measurements.csvTable');
    const view = await table.view.shown;
    console.log(`      table editor: ${view.view}, ${view.rowCount} rows × ${view.columnCount} columns`);
    const lines = fs.readFileSync(local, 'utf8').trimEnd().split('\n');
    assert.deepEqual(view, { view: 'renderer', rowCount: lines.length - 1, columnCount: lines[0].split(',').length });
    assert.equal((await table.loaded).totalRows, lines.length - 1);
    // Its datasources styled over the connection's whole list, as the notebook outputs of the same data are.
    const at = lines[0].split(',').indexOf('datasourceId');
    const inFile = [...new Set(lines.slice(1).map((l) => l.split(',')[at]))];
    assert.ok(inFile.length > 1, inFile.join(', '));
    assert.deepEqual((await table.info).datasourceStyles, await connectionSlots(inFile));
    table.view.panel.dispose();
  });

  it('Open on a Parquet report file (the file node’s click, the ready notice’s Open) shows it as a table', async () => {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey });
    const created = await client.createReport({
      org: emu.org,
      report: 'datasource-measurements',
      datasourceIds: emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId),
      outputFrequency: 'hour',
      startTime: '2026-11-19T00:00:00Z',
      endTime: '2026-11-20T00:00:00Z',
      fileFormat: 'parquet',
    });
    clock.advance(REPORT_DELAY_MS + 1000);
    const record = await client.getReport(created.reportId);
    assert.equal(record.reportStatus, 'succeeded');
    await a.services.reports.track(record, connectionId);
    const tracked = a.services.reports.get(connectionId, created.reportId)!;
    assert.match(tracked.files[0].name, /\.parquet$/);
    const shown = await vscode.commands.executeCommand<TableFileEditor>('measurements.openReportFile', {
      report: tracked,
      file: tracked.files[0],
    });
    assert.ok(shown?.view.panel, 'a table opened (not nothing, not a binary text editor)');
    assert.equal(activeCustomViewType(), 'measurements.tableFile', 'in the Measurements Table editor');
    const view = await shown.view.shown;
    assert.equal(view.view, 'renderer');
    assert.equal(view.rowCount, 2 * 24, 'two datasources, 24 hours');
    const read = await shown.loaded;
    assert.equal(read.format, 'parquet');
    assert.equal(read.totalRows, 2 * 24);
    assert.ok(
      read.table.columns.some((c) => c.name === 'datasourceId'),
      'the report columns are read',
    );
    const ids = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
    assert.deepEqual((await shown.info).datasourceStyles, await connectionSlots(ids), 'styled by the connection');
    shown.view.panel.dispose();
  });

  it('a second window creating a report at the same time as this one: both listed here, both counted', async () => {
    // The second window: its own stores (own caches) over the folders every window shares.
    const other = {
      reports: new ReportsStore(new SharedRecords(a.services.reports.records.dir, checkTrackedReport), now),
      quota: new QuotaTracker(new SharedRecords(a.services.quota.marks.dir, checkQuotaMark), now),
    };
    const key = `${connectionId}|${emu.org}`;
    const usedBefore = a.services.quota.used(key);
    try {
      const here = vscode.commands.executeCommand<{ reportId: string }>('measurements.createReport');
      const there = (async () => {
        // Its own client: its request is counted by that window only.
        const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey });
        const r = await client.createReport({
          report: 'datasource-measurements',
          org: emu.org,
          allDatasources: true,
          outputFrequency: 'day',
          startTime: '2026-11-10',
          endTime: '2026-11-12',
        });
        await other.quota.recordCreated(key);
        await other.reports.track(r, connectionId);
        return r;
      })();
      await answerCreateReport(driver);
      const [mine, theirs] = await Promise.all([here, there]);
      await eventually(() => a.services.quota.used(key) === usedBefore + 2, 'both creations counted here');
      await eventually(
        () => reportNode(a, mine.reportId) && reportNode(a, theirs.reportId),
        () => `both reports in this window's Reports view (${a.tree.getChildren().map((n) => n.label)})`,
      );
      assert.equal(reportNode(a, theirs.reportId)?.label, 'Nov 10–12 · day · all ds', 'told apart by their labels');
      await eventually(
        () => other.reports.get(connectionId, mine.reportId) && other.quota.used(key) === usedBefore + 2,
        'both reports and the count in the other window',
      );
      await eventually(
        () => a.quotaStatus.text.includes(`${usedBefore + 2}/30 reports`),
        () => `the status bar to count both (${a.quotaStatus.text})`,
      );
    } finally {
      other.reports.dispose();
      other.quota.dispose();
    }
  });

  it('Create Report: Back returns to the previous step with its answer; -1d and today are accepted as in cells', async () => {
    const created = vscode.commands.executeCommand<ReportRecord>('measurements.createReport');
    await driver.pick('datasource-measurements');
    await driver.pick(['All datasources']);
    await driver.pick('day');
    const start = await driver.type('-1d');
    assert.equal(start.validationMessage, undefined, 'a relative start is accepted');
    const end = (await driver.next()) as vscode.InputBox;
    assert.match(String(end.prompt), /^endTime/);
    assert.equal(end.step, 5);
    await back();
    const startAgain = (await driver.next()) as vscode.InputBox;
    assert.match(String(startAgain.prompt), /^startTime/, 'Back shows the start time step again');
    assert.equal(startAgain.value, '-1d', 'with its answer');
    assert.equal(startAgain.step, 4);
    await accept();
    await driver.type('today');
    await driver.pick('canonical');
    await driver.pick('csv-wide');
    await driver.pick("service's default");
    await driver.pick([]);
    const record = await created;
    assert.ok(record, 'the report was created');
    // Sent as timestamps resolved when sent: today is 00:00 UTC, -1d a day before the moment it was sent.
    const s0 = Date.parse(String(record.query.startTime));
    const e0 = Date.parse(String(record.query.endTime));
    assert.equal(e0 % 86_400_000, 0, `today is UTC midnight (${record.query.endTime})`);
    assert.ok(s0 < e0 && e0 - s0 <= 86_400_000, `${record.query.startTime} → ${record.query.endTime}`);
    assert.equal(record.query.metricSelect, undefined, "the service's default: no metricSelect");
  });

  it('Create Report: a misspelt metric warns (a real connection decides), a bare only blocks; Back, then picks from the catalogue', async () => {
    const tracked = a.services.reports.forConnection(connectionId).length;
    const created = vscode.commands.executeCommand<ReportRecord>('measurements.createReport');
    await answerUpToMetricSelect(driver);
    // This connection is not the built-in emulator: to the client it is a real service, which owns its catalogue.
    const box = await driver.type('only pm2_5ConcMassNowcst');
    const warning = box.validationMessage as vscode.InputBoxValidationMessage;
    assert.equal(warning?.severity, vscode.InputBoxValidationSeverity.Warning, JSON.stringify(warning));
    assert.match(
      warning.message,
      /unknown metric label 'pm2_5ConcMassNowcst'; did you mean pm2_5ConcMassNowcast\?.*the service will decide/,
    );
    await assert.rejects(driver.next(1000), /no quick input/, 'the first Enter showed the warning');
    box.value = 'only';
    await new Promise((r) => setTimeout(r, 100));
    await accept();
    assert.match(String(box.validationMessage), /'only' must be followed by a metric/);
    await assert.rejects(driver.next(1000), /no quick input/, 'a bare only does not move on either');
    assert.equal(a.services.reports.forConnection(connectionId).length, tracked, 'nothing was sent');

    await back();
    const how = await driver.pick('Pick metrics and categories');
    assert.equal(how.step, 8);
    const catalogue = (await driver.next()) as vscode.QuickPick<vscode.QuickPickItem>;
    const labels = catalogue.items.map((i) => i.label);
    assert.ok(labels.includes(':pm25') && labels.includes(':gas'), "the grammar's categories are offered");
    assert.ok(labels.includes('pm2_5ConcMassNowcast'), 'the hourly catalogue is offered');
    assert.ok(!labels.includes('pm2_5ConcMass'), 'minute-only metrics are not offered at hour output');
    catalogue.selectedItems = catalogue.items.filter((i) => i.label === ':pm25' || i.label === 'no2Conc1HourMean');
    await new Promise((r) => setTimeout(r, 100));
    await accept();
    const text = (await driver.next()) as vscode.InputBox;
    assert.equal(text.value, 'only :pm25 + no2Conc1HourMean', 'the picks as a selection, to check or edit');
    await accept();
    await driver.pick([]);
    const record = await created;
    assert.equal(record?.query.metricSelect, 'only :pm25 + no2Conc1HourMean');
  });

  it('Create Report: a pattern that matches no metric is a warning, as in cells; once shown, Enter goes on and the report is sent', async () => {
    const created = vscode.commands.executeCommand<ReportRecord>('measurements.createReport');
    await answerUpToMetricSelect(driver);
    const box = await driver.type('only pm2_5ConcMassNowcast + *Nowcst*');
    const warning = box.validationMessage as vscode.InputBoxValidationMessage;
    assert.equal(warning?.severity, vscode.InputBoxValidationSeverity.Warning, JSON.stringify(warning));
    assert.match(warning.message, /'\*Nowcst\*' matches no metric at hour output/);
    await assert.rejects(driver.next(1000), /no quick input/, 'the first Enter showed the warning');
    await accept();
    const options = await driver.pick([]);
    assert.equal(options.step, 10, 'Enter moved on to the options');
    const record = await created;
    assert.equal(record?.query.metricSelect, 'only pm2_5ConcMassNowcast + *Nowcst*', 'sent as typed');
  });

  it('measurements.downloadFolder (relative to the workspace) is where the default download goes', async () => {
    const config = vscode.workspace.getConfiguration('measurements');
    await config.update('downloadFolder', 'custom-downloads', vscode.ConfigurationTarget.Workspace);
    try {
      const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
      const expected = path.join(ws, 'custom-downloads', reportId);
      const node = reportNode(a, reportId)!;
      const downloading = vscode.commands.executeCommand<{ files: { localPath?: string }[] }>(
        'measurements.downloadReportFiles',
        node,
      );
      const choice = await driver.pick('Default folder');
      assert.equal(choice.items[0].description, expected, 'the pick names the folder');
      const updated = await downloading;
      const local = updated.files[0].localPath!;
      assert.equal(path.dirname(local), expected);
      assert.match(fs.readFileSync(local, 'utf8').split('\n')[0], /pm2_5ConcMassNowcast/);
      fs.rmSync(path.join(ws, 'custom-downloads'), { recursive: true, force: true });
    } finally {
      await config.update('downloadFolder', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a reload keeps the tracked reports and resumes polling the ones still in progress', async () => {
    const { client } = await a.services.clients.forConnection();
    const pending = await client.createReport({
      report: 'datasource-measurements',
      org: emu.org,
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      startTime: '2026-11-19',
      endTime: '2026-11-20',
    });
    const pendingId = pending.reportId;
    await a.services.reports.track(pending, connectionId);
    a.watcher.dispose(); // the window "goes away" with its watcher

    // What activation does after a reload: a new store over the shared records, a new watcher, resume().
    const store = new ReportsStore(new SharedRecords(a.services.reports.records.dir, checkTrackedReport), now);
    assert.ok(store.get(connectionId, reportId), 'the finished report is still tracked');
    assert.ok(store.get(connectionId, pendingId), 'the in-progress report is still tracked');
    const watcher = new ReportWatcher(
      store,
      a.services.clients,
      a.services.connections,
      a.services.clock,
      pollDelayMs,
      () => {},
    );
    try {
      watcher.resume();
      assert.ok(watcher.watched().includes(pendingId), 'polling resumed for the in-progress report');
      clock.advance(REPORT_DELAY_MS + 1000);
      await eventually(
        () =>
          store.get(connectionId, pendingId)?.record.reportStatus === 'succeeded' &&
          !watcher.watched().includes(pendingId),
        () => {
          const t = store.get(connectionId, pendingId);
          return `the resumed report to succeed and its polling to stop (status ${t?.record.reportStatus}, last error ${t?.lastError}, polled ${watcher.watched().includes(pendingId)})`;
        },
      );
    } finally {
      watcher.dispose();
      store.dispose();
    }
  });

  it("after a reload, the next check is scheduled from the report's age, not from a fresh start", async () => {
    const { client } = await a.services.clients.forConnection();
    const pending = await client.createReport({
      report: 'datasource-measurements',
      org: emu.org,
      datasourceIds: [emu.facts.datasources[2].datasourceId],
      outputFrequency: 'hour',
      startTime: '2026-11-15',
      endTime: '2026-11-16',
    });
    const store = new ReportsStore(new SharedRecords(a.services.reports.records.dir, checkTrackedReport), now);
    await store.track(pending, connectionId);
    const added = Date.parse(store.get(connectionId, pending.reportId)?.addedAt ?? '');
    // The window reloads twenty minutes later (its clock says so): a new watcher over the same records.
    const windowClock = { nowMs: () => added + 20 * 60_000, sleep };
    const ages: number[] = [];
    const schedule = (ageMs: number) => {
      ages.push(ageMs);
      return 60_000;
    };
    const watcher = new ReportWatcher(
      store,
      a.services.clients,
      a.services.connections,
      windowClock,
      schedule,
      () => {},
    );
    try {
      watcher.resume();
      await eventually(
        () => ages.length > 0 && store.get(connectionId, pending.reportId)?.checkedAt,
        'the check at resume',
      );
      assert.equal(ages[0], 20 * 60_000, 'the next check is planned from the age of the report');
      assert.ok(pollDelayMs(ages[0]) >= 27_000, 'which, on the real schedule, is past the fast phase');
      assert.ok(pollDelayMs(0) <= 2200, 'where a new report is checked within seconds');
      assert.deepEqual(watcher.scheduled(), [pending.reportId]);
    } finally {
      watcher.dispose();
      store.dispose();
    }
  });

  it('polling pauses while the window has been unfocused for long, and resumes with a check on focus', async () => {
    const { client } = await a.services.clients.forConnection();
    const pending = await client.createReport({
      report: 'datasource-measurements',
      org: emu.org,
      datasourceIds: [emu.facts.datasources[1].datasourceId],
      outputFrequency: 'day',
      startTime: '2026-11-10',
      endTime: '2026-11-12',
    });
    const focus = new vscode.EventEmitter<boolean>();
    let focused = true;
    let t = Date.parse('2026-11-20T09:00:00Z');
    const windowClock = { nowMs: () => t, sleep };
    const store = new ReportsStore(new SharedRecords(a.services.reports.records.dir, checkTrackedReport), now);
    const watcher = new ReportWatcher(
      store,
      a.services.clients,
      a.services.connections,
      windowClock,
      () => 50, // checks every 50 ms: a pause shows at once
      () => {},
      { focused: () => focused, onDidChange: (l) => focus.event(l) },
    );
    try {
      await store.track(pending, connectionId);
      await eventually(() => watcher.scheduled().includes(pending.reportId), 'polling to start');
      focused = false;
      focus.fire(false);
      t += PAUSE_WHEN_UNFOCUSED_MS + 1000;
      await eventually(() => !watcher.scheduled().includes(pending.reportId), 'polling to pause');
      clock.advance(REPORT_DELAY_MS + 1000); // ready on the service, but nobody asks while paused
      assert.ok(watcher.paused());
      assert.equal(store.get(connectionId, pending.reportId)?.record.reportStatus, 'in-progress');
      focused = true;
      focus.fire(true);
      await eventually(
        () => store.get(connectionId, pending.reportId)?.record.reportStatus === 'succeeded',
        'a check as soon as the window is focused again',
      );
    } finally {
      watcher.dispose();
      store.dispose();
      focus.dispose();
    }
  });

  it('Create Report asks first when the quota is nearly spent: Cancel sends nothing, Continue creates', async () => {
    const key = `${connectionId}|${emu.org}`;
    while (a.services.quota.used(key) < 25) await a.services.quota.recordCreated(key);
    const used = a.services.quota.used(key);
    await eventually(() => a.quotaStatus.text.includes(`${used}/30 reports`), 'the status bar to show the count');
    const tracked = a.services.reports.forConnection(connectionId).length;

    const cancelled = vscode.commands.executeCommand('measurements.createReport');
    const ask = await driver.pick('Cancel');
    assert.match(String(ask.title), new RegExp(`Only ${30 - used} of 30 reports left today for ${emu.org}`));
    assert.equal(await cancelled, undefined, 'no report was created');
    assert.equal(a.services.quota.used(key), used, 'nothing counted');
    assert.equal(a.services.reports.forConnection(connectionId).length, tracked, 'nothing tracked');

    const created = vscode.commands.executeCommand<{ reportId: string }>('measurements.createReport');
    await driver.pick('Continue (uses 1 report)');
    await answerCreateReport(driver);
    const record = await created;
    assert.ok(record?.reportId, 'the report was created after the warning');
    assert.equal(a.services.quota.used(key), used + 1);
    await eventually(() => reportNode(a, record.reportId), 'the new report in the view');
  });

  it('a 429 is explained with the reset time, and the status bar count is corrected to 30/30', async () => {
    // Spend the rest of the org's quota behind the extension's back (another machine, say).
    const other = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    let spent = 0;
    for (; spent < 30; spent++) {
      const r = await other
        .createReport({
          report: 'datasource-measurements',
          org: emu.org,
          allDatasources: true,
          outputFrequency: 'day',
          startTime: '2026-11-01',
          endTime: '2026-11-02',
        })
        .catch((e) => e);
      if (r instanceof Error) break;
    }
    assert.ok(spent > 0 && spent < 30, `spent ${spent} reports before the service said 429`);
    const before = notices.length;
    const created = vscode.commands.executeCommand('measurements.createReport');
    await driver.pick('Continue (uses 1 report)'); // counted here: 26 of 30, so it asks first
    await answerCreateReport(driver);
    assert.equal(await created, undefined, 'no report was created');
    const notice = await eventually(
      () => notices.slice(before).find((n) => n.severity === 'error'),
      'the quota notice',
    );
    // The one quota text (core/api/quota-text.ts), as the CLI says it.
    assert.match(
      notice.message,
      /^Daily report limit reached for org \S+ \(30 per UTC day\); resets at 00:00 UTC, in \d+h\d\dm\. No report was created\.$/,
    );
    const key = `${connectionId}|${emu.org}`;
    await eventually(
      () => /30\/30 reports/.test(a.quotaStatus.text),
      `the status bar to say 30/30 (${a.quotaStatus.text})`,
    );
    assert.equal(a.services.quota.used(key), 30);
    assert.equal(a.services.quota.remaining(key), 0);
    assert.equal(a.quotaStatus.text, '$(graph) 30/30 reports', 'exact once the service said: no "(this machine)"');
    const tip = String(a.quotaStatus.tooltip);
    assert.match(tip, /30 of 30 daily reports used today, counted on this machine/);
    assert.match(tip, /The service answered 429/, 'the tooltip says the count was corrected by the service');

    // The next attempt warns first (the quota is spent) and can be cancelled there.
    const again = vscode.commands.executeCommand('measurements.createReport');
    const warning = await driver.pick('Cancel');
    assert.match(String(warning.title), /All 30 reports of today are used/);
    assert.equal(await again, undefined);
  });

  it('Run Recent Query opens the result as a table; Add Report by Id and Copy Report Id work on the view', async () => {
    const running = vscode.commands.executeCommand<ShownPanel>('measurements.runRecentQuery');
    await driver.pick([emu.facts.datasources[0].datasourceId, emu.facts.datasources[1].datasourceId]);
    await driver.pick('hour');
    await driver.pick('csv-wide');
    const shown = await running;
    assert.ok(shown, 'a table panel opened');
    assert.match(shown.panel.title, /^Recent hour · Test emulator/);
    const view = await shown.shown;
    assert.equal(view.view, 'renderer', 'the rows are on screen in the renderer');
    assert.ok(view.rowCount > 0 && view.columnCount > 3, JSON.stringify(view));
    // Line styles over the connection's whole datasource list, as a notebook output of the same result has them.
    const picked = [emu.facts.datasources[0].datasourceId, emu.facts.datasources[1].datasourceId];
    assert.deepEqual(shown.info.datasourceStyles, await connectionSlots(picked));
    shown.panel.dispose();

    // A report made elsewhere (say, by the CLI) is added by its id.
    await a.services.reports.remove(connectionId, reportId);
    assert.equal(reportNode(a, reportId), undefined);
    await vscode.commands.executeCommand('measurements.addReportById', reportId);
    const node = await eventually(() => reportNode(a, reportId), 'the added report in the view');
    assert.equal(node.contextValue, 'report-succeeded');
    const copied = await vscode.commands.executeCommand('measurements.copyReportId', node);
    assert.equal(copied, reportId);
    assert.equal(await vscode.env.clipboard.readText(), reportId);
  });

  it('the output channel has one line per request, and never the key', async () => {
    const dir = a.logUri.fsPath;
    const text = await eventually(() => {
      const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
      const logs = files.filter((f) => f.endsWith('.log')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
      return logs.find((t) => /POST \/v2\/report-requests 429/.test(t));
    }, 'the Measurements log file with the requests');
    assert.match(text, /Test emulator: POST \/v2\/report-requests 200 \d+ ms, 0 retries/);
    assert.match(text, /Test emulator: GET \/v2\/report-requests\/\S+ 200 \d+ ms/);
    assert.ok(!text.includes(emu.apiKey), 'the API key is in the log');
  });
});

describe('Reports view actions: re-run, open as a cell, a failed report says why, all connections grouped', function () {
  this.timeout(120_000);
  let a: MeasurementsApi;
  let emu: RunningEmulator;
  let clock: ManualClock;
  let connectionId: string;
  let driver: QuickInputDriver;
  let failed: ReportNode;
  // Minute rows of every datasource for seven weeks: more than a Parquet file of the emulator may hold.
  const tooBig = {
    report: 'datasource-measurements',
    allDatasources: true,
    outputFrequency: 'minute',
    startTime: '2026-10-01T00:00:00Z',
    endTime: '2026-11-19T00:00:00Z',
    fileFormat: 'parquet-wide',
    qcFlags: true,
  } as const;

  before(async () => {
    a = await api();
    clock = new ManualClock(Date.parse('2026-11-20T09:00:00Z'));
    emu = await startEmulator({ port: 0, clock, reportDelayMs: REPORT_DELAY_MS });
    const c = await a.services.connections.add(
      { name: 'Actions emulator', baseUrl: emu.url, org: emu.org },
      emu.apiKey,
    );
    connectionId = c.id;
    await a.services.connections.select(c.id);
    driver = new QuickInputDriver(a);
  });

  after(async () => {
    driver?.dispose();
    await vscode.workspace
      .getConfiguration()
      .update('measurements.reports.showAllConnections', undefined, vscode.ConfigurationTarget.Global);
    await a.services.connections.remove(connectionId);
    await emu?.close();
  });

  it('a failed report shows its reason on its row, not only in the tooltip', async () => {
    const { client } = await a.services.clients.forConnection();
    const record = await client.createReport({ ...tooBig, org: emu.org });
    await a.services.reports.track(record, connectionId);
    clock.advance(REPORT_DELAY_MS + 1000);
    await vscode.commands.executeCommand('measurements.refreshReports');
    failed = await eventually(
      () => {
        const n = reportNode(a, record.reportId);
        return n?.contextValue === 'report-failed' ? n : undefined;
      },
      () => `the report to fail (it is ${reportNode(a, record.reportId)?.contextValue})`,
    );
    assert.match(
      String(failed.description),
      /^failed: Report generation failed: a parquet-wide file would hold over 500000 rows; use csv-wide or a shorter range · \d+s ago$/,
    );
    const tip = tooltipText(failed);
    assert.ok(tip.includes('use csv-wide or a shorter range'), 'the tooltip has the whole reason');
    // A narrow view cuts the description: the failed report opens on a row that says why.
    assert.equal(failed.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const [why] = a.tree.getChildren(failed);
    assert.equal(why.kind, 'message');
    assert.equal(
      why.label,
      'Report generation failed: a parquet-wide file would hold over 500000 rows; use csv-wide or a shorter range',
    );
    assert.equal((why.iconPath as vscode.ThemeIcon).id, 'error');
  });

  it('Re-run asks for new dates (the old ones filled in, Back between them) and sends the same request with them', async () => {
    const key = `${connectionId}|${emu.org}`;
    const used = a.services.quota.used(key);
    const rerun = vscode.commands.executeCommand<ReportRecord>('measurements.rerunReport', failed);
    const start = (await driver.next()) as vscode.InputBox;
    assert.equal(start.value, tooBig.startTime, 'the old startTime to edit');
    assert.match(String(start.prompt), /^startTime of the new report \(was 2026-10-01T00:00:00Z\)/);
    assert.equal(start.step, 1);
    start.value = '-2x';
    await new Promise((r) => setTimeout(r, 100));
    await accept();
    assert.match(String(start.validationMessage), /expected an ISO 8601 date/, 'checked as cells check times');
    start.value = '2026-11-18';
    await new Promise((r) => setTimeout(r, 100));
    await accept();
    const end = (await driver.next()) as vscode.InputBox;
    assert.equal(end.value, tooBig.endTime);
    end.value = '2026-11-17';
    await new Promise((r) => setTimeout(r, 100));
    await accept();
    assert.match(String(end.validationMessage), /endTime must be after startTime \(2026-11-18\)/);
    await back();
    const startAgain = (await driver.next()) as vscode.InputBox;
    assert.equal(startAgain.value, '2026-11-18', 'Back shows the start with its answer');
    await accept();
    await driver.type('2026-11-19T09:00:00Z');
    const record = await rerun;
    assert.ok(record, 'the re-run was sent');
    const { startTime, endTime, ...rest } = record.query;
    assert.equal(startTime, '2026-11-18');
    assert.equal(endTime, '2026-11-19T09:00:00Z');
    const { startTime: _s, endTime: _e, ...same } = tooBig;
    for (const [k, v] of Object.entries({ ...same, org: emu.org })) assert.deepEqual(rest[k], v, k);
    await eventually(() => a.services.quota.used(key) === used + 1, 'the re-run counted against the quota');
    const node = await eventually(() => reportNode(a, record.reportId), 'the new report in the view');
    assert.equal(node.label, 'Nov 18 00:00 +33h · minute · all ds');
    clock.advance(REPORT_DELAY_MS + 1000);
    await vscode.commands.executeCommand('measurements.refreshReports');
    await eventually(
      () => reportNode(a, record.reportId)?.contextValue === 'report-succeeded',
      'the shorter re-run to succeed',
    );
  });

  it('Open as Notebook Cell: a new notebook on the report’s connection, then a cell added to the active notebook', async () => {
    const cell = await vscode.commands.executeCommand<vscode.NotebookCell>(
      'measurements.openReportAsCell',
      failed,
      'new',
    );
    assert.ok(cell, 'a cell was made');
    const nb = cell.notebook;
    assert.equal(vscode.window.activeNotebookEditor?.notebook, nb, 'the new notebook is shown');
    assert.equal(nb.metadata.connection, 'Actions emulator', 'it runs on the report’s connection');
    const text = cell.document.getText();
    assert.equal(cell.document.languageId, 'measq');
    assert.ok(text.startsWith(`# Report ${failed.report.reportId} (failed)`), text);
    assert.ok(!/^org:/m.test(text), 'the org comes from the connection');
    const now = new Date(clock.now());
    const parsed = parseCell(text, { now });
    assert.ok(parsed.cell, JSON.stringify(parsed.diagnostics));
    const resolved = resolveCell(parsed.cell, { now, org: emu.org });
    assert.deepEqual(resolved.resolved, { verb: 'report', request: { ...tooBig, org: emu.org } });

    // With a measnb notebook active, it asks where: the active one gets the cell at its end.
    const adding = vscode.commands.executeCommand<vscode.NotebookCell>('measurements.openReportAsCell', failed);
    const where = await driver.pick('Add to');
    assert.deepEqual(
      where.items.map((i) => i.label.replace(/ Untitled-\d+\.measnb$/, ' …')),
      ['$(notebook) New notebook', '$(add) Add to …'],
    );
    const added = await adding;
    assert.equal(added.notebook, nb);
    assert.equal(nb.cellCount, 2);
    assert.equal(added.index, 1);
    assert.equal(added.document.getText(), text);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Open as Notebook Cell into an active notebook on another connection: asks to switch it or to open a new one', async () => {
    const data = new vscode.NotebookData([
      new vscode.NotebookCellData(vscode.NotebookCellKind.Code, 'recent', 'measq'),
    ]);
    data.metadata = { connection: LOCAL_EMULATOR_NAME };
    const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
    await vscode.window.showNotebookDocument(doc);

    const opening = vscode.commands.executeCommand<vscode.NotebookCell>('measurements.openReportAsCell', failed);
    await driver.pick('Add to');
    const ask = await driver.pick('New notebook on Actions emulator');
    assert.equal(
      ask.title,
      `Report ${failed.report.reportId} is from Actions emulator; this notebook runs on ${LOCAL_EMULATOR_NAME}`,
    );
    assert.deepEqual(
      ask.items.map((i) => i.label),
      ['$(plug) Switch this notebook to Actions emulator', '$(notebook) New notebook on Actions emulator'],
    );
    const opened = await opening;
    assert.notEqual(opened.notebook, doc, 'a new notebook');
    assert.equal(opened.notebook.metadata.connection, 'Actions emulator');
    assert.equal(doc.cellCount, 1, 'nothing was added to the notebook of the other connection');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    await vscode.window.showNotebookDocument(doc);
    const switching = vscode.commands.executeCommand<vscode.NotebookCell>('measurements.openReportAsCell', failed);
    await driver.pick('Add to');
    await driver.pick('Switch this notebook');
    const added = await switching;
    assert.equal(added.notebook, doc);
    assert.equal(doc.cellCount, 2);
    assert.equal(doc.metadata.connection, 'Actions emulator', 'the notebook now runs on the report’s connection');
    assert.ok(!/^org:/m.test(added.document.getText()), 'the org comes from that connection');

    // On the same connection now: added without a question.
    const again = vscode.commands.executeCommand<vscode.NotebookCell>('measurements.openReportAsCell', failed);
    await driver.pick('Add to');
    assert.equal((await again).notebook, doc);
    assert.equal(doc.cellCount, 3);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('show all connections: the reports of every connection, grouped by connection, the active one first', async () => {
    const other = await a.services.connections.add(
      { name: 'Second org', baseUrl: emu.url, org: emu.secondOrg.org },
      emu.secondOrg.apiKey,
    );
    try {
      const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.secondOrg.apiKey });
      const theirs = await client.createReport({ ...tooBig, org: emu.secondOrg.org, endTime: '2026-10-02' });
      await a.services.reports.track(theirs, other.id);
      assert.equal(reportNode(a, theirs.reportId), undefined, 'by default: the active connection’s reports only');

      await vscode.commands.executeCommand('measurements.reports.showAllConnections');
      const groups = await eventually(() => {
        const g = a.tree.getChildren();
        return g.every((n) => n.kind === 'connection') ? g : undefined;
      }, 'the view to group by connection');
      const names = groups.map((g) => String(g.label));
      assert.equal(names[0], 'Actions emulator', 'the active connection first');
      assert.ok(names.includes('Second org'), names.join());
      const second = groups[names.indexOf('Second org')];
      assert.deepEqual(
        a.tree.getChildren(second).map((n) => n.kind === 'report' && n.report.reportId),
        [theirs.reportId],
      );
      assert.equal(second.description, '1 report');
      assert.match(String(groups[0].description), /^active · \d+ reports$/);
      const mine = a.tree.getChildren(groups[0]).map((n) => n.kind === 'report' && n.report.reportId);
      assert.ok(mine.includes(failed.report.reportId));
      const child = a.tree.getChildren(second)[0];
      assert.equal(a.tree.getParent(child)?.id, second.id, 'a report’s parent is its connection');

      await vscode.commands.executeCommand('measurements.reports.showActiveConnection');
      await eventually(
        () => a.tree.getChildren().every((n) => n.kind === 'report'),
        'the active connection only again',
      );
    } finally {
      await a.services.connections.remove(other.id);
    }
  });

  it('a removed connection’s reports stay, grouped under "Removed connection": local files open, service actions are not offered', async () => {
    const gone = await a.services.connections.add(
      { name: 'Gone org', baseUrl: emu.url, org: emu.secondOrg.org },
      emu.secondOrg.apiKey,
    );
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.secondOrg.apiKey });
    const body = {
      report: 'datasource-measurements' as const,
      org: emu.secondOrg.org,
      allDatasources: true,
      outputFrequency: 'day' as const,
      startTime: '2026-11-01',
      endTime: '2026-11-03',
    };
    const kept = await client.createReport(body);
    const remote = await client.createReport({ ...body, endTime: '2026-11-02' });
    clock.advance(REPORT_DELAY_MS + 1000);
    for (const r of [kept, remote]) await a.services.reports.track(await client.getReport(r.reportId), gone.id);
    const downloading = vscode.commands.executeCommand<{ files: { localPath?: string }[] }>(
      'measurements.downloadReportFiles',
      { report: a.services.reports.get(gone.id, kept.reportId) },
    );
    await driver.pick('Default folder');
    const local = (await downloading).files[0].localPath!;
    await a.services.connections.remove(gone.id);

    await vscode.commands.executeCommand('measurements.reports.showAllConnections');
    try {
      const group = await eventually(
        () => a.tree.getChildren().find((g) => g.kind === 'connection' && g.label === 'Removed connection'),
        'the group of the removed connection',
      );
      assert.equal(group.contextValue, 'connection-removed');
      assert.equal(a.tree.getChildren().at(-1), group, 'after the connections that exist');
      const nodes = a.tree.getChildren(group) as ReportNode[];
      const ids = nodes.map((n) => n.report.reportId);
      assert.ok(ids.includes(kept.reportId) && ids.includes(remote.reportId), ids.join());
      assert.equal(group.description, `${nodes.length} reports`);
      const keptNode = nodes.find((n) => n.report.reportId === kept.reportId)!;
      assert.equal(keptNode.contextValue, 'orphan-report-succeeded', 'no download, re-run or refresh is offered');
      assert.match((keptNode.tooltip as vscode.MarkdownString).value, /Its connection was removed/);
      assert.equal(a.tree.getParent(keptNode), group);

      const [file] = a.tree.getChildren(keptNode);
      assert.equal(file.contextValue, 'reportFile-downloaded', 'a downloaded file still opens');
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('measurements.openReportFile', file);
      assert.equal(editor?.document.uri.fsPath, local);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

      const remoteNode = nodes.find((n) => n.report.reportId === remote.reportId)!;
      const [cloud] = a.tree.getChildren(remoteNode);
      assert.equal(cloud.contextValue, 'orphan-reportFile-remote');
      assert.equal(cloud.command, undefined, 'a click does not try to download it');
      assert.equal(cloud.description, 'not downloaded · connection removed');
      assert.equal(await vscode.commands.executeCommand('measurements.rerunReport', remoteNode), undefined);

      // Cleaned up deliberately: Remove These Reports from View (asked first); the files stay on disk.
      const forgetting = vscode.commands.executeCommand<number>('measurements.forgetReports', group);
      await driver.pick(`Remove ${nodes.length} report(s)`);
      assert.equal(await forgetting, nodes.length);
      await eventually(
        () => !a.tree.getChildren().some((g) => g.label === 'Removed connection'),
        'the group to go away',
      );
      assert.ok(fs.existsSync(local), 'the downloaded file stays');
    } finally {
      await vscode.commands.executeCommand('measurements.reports.showActiveConnection');
      fs.rmSync(path.dirname(local), { recursive: true, force: true });
    }
  });
});
