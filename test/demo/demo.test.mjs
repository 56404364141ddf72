// Lane "demo": the README's first command on a fresh clone, as a new user runs it. `git clone` of this
// checkout's HEAD into a scratch folder, `npm run demo` there (its own `npm ci`: the npm dependencies are
// never shared; only the toolchain download cache .cache/ is, through a symlink, to keep CI fast), the
// printed URL in chromium, the tour open, Run All, tables with the QC marks, then Ctrl-C (SIGINT to the
// process group, as a terminal sends it): a clean exit and no code-server left behind.
// Run by scripts/test-all.mjs (`npm test`) or alone: `npm test -- --only demo`.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eventually, openWorkbenchAt, qcMarks, runAll, screenshot, tableFrames } from '../e2e/workbench.mjs';
import { CACHE, ROOT } from '../host/toolchain.mjs';

/** Processes that run in `dir` or whose command line mentions it (code-server's --user-data-dir is under it). */
function processesUnder(dir) {
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      if (cmd.includes(dir) || cwd.startsWith(dir)) out.push(`${pid} ${cmd.slice(0, 160)}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The user's terminal: no npm_* variables of the `npm test` that runs this lane. */
function userEnv() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|MEASNB_)/i.test(k)));
  delete env.PORT;
  return env;
}

describe('demo: `npm run demo` on a fresh clone', function () {
  this.timeout(900_000);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-demo-'));
  const clone = path.join(scratch, 'measurements-notebooks');
  let demo;
  let output = '';
  let exited;
  let url;
  let browser;
  let page;
  const t0 = Date.now();
  const lap = (what) => console.log(`      [${((Date.now() - t0) / 1000).toFixed(0)} s] ${what}`);

  before(() => {
    execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, clone]);
    // HEAD of this checkout exactly (also a commit on no branch, or another worktree's branch).
    execFileSync('git', ['-C', clone, 'fetch', '--quiet', ROOT, 'HEAD']);
    execFileSync('git', ['-C', clone, 'checkout', '--quiet', '--detach', 'FETCH_HEAD']);
    fs.symlinkSync(fs.realpathSync(CACHE), path.join(clone, '.cache'));
    lap(`cloned ${execFileSync('git', ['-C', clone, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}`);
  });

  after(async () => {
    await browser?.close();
    if (demo && !exited) {
      try {
        process.kill(-demo.pid, 'SIGKILL');
      } catch {}
    }
    for (const line of processesUnder(clone)) {
      const pid = Number(line.split(' ')[0]);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    fs.rmSync(scratch, { recursive: true, force: true });
    lap('scratch clone removed');
  });

  it('installs its own npm dependencies (quietly: no install-scripts warning), builds, starts, prints the URL', async () => {
    assert.ok(!fs.existsSync(path.join(clone, 'node_modules')), 'a fresh clone has no node_modules');
    // Its own process group, so that Ctrl-C can reach npm and the demo together, as from a terminal.
    demo = spawn('npm', ['run', 'demo'], {
      cwd: clone,
      env: userEnv(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exitP = new Promise((resolve) => {
      demo.on('close', (code, signal) => {
        exited = { code, signal };
        resolve(exited);
      });
    });
    demo.exitP = exitP;
    const onData = (chunk) => {
      output += chunk;
      for (const l of chunk.toString().split('\n')) if (/^\s+(✔|✘)|Ready in/.test(l)) lap(l.trim());
    };
    demo.stdout.on('data', onData);
    demo.stderr.on('data', onData);
    url = await eventually(
      async () => {
        if (exited) throw new Error(`npm run demo exited (${JSON.stringify(exited)}):\n${output}`);
        return /^\s+Open\s+(http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(output)?.[1];
      },
      () => `the printed URL; output so far:\n${output}`,
      2400,
      250,
    );
    lap(`URL ${url.slice(0, 60)}…`);
    assert.match(output, /✔ npm dependencies: npm ci: added \d+ packages/, 'the demo ran npm ci in the clone');
    const modules = path.join(clone, 'node_modules');
    assert.ok(fs.lstatSync(modules).isDirectory() && !fs.lstatSync(modules).isSymbolicLink(), 'its own node_modules');
    assert.ok(fs.existsSync(path.join(modules, '.measnb-lock-hash')), 'the installed lock is recorded');
    const log = fs.readFileSync(path.join(clone, '.artifacts', 'demo', 'demo.log'), 'utf8');
    assert.match(log, /\$ npm ci/);
    const noisy = log.split('\n').filter((l) => /install-scripts|allowScripts/i.test(l));
    assert.deepEqual(noisy, [], 'npm ci warns about no install script (package.json allowScripts covers them)');
    assert.doesNotMatch(output, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace');
    // Off a terminal: the toolchain's hint once (not in every heartbeat), no line cut mid-word.
    assert.equal(output.split('first time ~5 min').length - 1, 1, output);
    assert.deepEqual(
      output.split('\n').filter((l) => /still working/.test(l) && !/^ {4}[^:]+: still working, \d+(m\d\d)?s$/.test(l)),
      [],
    );
  });

  it('the URL is short: it redirects to the workbench URL (with the tour payload), which the log keeps', async () => {
    assert.ok(url.length < 60, `${url.length} characters: ${url}`);
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 302);
    const target = res.headers.get('location');
    assert.match(target, /^http:\/\/127\.0\.0\.1:\d+\/\?folder=.*&payload=.*openFile.*tour\.measnb/);
    const log = fs.readFileSync(path.join(clone, '.artifacts', 'demo', 'demo.log'), 'utf8');
    assert.ok(log.includes(`workbench URL: ${target}`), 'the full URL is in the log');
  });

  it('the URL opens the workbench with tour.measnb open as a notebook', async () => {
    assert.ok(url, 'the demo printed its URL');
    ({ browser, page } = await openWorkbenchAt(url));
    await page.locator('.tab.active', { hasText: 'tour.measnb' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.notebook-editor .notebook-toolbar-container:visible').first().waitFor({ timeout: 90_000 });
    await page.locator('.notebook-editor .monaco-list-row').first().waitFor({ state: 'attached', timeout: 60_000 });
    lap(`tour open; screenshot ${await screenshot(page, 'demo-tour-opened')}`);
  });

  it('Run All: the cells produce tables, and the QC cell marks the invalid values', async () => {
    assert.ok(page, 'the workbench is open');
    await page.locator('.statusbar-item', { hasText: 'Local emulator' }).first().waitFor({ timeout: 60_000 });
    await runAll(page);
    const list = await page.locator('.notebook-editor .monaco-list').first().boundingBox();
    let step = 0;
    const seen = await eventually(
      async () => {
        const counts = [];
        for (const { frame } of await tableFrames(page))
          counts.push(...(await frame.locator('.mt-count').allTextContents()));
        const qc = await qcMarks(page);
        if (counts.length >= 2 && qc.invalidAssessments > 0 && qc.invalidValues > 0) return { counts, qc };
        // Outputs render as their cells come into view: scroll over the list's left gutter.
        await page.mouse.move(list.x + 14, list.y + list.height / 2);
        await page.mouse.wheel(0, ++step % 12 === 0 ? -20_000 : 300);
        return undefined;
      },
      'tables, and the QC cell with invalid values marked',
      240,
      500,
    ).catch(async (e) => {
      lap(`screenshot ${await screenshot(page, 'demo-tour-failed')}`);
      throw e;
    });
    lap(`tables: ${seen.counts.join(' | ')}; QC marks: ${JSON.stringify(seen.qc)}`);
    for (const c of seen.counts) assert.match(c, /^[1-9][\d,]* rows?$/, 'each table has rows');
    lap(`screenshot ${await screenshot(page, 'demo-tour-run')}`);
  });

  it('Ctrl-C stops it cleanly: "Stopped.", no code-server or demo process left behind', async () => {
    assert.ok(demo && !exited, 'the demo is running');
    assert.ok(
      processesUnder(clone).some((l) => l.includes('code-server')),
      'code-server runs for the clone',
    );
    await browser?.close();
    browser = undefined;
    process.kill(-demo.pid, 'SIGINT');
    const result = await Promise.race([demo.exitP, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
    assert.notEqual(result, 'timeout', 'the demo exits within 30 s of Ctrl-C');
    lap(`exited ${JSON.stringify(result)}`);
    // npm itself has no Ctrl-C handler: it ends by the signal (as in a terminal) or with the demo's 0.
    assert.ok(result.code === 0 || result.signal === 'SIGINT', `npm run demo ended with ${JSON.stringify(result)}`);
    assert.match(output, /Stopped\.\s*$/);
    await eventually(
      async () => processesUnder(clone).length === 0,
      () => `no process left: ${processesUnder(clone)}`,
      25,
    );
  });

  it('a failing stage prints one actionable line (what failed, what to do), no stack trace', async () => {
    assert.ok(exited, 'the first demo has stopped');
    // The port taken by another web server: code-server cannot listen there.
    const busy = http.createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    await new Promise((r) => busy.listen(0, '127.0.0.1', r));
    const port = busy.address().port;
    try {
      const r = await new Promise((resolve) => {
        const child = spawn('npm', ['run', 'demo'], {
          cwd: clone,
          env: { ...userEnv(), PORT: String(port) },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (c) => {
          out += c;
        });
        child.stderr.on('data', (c) => {
          out += c;
        });
        child.on('close', (code) => resolve({ code, out }));
      });
      lap(`second run exited ${r.code}`);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /✔ npm dependencies: up to date with package-lock\.json/, 'no second npm ci');
      const lines = r.out.split('\n').filter((l) => l.startsWith('✘ '));
      assert.equal(lines.length, 1, r.out);
      lap(lines[0]);
      assert.match(lines[0], new RegExp(`^✘ start code-server failed: .+ To fix: is port ${port} free\\?`));
      assert.doesNotMatch(r.out, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace');
      assert.deepEqual(processesUnder(clone), [], 'nothing left running');
    } finally {
      busy.close();
    }
  });
});
