// The tour's closing links in the browser workbench: relative links to the examples beside it (a command:
// link in notebook markdown does nothing unless allow-listed). Clicking one opens that notebook.
import {
  eventually,
  notebookList,
  openNotebook,
  revealInNotebook,
  runCommand,
  screenshot,
  useWorkbench,
} from './workbench.mjs';

describe('e2e: the tour links to the examples', () => {
  let page;
  useWorkbench((opened) => {
    page = opened;
  });

  it('clicking "Open the air-quality example" in the tour opens air-quality.measnb', async function () {
    this.timeout(300_000);
    await openNotebook(page, 'tour.measnb');
    // An earlier test ran the tour: its tables catch the wheel (they scroll themselves), so start from a
    // tour without outputs, as a new user opening it does.
    await runCommand(page, 'Notebook: Clear All Outputs');
    const text = 'Open the air-quality example';
    // The last cell: the notebook renders a cell's markdown once it is near the screen (wheel to the end).
    const list = await notebookList(page);
    await page.mouse.move(list.x + 14, list.y + list.height / 2);
    const frame = await eventually(
      async () => {
        await page.mouse.wheel(0, 2000);
        for (const f of page.frames()) if (await f.locator(`a:has-text("${text}")`).count()) return f;
        return undefined;
      },
      'the tour link rendered',
      60,
      500,
    );
    const link = frame.locator(`a:has-text("${text}")`).first();
    await revealInNotebook(page, link);
    console.log(`      screenshot: ${await screenshot(page, 'tour-links-before')}`);
    await link.click();
    await page.locator('.tab.active', { hasText: 'air-quality.measnb' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.notebook-editor .notebook-toolbar-container:visible').first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1000);
    console.log(`      screenshot: ${await screenshot(page, 'tour-links-opened')}`);
  });
});
