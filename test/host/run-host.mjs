// `npm run test:host`: the integration suite (test/integration) inside a REAL VS Code extension host.
// Build -> vsce package -> install the .vsix into a scratch code-server profile -> start code-server
// (smoke-test driver on) -> open the workbench in headless chromium with a payload whose
// extensionDevelopmentPath is the INSTALLED extension folder (so the packaged bits are what is tested)
// and whose extensionTestsPath is the compiled mocha runner. The host's log is streamed here; its exit
// code is ours. Counts land in .artifacts/results/host.json (counting reporter, lane "host").
// MEASNB_HOST_TRUST=untrusted: the same with Workspace Trust on and the folder not trusted (Restricted
// Mode), running only the "Restricted Mode" suite (lane "host-untrusted"); that suite asks this runner,
// through a log line, to click Trust in the workbench (the extension API cannot grant trust) and to take
// screenshots (.artifacts/screenshots/host-*.png).
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { launchChromium, remoteUri, workbenchUrl } from './browser.mjs';
import { buildIntegrationTests } from './build-tests.mjs';
import { buildDist, packageVsix } from './package-vsix.mjs';
import { ARTIFACTS, ensureToolchain, installExtension, scratchProfile, startCodeServer } from './toolchain.mjs';

const UNTRUSTED = process.env.MEASNB_HOST_TRUST === 'untrusted';
const LANE = UNTRUSTED ? 'host-untrusted' : 'host';
const TIMEOUT_MS = Number(process.env.MEASNB_HOST_TIMEOUT_MS ?? 10 * 60_000);
const t0 = Date.now();
const lap = (msg) => console.log(`[host ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// Workbench chatter that says nothing about our tests.
const NOISE =
  /AgentHost|ChatModelSelection|AccountPolicyGate|open-vsx|authentication provider|\[Extension Host\] (?:Debugger|Extension host with pid)|ERR_NAME_NOT_RESOLVED|Failed to load resource|marketplace|gallery|update\.code\.visualstudio/i;

async function main() {
  const resultsFile = path.join(ARTIFACTS, 'results', `${LANE}.json`);
  fs.rmSync(resultsFile, { force: true });
  ensureToolchain();
  lap('toolchain ready');
  // MEASNB_HOST_SKIP_BUILD=1 reuses dist/ (iterating on tests); CI always builds.
  if (!process.env.MEASNB_HOST_SKIP_BUILD) buildDist({ production: true });
  const vsix = packageVsix();
  const testsPath = await buildIntegrationTests();
  lap('built, packaged, tests compiled');

  const profile = scratchProfile(path.join(ARTIFACTS, LANE), {
    settings: UNTRUSTED
      ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
      : {},
  });
  const [installed] = installExtension(vsix, profile);
  if (!installed) throw new Error('the .vsix installed no extension folder');
  lap(`installed ${path.basename(installed)}`);

  const server = await startCodeServer({
    ...profile,
    extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
    workspaceTrust: UNTRUSTED,
    env: {
      MEASNB_LANE: LANE,
      MEASNB_RESULTS_DIR: path.join(ARTIFACTS, 'results'),
      MEASNB_INSTALLED_EXTENSION: installed,
      ...(UNTRUSTED ? { MEASNB_HOST_TRUST: 'untrusted', MEASNB_HOST_GREP: 'Restricted Mode' } : {}),
      ...(process.env.MEASNB_HOST_GREP ? { MEASNB_HOST_GREP: process.env.MEASNB_HOST_GREP } : {}),
    },
  });
  lap(`code-server on ${server.url} (pid group ${server.pid})`);
  let browser;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    let onExit;
    const exited = new Promise((resolve) => {
      onExit = resolve;
    });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const msg = util
        .format(...args)
        .replace(/%c\s*/g, '')
        .replace(/color: #\w+;?\s*/g, '');
      if (!NOISE.test(msg)) console.log(type === 'error' ? `[host:error] ${msg}` : msg);
      void answerSuite(page, msg);
    });
    await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
    page.on('pageerror', (e) => console.log(`[workbench page error] ${e.message}`));
    // A crashed page or browser can never report an exit code: fail now rather than at the timeout.
    page.on('crash', () => onExit('the workbench page crashed'));
    browser.on('disconnected', () => onExit('the browser went away'));
    const payload = [
      ['extensionDevelopmentPath', remoteUri(server.url, installed)],
      ['extensionTestsPath', remoteUri(server.url, testsPath)],
      ['skipWelcome', 'true'],
    ];
    await page.goto(workbenchUrl(server.url, profile.workspace, payload));
    lap('workbench opened; tests running in the extension host');
    let timer;
    const code = await Promise.race([
      exited,
      new Promise((resolve) => {
        timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    lap(`extension host exited with ${code}`);
    if (code === 'timeout') throw new Error(`the integration suite did not finish within ${TIMEOUT_MS} ms`);
    if (typeof code === 'string') throw new Error(code);
    if (!fs.existsSync(resultsFile)) throw new Error(`the suite wrote no ${path.relative(process.cwd(), resultsFile)}`);
    const r = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    console.log(`host: ${r.passes} passed, ${r.failures} failed`);
    return code === 0 && r.failures === 0 && r.passes > 0 ? 0 : 1;
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
    lap('code-server stopped');
  }
}

/**
 * What an in-host suite cannot do itself, asked for by a log line: `[measnb:screenshot NAME]` saves the
 * workbench as .artifacts/screenshots/host-NAME.png; `[measnb:grant-trust]` clicks the Trust button of
 * the Workspace Trust editor the suite has opened (as a user grants trust). Each ends with a log line
 * the suite does not wait for: it watches the state it expects (a file, vscode.workspace.isTrusted).
 */
async function answerSuite(page, msg) {
  const shot = /\[measnb:screenshot ([\w-]+)\]/.exec(msg);
  try {
    if (shot) {
      const file = path.join(ARTIFACTS, 'screenshots', `host-${shot[1]}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: `${file}.part.png` });
      fs.renameSync(`${file}.part.png`, file);
      lap(`screenshot ${path.relative(process.cwd(), file)}`);
    } else if (msg.includes('[measnb:grant-trust]')) {
      const button = page.locator('.workspace-trust-editor .workspace-trust-buttons-row .monaco-button').first();
      await button.click({ timeout: 30_000 });
      lap('clicked Trust in the Workspace Trust editor');
    }
  } catch (e) {
    console.log(`[host] could not answer ${msg}: ${e?.message ?? e}`);
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[host] FAILED: ${e?.stack ?? e}`);
    process.exit(1);
  },
);
