// The packaged .vsix, installed into a clean code-server, activates when its view is opened.
import assert from 'node:assert/strict';
import { readmeImages } from '../host/package-vsix.mjs';
import { eventually, runCommand, screenshot, useWorkbench } from './workbench.mjs';

describe('e2e: the installed .vsix in the browser workbench', () => {
  let page;
  useWorkbench((opened) => {
    page = opened;
  });

  it('contributes its commands and Reports view, and activates when the view opens', async () => {
    const t0 = Date.now();
    // The palette lists contributed commands once the extension is scanned (not yet activated).
    await runCommand(page, 'Measurements: Show Request Log', { timeoutMs: 90_000 });
    const scanned = Date.now() - t0;
    // The quota item exists only after activate() ran.
    const quota = page.locator('.statusbar-item', { hasText: /\d+\/30 reports/ });
    await quota.first().waitFor({ timeout: 60_000 });
    console.log(
      `      e2e activation: commands listed after ${scanned} ms, active ${Date.now() - t0} ms after page load`,
    );
    await page
      .getByRole('tab', { name: /Measurements/ })
      .first()
      .click();
    const welcome = page.locator('.welcome-view-content', { hasText: 'local emulator' });
    await welcome.first().waitFor({ timeout: 30_000 });
    assert.ok(await welcome.first().isVisible());
    console.log(`      screenshot: ${await screenshot(page, 'reports-view-empty')}`);
  });

  it("shows its README with every screenshot on the extension's page (images from the published image URL)", async () => {
    await runCommand(page, 'Extensions: Show Installed Extensions', { timeoutMs: 60_000 });
    const item = page.locator('.extensions-viewlet .extension-list-item', { hasText: 'Measurements Notebooks' });
    await item.first().waitFor({ timeout: 60_000 });
    await item.first().click();
    // The details tab renders the packaged readme.md in a webview that shows only https images: the
    // e2e .vsix is packaged as for publishing, its images on the lane's https server (image-server.mjs).
    const wanted = readmeImages().map((i) => i.alt);
    const loaded = await eventually(
      async () => {
        for (const f of page.frames()) {
          const imgs = await f
            .locator('img')
            .evaluateAll((els) => els.map((e) => ({ alt: e.alt, ok: e.complete && e.naturalWidth > 0 })))
            .catch(() => []);
          const ours = imgs.filter((i) => wanted.includes(i.alt));
          if (ours.length === wanted.length && ours.every((i) => i.ok)) return ours;
        }
        return undefined;
      },
      async () => {
        const seen = [];
        for (const f of page.frames())
          seen.push(
            ...(await f
              .locator('img')
              .evaluateAll((els) => els.map((e) => `${e.alt}: ${e.src.slice(0, 80)} ${e.naturalWidth}`))
              .catch(() => [])),
          );
        return `the extension page to show the README's ${wanted.length} images, loaded (images seen: ${seen.join('; ')})`;
      },
      150,
    );
    assert.equal(loaded.length, wanted.length);
    console.log(`      screenshot: ${await screenshot(page, 'extension-page-readme')}`);
  });
});
