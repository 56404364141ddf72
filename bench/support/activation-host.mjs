// Child of the extension benchmark: one real extension host (code-server + headless chromium, the host
// lane's toolchain) with the project's staged production build as the development extension, an empty
// baseline extension installed from its .vsix, and activation-probe.cjs as the tests entry.
// Prints the probe's line. Usage: node bench/support/activation-host.mjs <projectExtDir> <empty.vsix> <scratchDir>
import path from 'node:path';
import { launchChromium, remoteUri, workbenchUrl } from '../../test/host/browser.mjs';
import { ensureToolchain, installExtension, scratchProfile, startCodeServer } from '../../test/host/toolchain.mjs';

const [projectDir, emptyVsix, scratch] = process.argv.slice(2);
const probe = path.resolve('bench/support/activation-probe.cjs');

async function main() {
  ensureToolchain();
  const profile = scratchProfile(scratch);
  // A web workbench loads a single development extension: the baseline is installed instead.
  installExtension(emptyVsix, profile);
  const server = await startCodeServer({ ...profile, extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
  let browser;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    let line;
    let onExit;
    const exited = new Promise((resolve) => {
      onExit = resolve;
    });
    await page.exposeFunction('codeAutomationLog', (_type, args) => {
      const msg = args.map(String).join(' ');
      if (process.env.MEASNB_BENCH_VERBOSE) process.stderr.write(`${msg}\n`);
      const m = /@@bench_activation (\{.*\})/.exec(msg);
      if (m) line = m[1];
    });
    await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
    page.on('crash', () => onExit('crash'));
    const payload = [
      ['extensionDevelopmentPath', remoteUri(server.url, projectDir)],
      ['extensionTestsPath', remoteUri(server.url, probe)],
      ['skipWelcome', 'true'],
    ];
    await page.goto(workbenchUrl(server.url, profile.workspace, payload));
    let timer;
    const code = await Promise.race([
      exited,
      new Promise((r) => {
        timer = setTimeout(() => r('timeout'), 300_000);
      }),
    ]);
    clearTimeout(timer);
    if (!line) throw new Error(`the probe printed nothing (host exit: ${code})`);
    process.stdout.write(`@@bench_activation ${line}\n`);
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
