// The packaged .vsix, installed into a clean code-server, activates when its view is opened.
import assert from 'node:assert/strict';
import { runCommand, screenshot, useWorkbench } from './workbench.mjs';

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
});
