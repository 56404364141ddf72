// Starting and stopping code-server for the lanes and the demo. code-server runs in its own process
// group (detached = setsid) and is always stopped with the whole group: its children (extension host,
// file watcher, pty host) outlive a plain kill of the launcher.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CODE_SERVER_BIN, node24Env } from './toolchain.mjs';

/** User settings every scratch profile starts with: no start page, no chat, no telemetry, no updates. */
export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'window.restoreWindows': 'none',
};

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A fresh profile under `dir`: user-data (with the seeded settings), extensions, XDG config/data and a
 * workspace folder. Anything there from an earlier run is removed first.
 */
export function scratchProfile(dir, { settings = {} } = {}) {
  fs.rmSync(dir, { recursive: true, force: true });
  const p = {
    dir,
    userDataDir: path.join(dir, 'user-data'),
    extensionsDir: path.join(dir, 'extensions'),
    xdgDir: path.join(dir, 'xdg'),
    workspace: path.join(dir, 'workspace'),
  };
  for (const d of [path.join(p.userDataDir, 'User'), p.extensionsDir, p.xdgDir, p.workspace]) {
    fs.mkdirSync(d, { recursive: true });
  }
  fs.writeFileSync(
    path.join(p.userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...USER_SETTINGS, ...settings }, null, 2),
  );
  return p;
}

function csEnv(xdgDir, extra) {
  return node24Env({
    XDG_CONFIG_HOME: path.join(xdgDir, 'config'),
    XDG_DATA_HOME: path.join(xdgDir, 'data'),
    XDG_CACHE_HOME: path.join(xdgDir, 'cache'),
    ...extra,
  });
}

/** `code-server --install-extension` into a profile; throws with code-server's output when it fails. */
export function installExtension(vsix, { userDataDir, extensionsDir, xdgDir }) {
  const r = spawnSync(
    CODE_SERVER_BIN,
    ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'],
    { env: csEnv(xdgDir), encoding: 'utf8', timeout: 120_000 },
  );
  const out = `${r.stdout}${r.stderr}`;
  if (r.status !== 0 || !/successfully installed/i.test(out)) {
    throw new Error(`installing ${vsix} into code-server failed (exit ${r.status}):\n${out}`);
  }
  const dirs = fs.readdirSync(extensionsDir).filter((d) => !d.startsWith('.') && d !== 'extensions.json');
  return dirs.map((d) => path.join(extensionsDir, d));
}

const live = new Set();
let hooked = false;
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const c of live) killGroup(c);
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      // A caller with its own handler (the demo stops code-server gently, then exits 0) owns the shutdown;
      // the 'exit' hook above still kills whatever is left.
      if (process.listenerCount(sig) > 1) return;
      for (const c of live) killGroup(c);
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

/**
 * Starts code-server on 127.0.0.1 (a free port unless given) with no auth, and waits for /healthz.
 * Returns { url, port, pid, logFile, stop() }; stop() kills the whole process group and waits for it.
 */
export async function startCodeServer({
  port,
  userDataDir,
  extensionsDir,
  xdgDir,
  workspace,
  extraArgs = [],
  /** Keep VS Code's Workspace Trust on (the lanes turn it off, but for the Restricted Mode run). */
  workspaceTrust = false,
  env = {},
  logFile,
  timeoutMs = 60_000,
}) {
  port ??= await freePort();
  xdgDir ??= path.join(path.dirname(userDataDir), 'xdg');
  logFile ??= path.join(path.dirname(userDataDir), 'code-server.log');
  const out = fs.openSync(logFile, 'w');
  const args = [
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    ...extraArgs,
  ];
  if (workspace) args.push(workspace);
  hookExit();
  const child = spawn(CODE_SERVER_BIN, args, {
    env: csEnv(xdgDir, env),
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  live.add(child);
  let exited = null;
  const exitP = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      live.delete(child);
      resolve();
    });
  });
  const stop = async () => {
    if (exited === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      const t = setTimeout(() => killGroup(child), 3000);
      await exitP;
      clearTimeout(t);
    }
    // The group may still hold children after the launcher exited.
    killGroup(child);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      throw new Error(`code-server exited (${JSON.stringify(exited)}) before it was ready:\n${tailOf(logFile)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer /healthz within ${timeoutMs} ms:\n${tailOf(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, pid: child.pid, logFile, stop };
}

function tailOf(file, n = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-n).join('\n');
  } catch {
    return '(no log)';
  }
}
