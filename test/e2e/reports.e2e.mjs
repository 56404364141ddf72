// The Reports view in the browser: Create Report through the palette on the built-in local emulator
// (every step answered with the keyboard), the node spinning, then succeeded with a notification; the
// report is still there after a reload of the window.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  answer,
  answerFileDialog,
  e2eEnv,
  eventually,
  frameWith,
  openWorkbench,
  pickMenuItem,
  runCommand,
  screenshot,
  useWorkbench,
} from './workbench.mjs';

/**
 * Shows the Reports view with its focus command, which only ever shows it. (Clicking the Measurements tab
 * when the view looked hidden raced: Create Report itself focuses the view, and a reload restores it a
 * moment after the workbench appears; a click landing just after either hid the side bar again, and the
 * test waited for a view that stayed closed until its timeout.)
 */
async function openReportsView(page) {
  await runCommand(page, 'Measurements: Focus on Reports View');
  // The header itself is hidden while Reports is the container's only open view: attached is shown.
  await page.locator('.pane-header[aria-label^="Reports"]').first().waitFor({ state: 'attached', timeout: 30_000 });
}

/** Create Report through the palette, all datasources, daily (or `frequency`), the service's default metrics. */
async function createDailyReport(page, start, end, { frequency = 'day', fileFormat = 'csv-wide' } = {}) {
  await runCommand(page, 'Measurements: Create Report', { timeoutMs: 90_000 });
  await answer(page, 'datasource-measurements', { expect: 'Report kind' });
  await answer(page, 'All datasources', { expect: 'datasourceIds', keys: ['ArrowDown', 'Enter'] });
  await answer(page, frequency, { expect: 'outputFrequency' });
  await answer(page, start, { expect: 'startTime' });
  await answer(page, end, { expect: 'endTime' });
  await answer(page, 'canonical', { expect: 'metricLabelStyle' });
  await answer(page, fileFormat, { expect: 'fileFormat' });
  await answer(page, "service's default", { expect: 'metricSelect' });
  await answer(page, '', { expect: 'Options' });
}

/** The "n/30 reports" count of the status bar. */
async function quotaCount(page) {
  const text = String(await page.locator('.statusbar-item', { hasText: '/30 reports' }).first().textContent());
  return Number(/(\d+)\/30 reports/.exec(text)?.[1]);
}

// The second test runs after the reload of the first: the window's new local emulator still knows the report.
describe('e2e: the Reports view', () => {
  let page;
  useWorkbench((opened) => {
    page = opened;
  });

  it('Create Report on the local emulator: in progress, then succeeded with a notification; survives a reload', async () => {
    await runCommand(page, 'Measurements: Create Report', { timeoutMs: 90_000 });
    // Reports and the quota are shared by every window of this code-server (other suites made some).
    const before = await eventually(async () => {
      const n = await quotaCount(page);
      return Number.isFinite(n) ? { n } : undefined;
    }, 'the quota count in the status bar');
    await answer(page, 'datasource-measurements', { expect: 'Report kind' });
    // A multi-select step: filter to the item, move onto it, Enter takes it.
    await answer(page, 'All datasources', { expect: 'datasourceIds', keys: ['ArrowDown', 'Enter'] });
    await answer(page, 'hour', { expect: 'outputFrequency' });
    await answer(page, '2026-11-18', { expect: 'startTime' });
    await answer(page, '2026-11-20', { expect: 'endTime' });
    await answer(page, 'canonical', { expect: 'metricLabelStyle' });
    await answer(page, 'csv-wide', { expect: 'fileFormat' });
    await answer(page, 'Type a metricSelect', { expect: 'metricSelect' });
    await answer(page, 'only pm2_5ConcMassNowcast', { expect: 'metricSelect' });
    await answer(page, '', { expect: 'Options' });

    await openReportsView(page);
    // This report by what tells it apart: the view also lists the reports of other windows on this
    // code-server (the tour's, say), whose files may show before this one has finished.
    const node = page.locator('.monaco-list-row', { hasText: 'Nov 18–20 · hour · all ds' }).first();
    await node.waitFor({ timeout: 30_000 });
    const label = await eventually(
      async () => {
        const l = String(await node.getAttribute('aria-label'));
        return /succeeded/.test(l) ? l : undefined;
      },
      'the new report to succeed',
      150,
    );
    console.log(`      report node: ${label}`);
    // Its first file: the row just below it in the tree (a finished report shows its files expanded).
    const index = Number(await node.getAttribute('data-index'));
    const fileRow = page.locator(`.monaco-list-row[data-index="${index + 1}"]`, { hasText: /\.csv/ });
    await fileRow.waitFor({ timeout: 30_000 });
    // The notification: a toast hides itself after a while (it may have come and gone while the view
    // opened), the notification center keeps it.
    await runCommand(page, 'Notifications: Show Notifications');
    const ready = page.locator('.notifications-center .notification-list-item', { hasText: 'is ready' });
    await eventually(() => ready.first().isVisible(), 'the "report is ready" notification', 150);
    await page.keyboard.press('Escape');
    await page
      .locator('.statusbar-item', { hasText: `${before.n + 1}/30 reports` })
      .first()
      .waitFor({ timeout: 10_000 });
    console.log(`      screenshot: ${await screenshot(page, 'reports-view-finished')}`);

    // Open the first file as a table: the inline action of the file row (downloads it first).
    await fileRow.hover();
    await fileRow.locator('.action-label[aria-label*="Open Report File as Table"]').first().click();
    const frame = await frameWith(page, '.measnb-table .mt-count', 'the report file table in its panel');
    const count = String(await frame.locator('.mt-count').first().textContent());
    const headers = await frame.locator('.mt-hname').allTextContents();
    console.log(`      table panel: "${count}", ${headers.length} columns`);
    assert.match(count, /[\d,]+ rows/);
    assert.ok(headers.includes('datasourceId'), headers.join(','));
    assert.ok(
      headers.some((h) => h.startsWith('pm2_5ConcMassNowcast')),
      headers.join(','),
    );
    await fileRow.filter({ hasText: 'downloaded' }).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300);
    console.log(`      screenshot: ${await screenshot(page, 'report-file-as-table')}`);

    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await openReportsView(page);
    const again = page.locator('.monaco-list-row', { hasText: 'Nov 18–20 · hour · all ds' }).first();
    await again.waitFor({ timeout: 60_000 });
    assert.match(String(await again.getAttribute('aria-label')), /succeeded/);
    console.log(`      screenshot: ${await screenshot(page, 'reports-view-after-reload')}`);
  });

  it('two windows on the same code-server create reports at the same time: each lists both and counts both', async () => {
    await openReportsView(page);
    const before = await eventually(async () => {
      const n = await quotaCount(page);
      return Number.isFinite(n) ? { n } : undefined;
    }, 'the quota count in the status bar');
    const second = await openWorkbench();
    try {
      await openReportsView(second.page);
      await Promise.all([
        createDailyReport(page, '2026-11-10', '2026-11-12'),
        createDailyReport(second.page, '2026-11-13', '2026-11-15'),
      ]);
      for (const [name, p] of [
        ['first', page],
        ['second', second.page],
      ]) {
        await openReportsView(p);
        for (const label of ['Nov 10–12 · day · all ds', 'Nov 13–15 · day · all ds']) {
          await p.locator('.monaco-list-row', { hasText: label }).first().waitFor({ timeout: 30_000 });
        }
        await p
          .locator('.statusbar-item', { hasText: `${before.n + 2}/30 reports` })
          .first()
          .waitFor({ timeout: 30_000 });
        console.log(`      ${name} window: both reports listed, ${before.n + 2}/30 reports`);
      }
      console.log(`      screenshot: ${await screenshot(second.page, 'reports-two-windows')}`);
    } finally {
      await second.browser.close();
    }
  });

  it('Download Report Files into a folder chosen in the dialog, then Reveal shows the file in the Explorer', async () => {
    const { workspace } = e2eEnv();
    const folder = path.join(workspace, 'picked-downloads');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(folder);
    await runCommand(page, 'Measurements: Download Report Files');
    await answer(page, 'datasource-measurements', { expect: 'Download Report Files' });
    await answer(page, 'Choose a folder', { expect: 'file(s) of' });
    await answerFileDialog(page, `${folder}/`, { okLabel: 'Download here' });
    // The notice names the folder the files went to: that is where the user looks, and what a wrong
    // answer to the dialog would show.
    const toast = page.locator('.notifications-toasts .notification-list-item', {
      hasText: /Downloaded \d+ file\(s\) of report \S+ to /,
    });
    await eventually(
      () => toast.first().isVisible(),
      async () =>
        `the "Downloaded … to" notice; notifications shown: ${await page.locator('.notifications-toasts').textContent()}`,
      300,
    );
    const notice = String(await toast.first().locator('.notification-list-item-message').textContent());
    console.log(`      notice: ${notice}`);
    assert.match(notice, / to picked-downloads\./);
    const file = fs.readdirSync(folder).find((f) => f.endsWith('.csv'));
    assert.ok(file, `a downloaded .csv in ${folder}: ${fs.readdirSync(folder).join(', ') || 'empty'}`);
    assert.match(fs.readFileSync(path.join(folder, file), 'utf8').split('\n')[0], /^datasourceId,/);
    await toast.first().locator('.monaco-button', { hasText: 'Reveal' }).click();
    const row = page.locator('.explorer-folders-view .monaco-list-row.selected', { hasText: file });
    await row.first().waitFor({ timeout: 30_000 });
    console.log(`      revealed in the Explorer: ${await row.first().getAttribute('aria-label')}`);
    console.log(`      screenshot: ${await screenshot(page, 'report-file-revealed')}`);
  });
  it('Reports view actions: a failed report says why on its row, Re-run with new dates, Open as Notebook Cell, all connections grouped', async () => {
    await openReportsView(page);
    const before = await eventually(async () => {
      const n = await quotaCount(page);
      return Number.isFinite(n) ? { n } : undefined;
    }, 'the quota count in the status bar');
    // The quota line says whose count it is.
    const quotaItem = page.locator('.statusbar-item[aria-label*="counted on this machine"]').first();
    await quotaItem.waitFor({ timeout: 10_000 });
    // Minute rows of every datasource for 60 days: too many for one Parquet file of the emulator, so it fails.
    await createDailyReport(page, '-60d', 'today', { frequency: 'minute', fileFormat: 'parquet-wide' });
    await openReportsView(page);
    // This run's report: failed, minute, made seconds ago (the newest first).
    const failed = page
      .locator('.monaco-list-row', {
        hasText: /minute · all ds.*failed: Report generation failed: a parquet-wide file.* \d+s ago/,
      })
      .first();
    await failed.waitFor({ timeout: 60_000 });
    const failedText = String(await failed.textContent());
    console.log(`      failed row: ${failedText}`);
    assert.match(failedText, /failed: Report generation failed: a parquet-wide file would hold over 500000 rows/);
    // Its reason also has a row of its own below it (a narrow view cuts the description).
    const index = Number(await failed.getAttribute('data-index'));
    const reason = page.locator(`.monaco-list-row[data-index="${index + 1}"]`, {
      hasText: 'Report generation failed: a parquet-wide file',
    });
    await reason.waitFor({ timeout: 10_000 });
    console.log(`      screenshot: ${await screenshot(page, 'reports-failed-reason')}`);

    // Re-run: the inline action of the failed row, new dates, the same request otherwise.
    await failed.hover();
    await failed.locator('.action-label[aria-label*="Re-run Report"]').first().click();
    await answer(page, '-2d', { expect: 'startTime of the new report' });
    await answer(page, '-1d', { expect: 'endTime of the new report' });
    const rerun = page
      .locator('.monaco-list-row[aria-label*="succeeded"]', { hasText: /minute · all ds.*\d+s ago/ })
      .first();
    await rerun.waitFor({ timeout: 60_000 });
    console.log(`      re-run row: ${await rerun.getAttribute('aria-label')}`);
    await page
      .locator('.statusbar-item', { hasText: `${before.n + 2}/30 reports` })
      .first()
      .waitFor({ timeout: 30_000 });
    console.log(`      screenshot: ${await screenshot(page, 'reports-rerun-succeeded')}`);

    // Open as Notebook Cell from the failed report's context menu: a new notebook with its report cell.
    await failed.click({ button: 'right' });
    const menuItem = page.locator('.monaco-menu .action-label', { hasText: 'Open Report as Notebook Cell' }).first();
    await pickMenuItem(page, menuItem);
    const widget = page.locator('.quick-input-widget');
    if (await widget.isVisible().catch(() => false)) await answer(page, 'New notebook');
    const cellText = page.locator('.notebook-editor .cell-editor-container .view-lines', {
      hasText: 'report datasource-measurements',
    });
    await cellText.first().waitFor({ timeout: 30_000 });
    const text = String(await cellText.first().textContent()).replace(/\u00a0/g, ' ');
    console.log(`      cell: ${text.split('\n').join(' | ')}`);
    assert.match(text, /outputFrequency: minute/);
    assert.match(text, /fileFormat: parquet-wide/);
    assert.match(text, /allDatasources: true/);
    console.log(`      screenshot: ${await screenshot(page, 'report-as-notebook-cell')}`);
    await runCommand(page, 'View: Revert and Close Editor');

    // All connections, grouped: the view title's toggle, and back.
    await openReportsView(page);
    await runCommand(page, 'Measurements: Show Reports of All Connections');
    try {
      const group = page.locator('.monaco-list-row', { hasText: /Local emulator\s*active · \d+ reports?/ }).first();
      await group.waitFor({ timeout: 30_000 });
      console.log(`      group row: ${await group.textContent()}`);
      await page
        .locator('.pane-header[aria-label^="Reports"]', { hasText: 'all connections' })
        .first()
        .waitFor({ state: 'attached', timeout: 10_000 });
      console.log(`      screenshot: ${await screenshot(page, 'reports-all-connections')}`);
    } finally {
      await runCommand(page, 'Measurements: Show Reports of the Active Connection Only');
    }
    await page
      .locator('.monaco-list-row', { hasText: /Local emulator\s*active/ })
      .first()
      .waitFor({ state: 'detached', timeout: 30_000 });
    await quotaItem.hover();
    await page.waitForTimeout(1500);
    console.log(`      screenshot: ${await screenshot(page, 'quota-tooltip')}`);
  });
});
