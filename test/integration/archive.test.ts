// The Archive command runs the archive core in the extension host against the emulator, with its
// answers given through the real workbench; Copy Archive Snippet copies an engine's snippet for the folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { type HostEmulator, startHostEmulator, stopHostEmulator } from './helpers';
import { QuickInputDriver } from './quick-input-driver';

describe('archive commands', function () {
  this.timeout(120_000);
  let host: HostEmulator;
  let driver: QuickInputDriver;
  let previous: string;
  let dir: string;

  before(async () => {
    host = await startHostEmulator('Archive test emulator', '2026-11-20T09:00:00Z', {
      reportDelayMs: 0,
      datasources: 8,
    });
    previous = host.a.services.connections.activeId();
    await host.a.services.connections.select(host.connectionId);
    driver = new QuickInputDriver(host.a);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-archive-host-'));
  });

  after(async () => {
    driver?.dispose();
    if (previous) await host.a.services.connections.select(previous);
    await stopHostEmulator(host);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Archive Org History writes the Hive partitions and the manifest into the chosen folder', async () => {
    const ds = host.emu.facts.datasources[0].datasourceId;
    const pending = vscode.commands.executeCommand<string | undefined>('measurements.archive', vscode.Uri.file(dir));
    await driver.type('2026-09-01');
    await driver.type('2026-11-01');
    await driver.pick('hour');
    await driver.type(ds);
    const done = await pending;
    assert.match(String(done), /Archive complete: 2 months fetched/);
    const months = fs.readdirSync(path.join(dir, 'frequency=hour', `datasourceId=${ds}`, 'year=2026')).sort();
    assert.deepEqual(months, ['month=09', 'month=10']);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'measnb-archive.json'), 'utf8'));
    assert.equal(manifest.partitions[`hour/${ds}/2026-10`].rows, 31 * 24);
  });

  it('Copy Archive Snippet copies the chosen engine’s snippet for the folder', async () => {
    const pending = vscode.commands.executeCommand('measurements.copyArchiveSnippet', vscode.Uri.file(dir));
    await driver.pick('spark');
    await pending;
    const text = await vscode.env.clipboard.readText();
    assert.ok(text.includes(`option("basePath", ${JSON.stringify(dir)})`), text);
    assert.ok(text.includes(`.parquet(${JSON.stringify(path.join(dir, 'frequency=hour'))})`), text);
  });
});
