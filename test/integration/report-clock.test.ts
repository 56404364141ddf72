// Create Report and Re-run read the extension's one clock (ExtensionServices.clock), as cells do: with the
// clock set to a fixed date, `today` and `-1d` resolve against that date, not the machine's.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReportRecord } from '../../src/core/api/types';
import { type HostEmulator, startHostEmulator, stopHostEmulator } from './helpers';
import { QuickInputDriver } from './quick-input-driver';

const START = '2026-11-20T09:00:00Z';

describe('report commands follow the extension clock', function () {
  this.timeout(120_000);
  let host: HostEmulator;
  let driver: QuickInputDriver;
  let previous: string;

  before(async () => {
    host = await startHostEmulator('Clock test emulator', START);
    previous = host.a.services.connections.activeId();
    await host.a.services.connections.select(host.connectionId);
    driver = new QuickInputDriver(host.a);
  });

  after(async () => {
    driver?.dispose();
    if (previous) await host.a.services.connections.select(previous);
    await stopHostEmulator(host);
  });

  let created: ReportRecord;

  it('Create Report: -1d and today resolve against the clock set (not the machine date)', async () => {
    // Moved on a little, so a clock read once at activation would also be caught.
    host.clock.set(Date.parse('2026-11-20T10:30:00Z'));
    const pending = vscode.commands.executeCommand<ReportRecord>('measurements.createReport');
    await driver.pick('datasource-measurements');
    await driver.pick(['All datasources']);
    await driver.pick('hour');
    await driver.type('-1d');
    await driver.type('today');
    await driver.pick('canonical');
    await driver.pick('csv-wide');
    await driver.pick("service's default");
    await driver.pick([]);
    const record = await pending;
    assert.ok(record, 'the report was created');
    assert.equal(Date.parse(String(record.query.startTime)), Date.parse('2026-11-19T10:30:00Z'), 'start: -1d');
    assert.equal(Date.parse(String(record.query.endTime)), Date.parse('2026-11-20T00:00:00Z'), 'end: today');
    created = record;
  });

  it('Re-run: new dates -2d and today resolve against the clock set', async () => {
    host.clock.set(Date.parse('2026-11-21T06:00:00Z'));
    const tracked = host.a.services.reports.get(host.connectionId, created.reportId);
    assert.ok(tracked, 'the created report is tracked');
    const pending = vscode.commands.executeCommand<ReportRecord>('measurements.rerunReport', { report: tracked });
    await driver.type('-2d');
    await driver.type('today');
    const record = await pending;
    assert.ok(record, 'the re-run was sent');
    assert.equal(Date.parse(String(record.query.startTime)), Date.parse('2026-11-19T06:00:00Z'), 'start: -2d');
    assert.equal(Date.parse(String(record.query.endTime)), Date.parse('2026-11-21T00:00:00Z'), 'end: today');
  });
});
