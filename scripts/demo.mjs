// `npm run demo`: the first command after `git clone`. VS Code in the browser with this extension and the
// example notebooks, on 127.0.0.1, with examples/tour.measnb open.
// Stages, each shown with its progress and elapsed time: the project's npm dependencies (`npm ci`, only
// when node_modules is missing or older than package-lock.json), the toolchain (Node 24 + code-server from
// the npm registry, Debian build packages; cached in .cache/), a production build, the .vsix, a fresh
// profile under .artifacts/demo with the .vsix installed and a copy of examples/, then code-server.
// A failure prints one line (what failed, what to do, the log); `--verbose` streams every stage's output.
// Ctrl-C stops code-server (its whole process group) and exits.
//
// Only Node's built-ins (and scripts/npm-deps.mjs, built-ins only) are imported at the top: this script
// must run before `npm ci` did. The stages that need the project's modules run in child processes
// (`node scripts/demo.mjs --stage <name>`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { elapsed, heartbeatLine, liveLine, startLine, stepLine, stepOf } from './demo-progress.mjs';
import { dependenciesUpToDate, npmCiEnv, recordInstalledLock } from './npm-deps.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO_DIR = path.join(ROOT, '.artifacts', 'demo');
const LOG = path.join(DEMO_DIR, 'demo.log');
const TOUR = 'tour.measnb';
const verbose = process.argv.includes('--verbose');

/** A failure the user can act on: `what` failed, `todo` says what to do about it. */
class StageError extends Error {
  constructor(what, todo) {
    super(what);
    this.todo = todo;
  }
}

// ---- stages that run in a child process (they import the project's own modules) ----

const CHILD_STAGES = {
  async toolchain() {
    const { ensureToolchain, CACHE } = await import('../test/host/toolchain.mjs');
    ensureToolchain({ chromium: false });
    return `Node 24 and code-server in ${path.relative(ROOT, CACHE)}/`;
  },
  async build() {
    const { buildDist } = await import('../test/host/package-vsix.mjs');
    buildDist({ production: true });
    return 'dist/';
  },
  async package() {
    const { packageVsix } = await import('../test/host/package-vsix.mjs');
    const vsix = packageVsix();
    return `${path.relative(ROOT, vsix)}, ${(fs.statSync(vsix).size / 1024).toFixed(0)} KiB`;
  },
  async profile() {
    const { installExtension, scratchProfile } = await import('../test/host/toolchain.mjs');
    const { vsixPath } = await import('../test/host/package-vsix.mjs');
    const profile = scratchProfile(path.join(DEMO_DIR, 'profile'), {
      settings: {
        'workbench.colorTheme': process.env.DEMO_THEME ?? 'Default Dark Modern',
        // A file opened from the URL before the extension is registered would open as plain text; with an
        // association the workbench waits for the extensions, and the tour opens as a notebook.
        'workbench.editorAssociations': { '*.measnb': 'measnb' },
      },
    });
    fs.cpSync(path.join(ROOT, 'examples'), workspaceOf(profile.dir), { recursive: true });
    const [installed] = installExtension(vsixPath(), profile);
    if (!installed) throw new Error('the .vsix installed no extension folder');
    return `${path.basename(installed)} in ${path.relative(ROOT, profile.dir)}`;
  },
};

const workspaceOf = (profileDir) => path.join(profileDir, 'examples');

async function runChildStage(name) {
  try {
    console.log(`demo-summary: ${await CHILD_STAGES[name]()}`);
  } catch (e) {
    // The parent shows the first line; the rest (stack, tool output) stays in the log.
    console.error(`${e?.stack ?? e}`);
    console.error(`demo-error: ${String(e?.message ?? e).split('\n')[0]}`);
    process.exit(1);
  }
}

// ---- progress ----

const fmt = elapsed;

/**
 * Shows a stage while it runs and when it ends (scripts/demo-progress.mjs): on a terminal a live line;
 * elsewhere a start line (with `note`, once), each step the stage names, and a short heartbeat every 30 s.
 */
function progress(title, note) {
  const t0 = Date.now();
  let detail = '';
  const tty = process.stdout.isTTY && !verbose;
  const columns = () => process.stdout.columns || 100;
  // Off a terminal every stage starts with a line; on one, only a stage with something to expect.
  if (!tty || note) console.log(startLine(title, note));
  const timer = setInterval(
    () => {
      if (tty) process.stdout.write(`\r\x1b[2K${liveLine(title, Date.now() - t0, detail, columns())}`);
      else console.log(heartbeatLine(title, Date.now() - t0));
    },
    tty ? 500 : 30_000,
  );
  const end = (mark, text) => {
    clearInterval(timer);
    if (tty) process.stdout.write('\r\x1b[2K');
    console.log(`  ${mark} ${title}${text ? `: ${text}` : ''}  (${fmt(Date.now() - t0)})`);
  };
  return {
    set detail(d) {
      detail = d.replace(/\s+/g, ' ').trim().slice(0, 200);
    },
    /** A step the stage named: a line of its own (above the live line on a terminal). */
    step(text) {
      if (verbose) return; // the stage's whole output is shown already
      if (tty) process.stdout.write('\r\x1b[2K');
      console.log(stepLine(text, tty ? columns() : undefined));
    },
    done: (text) => end('✔', text),
    failed: () => end('✘', 'failed'),
  };
}

let current; // the running child, stopped on Ctrl-C
let started = false; // code-server is up: main() owns Ctrl-C

/** Runs a command as part of a stage: output to the log (and the terminal with --verbose), the latest line as progress. */
function runLogged(cmd, args, { p, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    fs.appendFileSync(LOG, `\n$ ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    let errorLine = '';
    let summary = '';
    let lastLine = '';
    const onData = (chunk) => {
      fs.appendFileSync(LOG, chunk);
      if (verbose) process.stdout.write(chunk);
      for (const l of chunk.toString().split(/\r?\n/)) {
        const m = /^demo-(error|summary): (.*)/.exec(l);
        if (m?.[1] === 'error') errorLine = m[2];
        else if (m) summary = m[2];
        else if (l.trim()) lastLine = l.trim();
        const step = stepOf(l);
        if (step) p?.step(step);
      }
      if (p) p.detail = lastLine;
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => reject(new Error(`${cmd} could not start: ${e.message}`)));
    child.on('close', (code, signal) => {
      current = undefined;
      if (code === 0) resolve(summary);
      else reject(new Error(errorLine || `${cmd} ${args.join(' ')} exited with ${code ?? signal}: ${lastLine}`));
    });
  });
}

async function stage(title, todo, fn, note) {
  const p = progress(title, note);
  try {
    const text = await fn(p);
    p.done(text);
  } catch (e) {
    p.failed();
    // The first line says what went wrong; the rest (a log tail, a stack) is in the log file.
    throw new StageError(`${title} failed: ${String(e.message).split('\n')[0].replace(/:$/, '')}`, todo);
  }
}

// ---- the project's npm dependencies ----

async function npmDependencies(p) {
  if (dependenciesUpToDate()) return 'up to date with package-lock.json';
  await runLogged('npm', ['ci', '--no-audit', '--no-fund'], { p, env: npmCiEnv() });
  recordInstalledLock();
  const added = fs
    .readFileSync(LOG, 'utf8')
    .match(/added (\d+) packages/g)
    ?.pop();
  return `npm ci: ${added ?? 'installed'}`;
}

function childStage(name) {
  return (p) => runLogged(process.execPath, [fileURLToPath(import.meta.url), '--stage', name], { p });
}

// ---- main ----

async function main() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    throw new StageError(
      `Node ${process.versions.node} is too old`,
      'install Node 20.19 or newer (https://nodejs.org), then run npm run demo again',
    );
  }
  fs.mkdirSync(DEMO_DIR, { recursive: true });
  fs.writeFileSync(LOG, `npm run demo, ${new Date().toISOString()}\n`);
  const t0 = Date.now();
  console.log('Measurements Notebooks demo: installing what is missing, then VS Code in the browser.');
  console.log(`  (details of every stage: ${path.relative(process.cwd(), LOG) || LOG}; --verbose shows them here)`);

  await stage(
    'npm dependencies',
    'check that the npm registry is reachable (npm ping), then run npm run demo again',
    npmDependencies,
  );
  await stage(
    'toolchain',
    'code-server needs the npm registry, and apt-get (root or passwordless sudo) for libkrb5-dev, build-essential and python3; fix that, then run npm run demo again',
    childStage('toolchain'),
    'Node 24 and code-server; the first time ~5 min',
  );
  await stage('build', 'run npm run build to see the error', childStage('build'));
  await stage('package the extension (.vsix)', 'run npm run package to see the error', childStage('package'));
  await stage(
    'install it into a fresh profile',
    `see ${path.relative(ROOT, LOG)}; delete .artifacts/demo and run npm run demo again`,
    childStage('profile'),
  );

  const { startCodeServer } = await import('../test/host/code-server.mjs');
  const profileDir = path.join(DEMO_DIR, 'profile');
  const port = process.env.PORT ? Number(process.env.PORT) : undefined;
  let server;
  await stage(
    'start code-server',
    port ? `is port ${port} free? Choose another with PORT=<port> npm run demo` : 'see the code-server log',
    async () => {
      server = await startCodeServer({
        userDataDir: path.join(profileDir, 'user-data'),
        extensionsDir: path.join(profileDir, 'extensions'),
        xdgDir: path.join(profileDir, 'xdg'),
        port,
        logFile: path.join(DEMO_DIR, 'code-server.log'),
      });
      current = { kill: () => server.stop() };
      return server.url;
    },
  );

  started = true;
  // The workbench URL carries the tour to open as an encoded payload (over 300 characters): the URL shown
  // is a short one that redirects to it; the full one is in the log.
  const url = demoUrl(server.url, workspaceOf(profileDir));
  fs.appendFileSync(LOG, `\nworkbench URL: ${url}\n`);
  const short = await startRedirect(url);
  fs.appendFileSync(LOG, `short URL: ${short.url} (redirects to the workbench URL)\n`);
  console.log(`
Ready in ${fmt(Date.now() - t0)}. Open this URL in your browser:

  Open  ${short.url}

${TOUR} is open: click Run All (the built-in "Local emulator" connection needs no key).
The notebooks are a copy of examples/ in ${path.relative(ROOT, workspaceOf(profileDir))} (fresh on each start).
It opens code-server on port ${server.port} with the tour (the full URL is in ${path.relative(ROOT, LOG)}).
code-server log: ${path.relative(ROOT, server.logFile)}
Press Ctrl-C to stop.`);

  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log('\nStopping code-server…');
  short.close();
  await server.stop();
  console.log('Stopped.');
}

/**
 * A tiny server on 127.0.0.1 (a free port) whose every path redirects to `target` (the workbench URL):
 * what the demo prints instead of the long URL. Only GET and HEAD; nothing else is served.
 */
export function startRedirect(target) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    res.writeHead(302, { Location: target, 'Cache-Control': 'no-store', 'Content-Type': 'text/plain' });
    res.end(req.method === 'GET' ? `See ${target}\n` : undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/tour`, close: () => server.close() });
    });
  });
}

/** The workbench on the examples folder, with the tour opened in an editor (VS Code web's `openFile` payload). */
export function demoUrl(serverUrl, folder) {
  const u = new URL(serverUrl);
  u.pathname = '/';
  u.searchParams.set('folder', folder);
  const file = `vscode-remote://${u.host}${path.join(folder, TOUR)}`;
  u.searchParams.set('payload', JSON.stringify([['openFile', file]]));
  return u.toString();
}

if (process.argv[2] === '--stage') {
  await runChildStage(process.argv[3]);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  // Ctrl-C while installing: stop the running stage and say so (no stack). After start, main() handles it.
  const onSignal = async () => {
    if (started) return; // main() stops code-server and exits
    console.log('\nInterrupted; nothing is left running. Run npm run demo again to continue where it stopped.');
    await current?.kill();
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  main().then(
    () => process.exit(0),
    (e) => {
      if (verbose) console.error(e?.stack ?? e);
      const todo = e instanceof StageError ? e.todo : `run with --verbose for details (log: ${LOG})`;
      console.error(`\n✘ ${e instanceof StageError ? e.message : `demo failed: ${e?.message ?? e}`}. To fix: ${todo}.`);
      process.exit(1);
    },
  );
}
