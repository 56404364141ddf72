// A service that answers like the real one but with a hostile report id (`../../.vscode`) and file
// URL: the Reports view never writes outside its download folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ReportRecord } from '../../src/core/api/types';
import type { MeasurementsApi } from '../../src/extension/extension';
import type { TrackedReport } from '../../src/extension/reports/tracked-report';
import { api } from './helpers';
import { QuickInputDriver } from './quick-input-driver';

const HOSTILE_ID = '../../.vscode';
const CSV = 'datasourceId,time,pm2_5ConcMassNowcast\nD1,2026-11-01T00:00:00.000Z,4\n';

/** Every path under dir (relative), links included, without following them. */
function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
}

describe('report downloads from a hostile service stay inside the download folder', function () {
  this.timeout(60_000);
  let a: MeasurementsApi;
  let server: http.Server;
  let base: string;
  let connectionId: string;
  let ws: string;
  let driver: QuickInputDriver;
  const errors: string[] = [];
  let restoreLog: () => void;

  const record = (reportId: string): ReportRecord => ({
    reportId,
    reportStatus: 'succeeded',
    message: 'Complete',
    report: 'datasource-measurements',
    urls: [`${base}/files/..%2F..%2F.vscode%2Ftasks.json?sig=1`],
    query: { startTime: '2026-11-01T00:00:00Z', endTime: '2026-11-02T00:00:00Z' },
  });

  before(async () => {
    a = await api();
    ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/files/')) return res.end(CSV);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(record(HOSTILE_ID)));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const c = await a.services.connections.add({ name: 'Hostile service', baseUrl: base, org: 'o' }, 'hostile-key');
    connectionId = c.id;
    await a.services.connections.select(c.id);
    driver = new QuickInputDriver(a);
    const log = a.services.log;
    const original = log.error;
    log.error = (m: string) => {
      errors.push(m);
      original.call(log, m);
    };
    restoreLog = () => {
      log.error = original;
    };
  });

  after(async () => {
    restoreLog?.();
    driver?.dispose();
    for (const r of a.services.reports.forConnection(connectionId)) {
      await a.services.reports.remove(connectionId, r.reportId);
    }
    await a.services.connections.remove(connectionId);
    await new Promise((r) => server.close(r));
    fs.rmSync(path.join(ws, '.measurements'), { recursive: true, force: true });
  });

  it('Add Report by Id refuses the id where it arrives: nothing tracked, nothing written', async () => {
    const before = tree(ws);
    errors.length = 0;
    const added = await vscode.commands.executeCommand('measurements.addReportById', 'R1');
    assert.equal(added, undefined, 'the command failed');
    assert.ok(
      errors.some((m) => m.includes('report id that is not letters, digits, - and _ ("../../.vscode"); refusing it')),
      errors.join('\n'),
    );
    assert.equal(a.services.reports.get(connectionId, HOSTILE_ID), undefined);
    assert.deepEqual(tree(ws), before);
  });

  it('Open Report File of a report kept with that id downloads into .measurements/reports, neutralised', async () => {
    // As if tracked before ids were checked where they arrive (a report kept in global state).
    const tracked: TrackedReport = await a.services.reports.track(record(HOSTILE_ID), connectionId);
    const before = tree(ws);
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('measurements.openReportFile', {
      report: tracked,
      file: tracked.files[0],
    });
    const folder = path.join(ws, '.measurements', 'reports', '_.._.vscode');
    const local = path.join(folder, '_.._.vscode_tasks.json');
    assert.equal(editor?.document.uri.fsPath, local);
    assert.equal(fs.readFileSync(local, 'utf8'), CSV);
    assert.ok(!fs.existsSync(path.join(ws, '.vscode', 'tasks.json')), 'nothing in the workspace .vscode');
    assert.ok(!fs.existsSync(path.join(ws, '..', '.vscode', 'tasks.json')), 'nothing above the workspace');
    const added = tree(ws).filter((p) => !before.includes(p));
    const inside = path.join('.measurements', 'reports', '_.._.vscode');
    assert.ok(
      added.every((p) => inside.startsWith(p) || p.startsWith(inside)),
      `written: ${added.join(', ')}`,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Download Report Files refuses a symbolic link planted where the report folder goes', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-outside-'));
    try {
      const reports = path.join(ws, '.measurements', 'reports');
      fs.mkdirSync(reports, { recursive: true });
      fs.symlinkSync(outside, path.join(reports, 'R2'));
      // A plain id this time: only the planted link leads outside.
      const tracked = await a.services.reports.track({ ...record('R2') }, connectionId);
      errors.length = 0;
      const downloading = vscode.commands.executeCommand('measurements.downloadReportFiles', { report: tracked });
      const pick = await driver.pick('Default folder');
      assert.equal(pick.items[0].description, path.join(reports, 'R2'));
      assert.equal(await downloading, undefined, 'the command failed');
      assert.ok(
        errors.some((m) => /Refusing to write into .*R2: it leads to .*, outside the chosen folder/.test(m)),
        errors.join('\n'),
      );
      assert.deepEqual(fs.readdirSync(outside), [], 'nothing written through the link');
      assert.equal(a.services.reports.get(connectionId, 'R2')?.files[0].localPath, undefined);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('measurements.downloadFolder from workspace settings may not lead outside the workspace', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-outside-'));
    const config = vscode.workspace.getConfiguration('measurements');
    await config.update('downloadFolder', outside, vscode.ConfigurationTarget.Workspace);
    try {
      const tracked = await a.services.reports.track(record('R3'), connectionId);
      errors.length = 0;
      const opened = await vscode.commands.executeCommand('measurements.openReportFile', {
        report: tracked,
        file: tracked.files[0],
      });
      assert.equal(opened, undefined, 'the command failed');
      assert.ok(
        errors.some((m) => m.includes('measurements.downloadFolder in the workspace settings') && m.includes(outside)),
        errors.join('\n'),
      );
      assert.deepEqual(fs.readdirSync(outside), []);
    } finally {
      await config.update('downloadFolder', undefined, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
