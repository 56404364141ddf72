// Restricted Mode as a user meets it, with the INSTALLED extension (no development path: VS Code enables
// it in an untrusted folder only because package.json declares untrustedWorkspaces "limited"). This suite
// starts its own code-server with Workspace Trust on and a folder that is not trusted: the notebook opens
// as a notebook (not JSON text) with its saved table drawn, Run asks for trust and runs nothing until
// then; after Trust in VS Code's dialog the same window runs the cell on the local emulator.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { workbenchUrl } from '../host/browser.mjs';
import { ARTIFACTS, CACHE, ROOT, scratchProfile, startCodeServer } from '../host/toolchain.mjs';
import {
  eventually,
  frameWith,
  openNotebook,
  openWorkbenchAt,
  runAll,
  screenshot,
  screenshotIfFailed,
} from './workbench.mjs';

async function notebookText() {
  const out = path.join(CACHE, 'e2e-trust', 'restricted-notebook.cjs');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/e2e/trust/restricted-notebook.ts')],
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(out).restrictedNotebook();
}

/** The rows drawn in the output tables, as text. */
async function drawnText(page) {
  const frame = await frameWith(page, '.measnb-table', 'a drawn Measurements table');
  return String(await frame.locator('.measnb-table').first().textContent());
}

describe('Restricted Mode with the installed extension (an untrusted folder)', function () {
  this.timeout(300_000);
  let server;
  let opened;
  before(async () => {
    const installed = process.env.MEASNB_E2E_EXTENSION;
    if (!installed) throw new Error('run through `npm run test:e2e` (it installs the extension)');
    const profile = scratchProfile(path.join(ARTIFACTS, 'e2e-untrusted'), {
      settings: {
        'workbench.colorTheme': 'Default Dark Modern',
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
      },
    });
    fs.writeFileSync(path.join(profile.workspace, 'restricted.measnb'), await notebookText());
    // The e2e lane's installed extension, read from its folder (nothing installed again).
    server = await startCodeServer({ ...profile, extensionsDir: path.dirname(installed), workspaceTrust: true });
    opened = await openWorkbenchAt(workbenchUrl(server.url, profile.workspace));
  });
  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, opened?.page);
  });
  after(async () => {
    await opened?.browser.close();
    await server?.stop();
  });

  it('the notebook opens with its saved table drawn, in Restricted Mode', async () => {
    const { page } = opened;
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
    await openNotebook(page, 'restricted.measnb');
    const text = await eventually(async () => {
      const t = await drawnText(page);
      return t.includes('ds-saved-2') && t;
    }, 'the saved rows in the table');
    assert.match(text, /Saved station two/);
    console.log(`      ${await screenshot(page, 'e2e-restricted-notebook')}`);
  });

  it('Run asks for trust and runs nothing; after Trust the same window runs the cell on the local emulator', async () => {
    const { page } = opened;
    const dialog = page.locator('.monaco-dialog-box');
    // VS Code asks before a cell runs in Restricted Mode: Cancel runs nothing.
    await runAll(page);
    await dialog.waitFor({ timeout: 30_000 });
    console.log(`      ${await screenshot(page, 'e2e-restricted-run-asks-trust')}`);
    await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForTimeout(2000);
    assert.match(await drawnText(page), /Saved station two/, 'the saved rows are still shown');
    assert.equal(
      await page.locator('.notebook-editor .execution-count-label', { hasText: /\d/ }).count(),
      0,
      'no cell ran',
    );
    // Again, and trust the folder.
    await runAll(page);
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.locator('.monaco-button', { hasText: /Trust Folder/ }).click();
    await page
      .locator('.statusbar-item', { hasText: 'Restricted Mode' })
      .first()
      .waitFor({ state: 'detached', timeout: 60_000 });
    // Run All again if the dialog's Trust did not go on to run it.
    const ran = () => drawnText(page).then((t) => !t.includes('ds-saved-1') && /\d+ rows/.test(t) && t);
    const first = await eventually(ran, 'the cell to run after trust', 25).catch(async () => {
      await runAll(page);
      return eventually(ran, "the emulator's datasources in the table");
    });
    assert.doesNotMatch(first, /Saved station/);
    console.log(`      ${await screenshot(page, 'e2e-trusted-notebook')}`);
  });
});
