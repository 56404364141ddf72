import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator } from '../../src/emulator/index';
import type { TestResult } from '../../src/extension/commands/connection-commands';
import type { MeasurementsApi } from '../../src/extension/extension';
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

  it('a connection removed from the user settings by hand keeps its key: only Remove Connection deletes keys', async () => {
    const a = await api();
    const c = await a.services.connections.add(
      { name: 'Hand edited', baseUrl: 'https://x.example.invalid', org: 'o' },
      'hand-key',
    );
    try {
      const changed = nextConfigurationChange();
      await vscode.workspace
        .getConfiguration('measurements')
        .update('connections', [], vscode.ConfigurationTarget.Global);
      await changed;
      await settle();
      assert.equal(a.services.connections.get(c.id), undefined, 'the connection is gone');
      assert.equal(
        await a.services.connections.keys.get(c.id),
        'hand-key',
        'its key is not deleted by a settings change',
      );
    } finally {
      await a.services.connections.keys.delete(c.id);
    }
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

describe('a workspace cannot take over connections or destroy keys', function () {
  this.timeout(90_000);
  // Written as a cloned repository ships them: the workspace's .vscode/settings.json, by hand.
  const settingsFile = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
  let original: string | undefined;
  let marker = 10;
  let a: MeasurementsApi;
  let userSvc: RecordingService;
  let wsSvc: RecordingService;
  let added: string[] = [];

  /** Replaces the workspace settings and waits until VS Code has read them (a marker setting). */
  async function writeWorkspaceSettings(values: Record<string, unknown>): Promise<void> {
    marker++;
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({ ...values, 'measurements.quotaWarningThreshold': marker }, null, 2),
    );
    await eventually(
      () => vscode.workspace.getConfiguration('measurements').get('quotaWarningThreshold') === marker,
      'VS Code to read the workspace settings',
    );
    await settle();
  }

  async function addMine(key = 'user-secret-key') {
    const mine = await a.services.connections.add({ name: 'Mine', baseUrl: userSvc.url, org: 'o' }, key);
    added.push(mine.id);
    return mine;
  }

  before(async () => {
    a = await api();
    original = fs.existsSync(settingsFile()) ? fs.readFileSync(settingsFile(), 'utf8') : undefined;
  });
  beforeEach(async () => {
    userSvc = await recordingService();
    wsSvc = await recordingService();
    added = [];
  });
  afterEach(async () => {
    if (original === undefined) fs.rmSync(settingsFile(), { force: true });
    else fs.writeFileSync(settingsFile(), original);
    await eventually(
      () =>
        vscode.workspace.getConfiguration('measurements').inspect('quotaWarningThreshold')?.workspaceValue ===
        undefined,
      'the workspace settings to be restored',
    );
    for (const id of added) await a.services.connections.remove(id);
    await a.services.connections.select('local-emulator');
    await userSvc.close();
    await wsSvc.close();
  });

  it('(a) a workspace entry reusing the id of my connection with another base URL never receives my key', async () => {
    const mine = await addMine();
    await a.services.connections.select(mine.id);
    await writeWorkspaceSettings({
      'measurements.connections': [{ id: mine.id, name: 'Mine', baseUrl: wsSvc.url, org: 'o' }],
      'measurements.activeConnection': mine.id,
    });
    assert.equal(a.services.connections.get(mine.id)?.baseUrl, userSvc.url, 'my base URL, not the workspace one');
    const result = await vscode.commands.executeCommand<TestResult>('measurements.testConnection');
    assert.equal(result?.ok, true, result?.message);
    // A notebook's client goes the same way (the active connection, or one named in its metadata).
    const { client } = await a.services.clients.forConnection({ ...mine, baseUrl: wsSvc.url });
    await client.listDatasources('o');
    assert.deepEqual(wsSvc.seen, [], 'the workspace base URL got no request at all');
    assert.ok(userSvc.seen.filter((r) => r.key === 'user-secret-key').length >= 2, 'my key went to my service');
  });

  it('(b) my connections stay, and the workspace can neither add one nor make its own entry active', async () => {
    const mine = await addMine();
    await a.services.connections.select(mine.id);
    await writeWorkspaceSettings({
      'measurements.connections': [{ id: 'ws-production', name: 'Production', baseUrl: wsSvc.url, org: 'o' }],
      'measurements.activeConnection': 'ws-production',
    });
    assert.deepEqual(
      a.services.connections.list().map((c) => c.id),
      ['local-emulator', mine.id],
    );
    assert.equal(a.services.connections.get('ws-production'), undefined);
    assert.equal(a.services.connections.activeId(), mine.id, 'my choice stands');

    // Running on the active connection reaches my service; a "no key set" prompt for "Production" never comes.
    const result = await vscode.commands.executeCommand<TestResult>('measurements.testConnection');
    assert.equal(result?.ok, true, result?.message);
    assert.match(String(result?.message), /^Mine: /);
    assert.deepEqual(wsSvc.seen, []);

    const driver = new QuickInputDriver(a);
    try {
      const selecting = vscode.commands.executeCommand('measurements.selectConnection');
      const pick = await driver.pick('Local emulator');
      await selecting;
      assert.ok(
        !pick.items.some((i) => i.label.includes('Production')),
        'Select Connection offers my connections only',
      );
      assert.equal(a.services.connections.activeId(), 'local-emulator', 'my choice here wins over the workspace pick');
    } finally {
      driver.dispose();
    }

    // What a workspace may do: pick one of MY connections, by name.
    await writeWorkspaceSettings({ 'measurements.activeConnection': 'Mine' });
    assert.equal(a.services.connections.activeId(), mine.id);
  });

  it('(c) a workspace (or a branch checkout) saying measurements.connections: [] deletes no stored key', async () => {
    const mine = await addMine();
    await writeWorkspaceSettings({
      'measurements.connections': [{ id: 'x', name: 'X', baseUrl: wsSvc.url, org: 'o' }],
    });
    await writeWorkspaceSettings({ 'measurements.connections': [] });
    assert.equal(await a.services.connections.keys.get(mine.id), 'user-secret-key');
    assert.ok(a.services.connections.keys.ids().includes(mine.id));
    assert.ok(a.services.connections.get(mine.id), 'my connection is still listed');
  });

  it('(d) Add Connection keeps my list as it was plus the new entry: no workspace entry copied, no key deleted', async () => {
    const mine = await addMine();
    await writeWorkspaceSettings({
      'measurements.connections': [{ id: 'ws-production', name: 'Production', baseUrl: wsSvc.url, org: 'o' }],
    });
    const driver = new QuickInputDriver(a);
    try {
      const adding = vscode.commands.executeCommand<string>('measurements.addConnection');
      await driver.type('Second');
      await driver.type(userSvc.url);
      await driver.type('o2');
      await driver.type('second-key');
      const id = await adding;
      assert.ok(id);
      added.push(id);
      const user = vscode.workspace.getConfiguration('measurements').inspect<unknown[]>('connections')?.globalValue;
      assert.deepEqual(user, [
        { id: mine.id, name: 'Mine', baseUrl: userSvc.url, org: 'o' },
        { id, name: 'Second', baseUrl: userSvc.url, org: 'o2' },
      ]);
      assert.equal(await a.services.connections.keys.get(mine.id), 'user-secret-key');
      assert.equal(await a.services.connections.keys.get(id), 'second-key');
      assert.deepEqual(wsSvc.seen, []);
    } finally {
      driver.dispose();
    }
  });
});

interface RecordingService {
  url: string;
  /** Every request: its path and the x-api-key header it carried. */
  seen: { url: string; key?: string }[];
  close(): Promise<void>;
}

/** A local HTTP server answering like the service (an empty datasource list) and recording each request. */
async function recordingService(): Promise<RecordingService> {
  const seen: RecordingService['seen'] = [];
  const server = http.createServer((req, res) => {
    const key = req.headers['x-api-key'];
    seen.push({ url: req.url ?? '', key: typeof key === 'string' ? key : undefined });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ subscribingOrg: 'o', datasources: [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A port nothing listens on (bound, then released). */
function freeClosedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The next configuration change event (any setting). */
function nextConfigurationChange(): Promise<void> {
  return new Promise((resolve) => {
    const sub = vscode.workspace.onDidChangeConfiguration(() => {
      sub.dispose();
      resolve();
    });
  });
}

/** Lets handlers of a change that just happened run to the end (they are async). */
function settle(ms = 750): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
