// `npm run test:desktop`: the same integration suite (test/integration) in desktop VS Code through
// @vscode/test-electron, for contributors whose machine can download VS Code (it fetches a build from
// Microsoft's update service). Not part of CI here: this machine reaches only npm and Debian, so the
// code-server lane (`npm run test:host`) is the one that runs. Set MEASNB_VSCODE_EXECUTABLE to use an
// installed VS Code instead of downloading one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildIntegrationTests } from '../host/build-tests.mjs';
import { buildDist } from '../host/package-vsix.mjs';
import { ARTIFACTS, ROOT } from '../host/toolchain.mjs';

async function main() {
  buildDist();
  const testsPath = await buildIntegrationTests();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-desktop-'));
  const workspace = path.join(scratch, 'workspace');
  const userData = path.join(scratch, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  const { USER_SETTINGS } = await import('../host/code-server.mjs');
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  try {
    return await runTests({
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: testsPath,
      vscodeExecutablePath: process.env.MEASNB_VSCODE_EXECUTABLE || undefined,
      extensionTestsEnv: { MEASNB_LANE: 'desktop', MEASNB_RESULTS_DIR: path.join(ARTIFACTS, 'results') },
      launchArgs: [workspace, '--user-data-dir', userData, '--disable-extensions', '--disable-workspace-trust'],
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[desktop] FAILED: ${e?.message ?? e}`);
    console.error('This lane downloads VS Code; where that is not possible, use `npm run test:host`.');
    process.exit(1);
  },
);
