import assert from 'node:assert/strict';
import net from 'node:net';
import * as vscode from 'vscode';
import { startEmulator } from '../../src/emulator/index';
import type { TestResult } from '../../src/extension/commands/connection-commands';
import { api, eventually } from './helpers';
import { QuickInputDriver } from './quick-input-driver';

describe('connections and keys', () => {
  it('Add Connection keeps the key in SecretStorage only, and Remove Connection deletes it', async () => {
    const a = await api();
    const driver = new QuickInputDriver(a);
    try {
      const key = `key-${Math.random().toString(36).slice(2)}`;
      const added = vscode.commands.executeCommand<string>('measurements.addConnection');
      await driver.type('Team service');
      await driver.type('https://measurements.example.invalid');
      await driver.type('team-org');
      await driver.type(key);
      const id = await added;
      assert.ok(id, 'the command returns the new connection id');

      const setting = vscode.workspace.getConfiguration('measurements').get<unknown[]>('connections', []);
      assert.deepEqual(setting, [
        { id, name: 'Team service', baseUrl: 'https://measurements.example.invalid', org: 'team-org' },
      ]);
      assert.ok(!JSON.stringify(setting).includes(key), 'the key is not in settings');
      assert.equal(await a.services.connections.keys.get(id), key, 'the key reads back from SecretStorage');
      assert.equal(a.services.connections.activeId(), id, 'the new connection is selected');

      const removed = vscode.commands.executeCommand('measurements.removeConnection');
      await driver.pick('Team service');
      await removed;
      assert.equal(await a.services.connections.keys.get(id), undefined, 'the key is gone with its connection');
      assert.ok(!a.services.connections.keys.ids().includes(id));
      assert.deepEqual(vscode.workspace.getConfiguration('measurements').get('connections'), []);
      assert.equal(a.services.connections.activeId(), 'local-emulator', 'falls back to the local emulator');
    } finally {
      driver.dispose();
    }
  });

  it('Add Connection warns when the key would travel over plain http to a host that is not local', async () => {
    const a = await api();
    const driver = new QuickInputDriver(a);
    const notices: string[] = [];
    const sub = a.onDidNotify((n) => n.severity === 'warning' && notices.push(n.message));
    let id: string | undefined;
    try {
      const added = vscode.commands.executeCommand<string>('measurements.addConnection');
      await driver.type('Plain http');
      await driver.type('http://measurements.example.invalid');
      await driver.type('team-org');
      await driver.type('plain-key');
      id = await added;
      const warning = await eventually(() => notices.find((m) => m.includes('not https')), 'the http warning');
      assert.match(
        warning,
        /^http:\/\/measurements\.example\.invalid is not https: the API key would travel unencrypted/,
      );
      assert.ok(!warning.includes('plain-key'), 'the warning does not show the key');
    } finally {
      sub.dispose();
      driver.dispose();
      if (id) await a.services.connections.remove(id);
    }
  });

  it('Set API Key replaces the stored key; Select Connection switches the active connection', async () => {
    const a = await api();
    const driver = new QuickInputDriver(a);
    const c = await a.services.connections.add(
      { name: 'Rotating', baseUrl: 'https://r.example.invalid', org: 'r' },
      'old-key',
    );
    try {
      const setting = vscode.commands.executeCommand('measurements.setApiKey');
      await driver.pick('Rotating');
      const box = await driver.type('new-key');
      assert.equal(box.password, true, 'the key is typed into a password box');
      await setting;
      assert.equal(await a.services.connections.keys.get(c.id), 'new-key');

      const selecting = vscode.commands.executeCommand('measurements.selectConnection');
      await driver.pick('Rotating');
      await selecting;
      assert.equal(a.services.connections.activeId(), c.id);
      assert.equal(vscode.workspace.getConfiguration('measurements').get('activeConnection'), c.id);
    } finally {
      driver.dispose();
      await a.services.connections.remove(c.id);
    }
  });

  it('deletes the key of a connection removed from settings.json by hand (no orphaned secret)', async () => {
    const a = await api();
    const c = await a.services.connections.add(
      { name: 'Hand edited', baseUrl: 'https://x.example.invalid', org: 'o' },
      'hand-key',
    );
    assert.equal(await a.services.connections.keys.get(c.id), 'hand-key');
    await vscode.workspace
      .getConfiguration('measurements')
      .update('connections', [], vscode.ConfigurationTarget.Global);
    await eventually(
      async () => (await a.services.connections.keys.get(c.id)) === undefined,
      'the orphaned key to be deleted',
    );
    assert.ok(!a.services.connections.keys.ids().includes(c.id));
  });

  it('an input box refuses a base URL that is not http(s), saying why', async () => {
    const a = await api();
    const driver = new QuickInputDriver(a);
    try {
      const added = vscode.commands.executeCommand<string>('measurements.addConnection');
      await driver.type('Bad');
      const box = await driver.type('ftp://example.invalid');
      await eventually(() => box.validationMessage, 'a validation message');
      assert.match(String(box.validationMessage), /https:\/\/ or http:\/\//);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await added, undefined);
      assert.deepEqual(vscode.workspace.getConfiguration('measurements').get('connections'), []);
    } finally {
      driver.dispose();
    }
  });

  it('Test Connection says which step failed and why (base URL, then the authenticated call)', async () => {
    const a = await api();
    const emu = await startEmulator({ port: 0 });
    const closed = await freeClosedPort();
    try {
      const good = await a.services.connections.add({ name: 'Good', baseUrl: emu.url, org: emu.org }, emu.apiKey);
      const badKey = await a.services.connections.add(
        { name: 'Bad key', baseUrl: emu.url, org: emu.org },
        'not-the-key',
      );
      const down = await a.services.connections.add(
        { name: 'Down', baseUrl: `http://127.0.0.1:${closed}`, org: emu.org },
        emu.apiKey,
      );
      const ok = await vscode.commands.executeCommand<TestResult>('measurements.testConnection', good.id);
      assert.equal(ok?.ok, true, ok?.message);
      assert.match(String(ok?.message), /key accepted for org demo-org \(\d+ datasources\)/);

      const rejected = await vscode.commands.executeCommand<TestResult>('measurements.testConnection', badKey.id);
      assert.equal(rejected?.ok, false);
      assert.equal(rejected?.failedStep, 'authenticated');
      assert.match(String(rejected?.message), /reached, but the authenticated call failed: .*40[13]/);
      assert.ok(!String(rejected?.message).includes('not-the-key'), 'the key is not in the message');

      const unreachable = await vscode.commands.executeCommand<TestResult>('measurements.testConnection', down.id);
      assert.equal(unreachable?.ok, false);
      assert.equal(unreachable?.failedStep, 'base-url');
      assert.match(String(unreachable?.message), /GET http:\/\/127\.0\.0\.1:\d+\/? failed: Could not reach/);
      for (const c of [good, badKey, down]) await a.services.connections.remove(c.id);
    } finally {
      await emu.close();
    }
  });
});

/** A port nothing listens on (bound, then released). */
function freeClosedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
