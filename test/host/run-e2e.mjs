// `npm run test:e2e`: the workbench in headless chromium, as a user would meet the extension.
// Build -> vsce package -> install the .vsix into a CLEAN code-server profile (no development path:
// what a user installing offline gets) -> start code-server -> run the mocha suites test/e2e/*.e2e.mjs
// (playwright-core in this Node; lane "e2e", counts in .artifacts/results/e2e.json). Screenshots go to
// .artifacts/screenshots/. code-server is stopped with its whole process group, also on failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startImageServer } from './image-server.mjs';
import { buildDist, packageVsix } from './package-vsix.mjs';
import { ARTIFACTS, ensureToolchain, installExtension, ROOT, scratchProfile, startCodeServer } from './toolchain.mjs';

const t0 = Date.now();
const lap = (msg) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

async function main() {
  const resultsFile = path.join(ARTIFACTS, 'results', 'e2e.json');
  fs.rmSync(resultsFile, { force: true });
  ensureToolchain();
  lap('toolchain ready');
  if (!process.env.MEASNB_HOST_SKIP_BUILD) buildDist({ production: true });
  // Packaged as for publishing: the README's images point at an https server (here, on loopback).
  const images = await startImageServer();
  process.env.MEASNB_BASE_IMAGES_URL = images.url;
  process.env.MEASNB_E2E_TRUSTED_SPKI = images.spkiHash;
  const vsix = packageVsix();
  const profile = scratchProfile(path.join(ARTIFACTS, 'e2e'), {
    settings: { 'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0 },
  });
  // The workspace a user would have: the shipped example notebooks.
  for (const f of fs.readdirSync(path.join(ROOT, 'examples')).filter((n) => n.endsWith('.measnb'))) {
    fs.copyFileSync(path.join(ROOT, 'examples', f), path.join(profile.workspace, f));
  }
  const [installed] = installExtension(vsix, profile);
  if (!installed) throw new Error('the .vsix installed no extension folder');
  lap(`installed ${path.basename(installed)} into a clean profile`);
  const server = await startCodeServer({ ...profile });
  lap(`code-server on ${server.url}`);
  try {
    const files = fs
      .readdirSync(path.join(ROOT, 'test', 'e2e'))
      .filter((f) => f.endsWith('.e2e.mjs'))
      .sort()
      .map((f) => path.join('test', 'e2e', f));
    if (files.length === 0) throw new Error('no test/e2e/*.e2e.mjs suites found');
    const code = await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'),
          '--no-config',
          '--reporter',
          path.join(ROOT, 'test', 'support', 'counting-reporter.cjs'),
          '--timeout',
          '120000',
          '--exit',
          ...(process.env.MEASNB_E2E_GREP ? ['--grep', process.env.MEASNB_E2E_GREP] : []),
          ...files,
        ],
        {
          cwd: ROOT,
          stdio: 'inherit',
          env: {
            ...process.env,
            MEASNB_LANE: 'e2e',
            MEASNB_E2E_URL: server.url,
            MEASNB_E2E_WORKSPACE: profile.workspace,
            MEASNB_E2E_EXTENSION: installed,
          },
        },
      );
      child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
    });
    lap(`mocha exited with ${code}`);
    if (!fs.existsSync(resultsFile)) throw new Error('the e2e suites wrote no results');
    return code;
  } finally {
    await server.stop();
    await images.close();
    lap('code-server stopped');
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[e2e] FAILED: ${e?.stack ?? e}`);
    process.exit(1);
  },
);
