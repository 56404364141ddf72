// A notebook's time zone in the real extension host: the setting measurements.timeZone is the default, the
// notebook's picker (status bar / toolbar quick pick) writes its metadata, the outputs carry the zone
// (ResultInfo.timeZone: the renderer shows and counts their times in it) and are relabelled when it changes,
// and sql cells run with it as DuckDB's TimeZone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { codeCell, MIME } from '../../src/core/notebook';
import { cellText } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import { SELECT_TIME_ZONE_COMMAND } from '../../src/extension/notebook/notebook-time-zone';
import {
  api,
  EXTENSION_ID,
  eventually,
  type HostEmulator,
  openNotebook,
  runCell,
  startHostEmulator,
  stopHostEmulator,
} from './helpers';
import { QuickInputDriver } from './quick-input-driver';

const CONNECTION = 'Time zone test emulator';
const SQL = "sql as z\nSELECT current_setting('TimeZone') AS tz";

describe('notebook time zone', function () {
  this.timeout(180_000);
  let host: HostEmulator;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-tz-'));
  let seq = 0;

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T12:00:30Z');
  });
  after(async () => {
    await vscode.workspace.getConfiguration('measurements').update('timeZone', undefined, true);
    await stopHostEmulator(host);
  });

  const open = (metadata: Record<string, unknown> = {}) =>
    openNotebook(path.join(scratch, `tz-${++seq}.measnb`), {
      metadata: { connection: CONNECTION, ...metadata },
      cells: [codeCell(SQL)],
    });
  const output = (nb: vscode.NotebookDocument) =>
    nb.cellAt(0).outputs.find((o) => o.items.some((i) => i.mime === MIME.table));
  const zoneOfOutput = (nb: vscode.NotebookDocument) =>
    (output(nb)?.metadata?.measnb as { timeZone?: unknown })?.timeZone;
  const sqlZone = (nb: vscode.NotebookDocument) => {
    const item = output(nb)?.items.find((i) => i.mime === MIME.table);
    assert.ok(item, 'a table output');
    const t = decodeTable(item.data);
    return cellText(t.columns[0], 0);
  };

  it('is in the notebook toolbar', () => {
    const menus = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes.menus;
    assert.ok(menus['notebook/toolbar'].some((m: { command: string }) => m.command === SELECT_TIME_ZONE_COMMAND));
  });

  it('defaults to the setting measurements.timeZone (UTC unless set): sql and the output follow it', async () => {
    const plain = await open();
    assert.equal((await runCell(plain, 0)).success, true);
    assert.equal(sqlZone(plain), 'UTC');
    assert.deepEqual(zoneOfOutput(plain), { name: 'UTC', dayBoundary: 'clock' });
    await vscode.workspace.getConfiguration('measurements').update('timeZone', 'Asia/Kathmandu', true);
    const nb = await open();
    assert.equal((await runCell(nb, 0)).success, true);
    assert.equal(sqlZone(nb), 'Asia/Kathmandu');
    assert.deepEqual(zoneOfOutput(nb), { name: 'Asia/Kathmandu', dayBoundary: 'clock' });
    await vscode.workspace.getConfiguration('measurements').update('timeZone', undefined, true);
  });

  it('the picker writes the metadata, relabels the outputs at once, and the next sql run uses it', async () => {
    const nb = await open();
    assert.equal((await runCell(nb, 0)).success, true);
    const before = nb.cellAt(0).executionSummary;
    const driver = new QuickInputDriver(await api());
    try {
      const picking = vscode.commands.executeCommand(SELECT_TIME_ZONE_COMMAND, nb.uri);
      const qp = await driver.pick('America/Denver');
      assert.equal(qp.items[0].label, 'UTC', 'the current zone first');
      await picking;
    } finally {
      driver.dispose();
    }
    assert.equal(nb.metadata.timeZone, 'America/Denver');
    assert.equal(nb.metadata.dayBoundary, 'clock');
    await eventually(
      () => JSON.stringify(zoneOfOutput(nb)) === JSON.stringify({ name: 'America/Denver', dayBoundary: 'clock' }),
      () => `the output relabelled: ${JSON.stringify(zoneOfOutput(nb))}`,
    );
    assert.equal(nb.cellAt(0).executionSummary?.executionOrder, before?.executionOrder, 'the run is kept');
    assert.equal(sqlZone(nb), 'UTC', 'the rows are those of the run');
    assert.equal((await runCell(nb, 0)).success, true);
    assert.equal(sqlZone(nb), 'America/Denver');
  });

  it("the other day boundary from the same pick; a notebook's metadata wins over the setting", async () => {
    await vscode.workspace.getConfiguration('measurements').update('timeZone', 'Europe/Paris', true);
    const nb = await open({ timeZone: 'America/Denver' });
    const driver = new QuickInputDriver(await api());
    try {
      const picking = vscode.commands.executeCommand(SELECT_TIME_ZONE_COMMAND, nb.uri);
      await driver.pick('Day boundary: standard');
      await picking;
    } finally {
      driver.dispose();
    }
    assert.equal(nb.metadata.timeZone, 'America/Denver');
    assert.equal(nb.metadata.dayBoundary, 'standard');
    assert.equal((await runCell(nb, 0)).success, true);
    assert.deepEqual(zoneOfOutput(nb), { name: 'America/Denver', dayBoundary: 'standard' });
    await vscode.workspace.getConfiguration('measurements').update('timeZone', undefined, true);
  });
});
