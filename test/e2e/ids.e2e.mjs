// Ids as a user types them in the browser workbench: Ctrl+Space after `nodeIds:` lists the node ids of
// the Local emulator's datasources (name, type, group), and the hover on the chosen id shows its datasource.
// Screenshots: .artifacts/screenshots/ids-completion.png, ids-hover.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, eventually, openNotebook, runCommand, SHOTS, screenshot, useWorkbench } from './workbench.mjs';

/** The notebook's top (the cell, its suggestion list or hover) for the README. */
async function clipped(page, name) {
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, clip: { x: 355, y: 30, width: 720, height: 400 } });
  return file;
}

describe('e2e: completion and hover for ids', function () {
  this.timeout(300_000);
  let page;
  // Written before the workbench opens, so that Go to File knows it.
  before(() => {
    const { workspace } = e2eEnv();
    const cell = ['report node-measurements', 'nodeIds: ', 'outputFrequency: hour', 'startTime: -2d', 'endTime: now'];
    const nb = {
      measnb: 1,
      metadata: { connection: 'Local emulator' },
      cells: [{ kind: 'code', language: 'measq', source: cell, outputs: [] }],
    };
    fs.writeFileSync(path.join(workspace, 'ids.measnb'), JSON.stringify(nb, null, 2));
  });
  useWorkbench(async (opened) => {
    page = opened;
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
    // With no notebook open yet the command says so; that notice would sit in every screenshot.
    const notice = page.locator('.notification-toast', { hasText: 'Open a measurements notebook' }).first();
    await notice.waitFor({ timeout: 10_000 }).catch(() => {});
    await runCommand(page, 'Notifications: Clear All Notifications');
    await notice.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
  });

  it('lists node ids after nodeIds: and shows the chosen one on hover', async () => {
    await openNotebook(page, 'ids.measnb');
    const line = page.locator('.notebook-editor .view-line', { hasText: 'nodeIds:' }).first();
    await line.click();
    await page.keyboard.press('End');
    const rows = page.locator('.suggest-widget.visible .monaco-list-row');
    await eventually(
      async () => {
        if ((await rows.count()) > 0) return true;
        await page.keyboard.press('Control+Space');
        await page.waitForTimeout(1500);
        return false;
      },
      'the suggestion list with node ids',
      40,
      200,
    );
    const labels = await rows.locator('.label-name').allTextContents();
    const focused = await page.locator('.suggest-widget.visible .monaco-list-row.focused').first().textContent();
    console.log(`      suggested: ${labels.join(', ')} | focused: ${focused}`);
    assert.ok(labels.length > 0 && labels.every((l) => /^A[0-9A-Z]+$/.test(l.trim())), labels.join(','));
    assert.match(focused, /SERVICE_NODE/);
    console.log(`      screenshot: ${await screenshot(page, 'ids-completion')}`);
    console.log(`      screenshot: ${await clipped(page, 'ids-completion-cell')}`);

    await page.keyboard.press('Enter');
    const chosen = labels[0].trim();
    await page
      .locator('.notebook-editor .view-line', { hasText: `nodeIds: ${chosen}` })
      .first()
      .waitFor();
    await page.keyboard.press('ArrowLeft');
    const hover = page.locator('.monaco-hover:visible', { hasText: 'Datasource:' });
    await eventually(
      async () => {
        if (await hover.count()) return true;
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        await page.waitForTimeout(1500);
        return false;
      },
      'the hover on the node id',
      40,
      200,
    );
    const text = await hover.first().textContent();
    console.log(`      hover: ${text.replace(/\s+/g, ' ')}`);
    assert.match(text, /Group: /);
    assert.match(text, /Tags: /);
    assert.match(text, new RegExp(`Source: SERVICE_NODE ${chosen}`));
    console.log(`      screenshot: ${await screenshot(page, 'ids-hover')}`);
    console.log(`      screenshot: ${await clipped(page, 'ids-hover-cell')}`);
  });
});
