// examples/corrections.measnb in the browser workbench (code-server, the installed .vsix, the built-in Local
// emulator): the correction cell that Apply PM2.5 Correction inserts (method, source and coefficients in its
// comments) runs, and its corrected column is compared per datasource.
// Screenshot: .artifacts/screenshots/correction-cell.png (the README's picture).
// It once ran inside the air-quality suite and made the json-long test after it read this notebook's table:
// the notebook stayed open in a tab behind, with its output webview off screen, and the table lookup took
// frames from every webview. tableFrames (workbench.mjs) now looks at the notebook on screen only.
import assert from 'node:assert/strict';
import {
  eventually,
  findTable,
  notebookList,
  openNotebook,
  revealTop,
  runAll,
  runCommand,
  screenshot,
  useWorkbench,
} from './workbench.mjs';

describe('e2e: the corrections example in the workbench', function () {
  this.timeout(600_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    await page.setViewportSize({ width: 1400, height: 1200 });
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
  });

  it('corrections.measnb: the correction cell (method, source, coefficients in its comments) runs, and its column is compared per datasource', async () => {
    await openNotebook(page, 'corrections.measnb');
    await runAll(page);
    const { frame, table } = await findTable(
      page,
      { has: ['datasourceId', 'hours', 'calibrated', 'epa2021'] },
      'the comparison of the calibrated and the EPA-corrected means',
    );
    await revealTop(page, table);
    // Every datasource with hours gets a corrected mean: 0.524·raw − 0.0862·RH + 5.75, a number in the cells.
    const cells = await frame.locator('.measnb-table .mt-row .mt-cell').allTextContents();
    assert.ok(
      cells.some((c) => /^\d+(\.\d)?$/.test(c.trim())),
      `cells: ${cells.slice(0, 12).join(' | ')}`,
    );
    // The correction cell above it, with its comments, in the same picture (the editor writes spaces as
    // no-break spaces: \s matches both).
    const list = await notebookList(page);
    const source = page.locator('.notebook-editor .view-line', { hasText: /Source:\s+Barkjohn,\s+Gantt/ }).first();
    await eventually(
      async () => {
        if (await source.isVisible().catch(() => false)) return true;
        await page.mouse.move(list.x + 14, list.y + list.height / 2);
        await page.mouse.wheel(0, -120);
        await page.waitForTimeout(250);
        return undefined;
      },
      'the correction cell with its source in a comment',
      60,
    );
    await screenshot(page, 'correction-cell');
  });
});
