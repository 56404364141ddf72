// The Getting Started walkthrough (contributes.walkthroughs) in the browser workbench: it is listed,
// its steps show, and steps complete when the user really does each thing: Open the Tour (its button),
// Run a cell (Run All in the tour), Read the table, then the chart (the table's Chart button).
// Runs before the notebook suites (file order), so that no step is complete yet.
import assert from 'node:assert/strict';
import { eventually, notebookList, runAll, runCommand, screenshot, tableFrames, useWorkbench } from './workbench.mjs';

const TITLE = 'Get Started with Measurements Notebooks';

/** Opens our walkthrough through the palette (Welcome: Open Walkthrough..., then pick it). */
async function openWalkthrough(page) {
  await eventually(
    async () => {
      await runCommand(page, 'Welcome: Open Walkthrough...');
      await page.locator('.quick-input-widget input').fill('Measurements');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: TITLE }).first();
      if (
        !(await row.waitFor({ timeout: 2000 }).then(
          () => true,
          () => false,
        ))
      )
        return false;
      await row.click();
      return true;
    },
    'our walkthrough in "Open Walkthrough..."',
    30,
  );
  await page.locator('.gettingStartedContainer', { hasText: TITLE }).first().waitFor({ timeout: 30_000 });
}

const step = (page, title) => page.locator('.getting-started-step', { hasText: title }).first();
/** A done step's icon carries the class `complete` (a checked circle). */
const isComplete = async (page, title) => (await step(page, title).locator('.codicon.complete').count()) > 0;

async function backToWalkthrough(page) {
  await page
    .locator('.tabs-container .tab', { hasText: /Welcome|Walkthrough/ })
    .first()
    .click();
  await page.locator('.gettingStartedContainer', { hasText: TITLE }).first().waitFor({ timeout: 30_000 });
}

describe('e2e: the Getting Started walkthrough', () => {
  let page;
  useWorkbench((opened) => {
    page = opened;
  });

  it('is contributed with its steps; Open the Tour, Run a cell and the chart complete their steps', async function () {
    this.timeout(600_000);
    await openWalkthrough(page);
    for (const t of [
      'Connect: the local emulator, or your org',
      'Open the tour',
      'Run a cell',
      'Read the table, then the chart',
      'Create a report',
      'Find it in the Reports view',
    ]) {
      await step(page, t).waitFor({ state: 'attached', timeout: 10_000 });
    }
    const pending = ['Open the tour', 'Run a cell', 'Read the table, then the chart'];
    for (const t of pending) assert.equal(await isComplete(page, t), false, `"${t}" is not complete yet`);
    await step(page, 'Open the tour').click();
    await page.waitForTimeout(800);
    console.log(`      screenshot: ${await screenshot(page, 'walkthrough')}`);

    // Open the Tour: the step's own button.
    await page
      .locator('.getting-started-step .button-link, .getting-started-step a', { hasText: 'Open the Tour' })
      .first()
      .click();
    await page.locator('.tab.active', { hasText: 'tour.measnb' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.notebook-editor .notebook-toolbar-container:visible').first().waitFor({ timeout: 60_000 });

    // Run a cell, then the chart of a table.
    await page.locator('.statusbar-item', { hasText: 'Local emulator' }).first().waitFor({ timeout: 30_000 });
    await runAll(page);
    const toggle = await eventually(
      async () => {
        for (const { frame } of await tableFrames(page)) {
          // The first table over time (the datasources table has no Chart tab; outputs further down render
          // only when scrolled to: scroll on).
          const b = frame.locator('.measnb-table .mt-view-chart').first();
          if (await b.count()) return b;
        }
        const list = await notebookList(page);
        await page.mouse.move(list.x + 14, list.y + list.height / 2);
        await page.mouse.wheel(0, 400);
        return undefined;
      },
      'a table with its Chart tab',
      300,
      500,
    );
    await toggle.dispatchEvent('click');

    // The first step of Create Report, for the walkthrough's image (test/host/walkthrough-media.mjs).
    await runCommand(page, 'Measurements: Create Report');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'datasource-measurements' })
      .first()
      .waitFor({ timeout: 30_000 });
    console.log(`      screenshot: ${await screenshot(page, 'reports-create-report')}`);
    await page.keyboard.press('Escape');

    await backToWalkthrough(page);
    await eventually(
      async () => {
        for (const t of pending) if (!(await isComplete(page, t))) return false;
        return true;
      },
      async () =>
        `the steps complete (${(await Promise.all(pending.map(async (t) => `${t}: ${await isComplete(page, t)}`))).join(', ')})`,
      100,
    );
    console.log(`      screenshot: ${await screenshot(page, 'walkthrough-completed')}`);
  });
});
