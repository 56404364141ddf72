// Add Connection, Set API Key, Remove Connection, Select Connection, Test Connection.
import * as vscode from 'vscode';
import { isMeasurementsError } from '../../core/api/errors';
import { baseUrlProblem, type Connection, insecureUrlWarning, isLocalEmulator } from '../connections/connection';
import type { ExtensionServices } from '../services';
import { notify } from '../ui/notices';
import { inputText, pickOne } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';

type ConnectionItem = vscode.QuickPickItem & { connection: Connection };

async function pickConnection(s: ExtensionServices, title: string, filter: (c: Connection) => boolean = () => true) {
  const active = s.connections.activeId();
  const items: ConnectionItem[] = s.connections
    .list()
    .filter(filter)
    .map((c) => ({
      label: `${c.id === active ? '$(check) ' : ''}${c.name}`,
      description: isLocalEmulator(c) ? 'built in, no key needed' : `${c.org} · ${c.baseUrl}`,
      connection: c,
    }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No connections to choose from. Run "Measurements: Add Connection".');
    return undefined;
  }
  return (await pickOne(items, { title, placeholder: 'Choose a connection' }))?.connection;
}

export function registerConnectionCommands(s: ExtensionServices): vscode.Disposable[] {
  return [
    registerCommand('measurements.addConnection', () => addConnection(s)),
    registerCommand('measurements.setApiKey', (id?: string) => setApiKey(s, id)),
    registerCommand('measurements.removeConnection', (id?: string) => removeConnection(s, id)),
    registerCommand('measurements.selectConnection', (id?: string) => selectConnection(s, id)),
    registerCommand('measurements.testConnection', (id?: string) => testConnectionCommand(s, id)),
  ];
}

const required = (what: string) => (t: string) => (t.trim() ? undefined : `${what} is required`);

/** The four steps of Add Connection: name, base URL, org, API key (undefined when cancelled). */
async function askNewConnection(): Promise<{ name: string; baseUrl: string; org: string; key: string } | undefined> {
  const step = { title: 'Add Measurements Connection', totalSteps: 4 };
  const name = await inputText({
    ...step,
    step: 1,
    prompt: 'A name for this connection',
    validate: required('A name'),
  });
  if (name === undefined) return undefined;
  const baseUrl = await inputText({
    ...step,
    step: 2,
    prompt: 'Base URL of the measurements service',
    placeholder: 'https://api.example.com',
    validate: baseUrlProblem,
  });
  if (baseUrl === undefined) return undefined;
  const org = await inputText({ ...step, step: 3, prompt: 'Your org id', validate: required('The org') });
  if (org === undefined) return undefined;
  const key = await inputText({
    ...step,
    step: 4,
    prompt: 'API key (kept in the OS keychain only)',
    password: true,
    validate: required('The API key'),
  });
  if (key === undefined) return undefined;
  return { name, baseUrl, org, key };
}

async function addConnection(s: ExtensionServices): Promise<string | undefined> {
  const answers = await askNewConnection();
  if (!answers) return undefined;
  const { name, baseUrl, org, key } = answers;
  const connection = await s.connections.add(
    { name: name.trim(), baseUrl: baseUrl.trim(), org: org.trim() },
    key.trim(),
  );
  await s.connections.select(connection.id);
  const warning = insecureUrlWarning(connection.baseUrl);
  if (warning) void notify('warning', warning);
  void vscode.window
    .showInformationMessage(`Connection "${connection.name}" added and selected.`, 'Test Connection')
    .then((a) => {
      if (a) void vscode.commands.executeCommand('measurements.testConnection', connection.id);
    });
  return connection.id;
}

async function setApiKey(s: ExtensionServices, id?: string): Promise<void> {
  const connection = id ? s.connections.get(id) : await pickConnection(s, 'Set API Key', (c) => !isLocalEmulator(c));
  if (!connection) return;
  if (isLocalEmulator(connection)) {
    void vscode.window.showInformationMessage('The local emulator needs no key.');
    return;
  }
  const key = await inputText({
    title: `API key for ${connection.name}`,
    prompt: 'Stored in the OS keychain (SecretStorage) only',
    password: true,
    validate: required('The API key'),
  });
  if (key === undefined) return;
  await s.connections.keys.set(connection.id, key.trim());
  void vscode.window.showInformationMessage(`API key saved for "${connection.name}".`);
}

async function removeConnection(s: ExtensionServices, id?: string): Promise<void> {
  const connection = id
    ? s.connections.get(id)
    : await pickConnection(s, 'Remove Connection', (c) => !isLocalEmulator(c));
  if (!connection) return;
  await s.connections.remove(connection.id);
  void vscode.window.showInformationMessage(`Connection "${connection.name}" and its API key were removed.`);
}

async function selectConnection(s: ExtensionServices, id?: string): Promise<void> {
  const connection = id ? s.connections.get(id) : await pickConnection(s, 'Select Connection');
  if (!connection) return;
  await s.connections.select(connection.id);
}

async function testConnectionCommand(s: ExtensionServices, id?: string): Promise<TestResult | undefined> {
  const connection = id ? s.connections.get(id) : s.connections.active();
  if (!connection) return undefined;
  const result = await testConnection(s, connection);
  if (result.ok) void vscode.window.showInformationMessage(result.message);
  else void vscode.window.showErrorMessage(result.message);
  return result;
}

export interface TestResult {
  ok: boolean;
  /** Which step failed: reaching the base URL, or the authenticated call. */
  failedStep?: 'base-url' | 'authenticated';
  message: string;
}

/** GET {base_url} without the key, then an authenticated call (list datasources); says which failed and why. */
async function testConnection(s: ExtensionServices, connection: Connection): Promise<TestResult> {
  let connected: Awaited<ReturnType<typeof s.clients.forConnection>>;
  try {
    connected = await s.clients.forConnection(connection);
  } catch (e) {
    return { ok: false, failedStep: 'authenticated', message: (e as Error).message };
  }
  const base = connected.connection.baseUrl;
  try {
    await s.clients.anonymous(connection, base).ping();
  } catch (e) {
    return {
      ok: false,
      failedStep: 'base-url',
      message: `${connection.name}: GET ${base} failed: ${(e as Error).message}`,
    };
  }
  try {
    const list = await connected.client.listDatasources(connected.connection.org);
    return {
      ok: true,
      message: `${connection.name}: ${base} reached, key accepted for org ${connected.connection.org} (${list.datasources.length} datasources).`,
    };
  } catch (e) {
    const why = isMeasurementsError(e) ? e.message : String((e as Error).message ?? e);
    return {
      ok: false,
      failedStep: 'authenticated',
      message: `${connection.name}: ${base} reached, but the authenticated call failed: ${why}`,
    };
  }
}
