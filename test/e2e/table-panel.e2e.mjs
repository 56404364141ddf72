// Table panels in the browser ("Run Recent Query" on the built-in local emulator): the renderer's widget
// fills the editor's height, the chart follows the container when the side bar is toggled, Save JSON
// writes records through the host, Copy Markdown puts a Markdown table on the clipboard.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  answer,
  answerFileDialog,
  e2eEnv,
  eventually,
  frameWith,
  runCommand,
  screenshot,
  useWorkbench,
} from './workbench.mjs';

/** The webview frame holding a table panel. */
const panelFrame = (page) =>
  frameWith(page, '.measnb-table.mt-fill .mt-count', 'the table panel with the renderer widget');

const status = (frame) => frame.locator('.mt-toolbar [role=status]').first().textContent();

describe('e2e: table panels', () => {
  let page;
  useWorkbench(async (opened) => {
    page = opened;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  it('Run Recent Query: the panel fills the editor; the chart redraws on resize; Save JSON; Copy Markdown', async () => {
    await runCommand(page, 'Measurements: Run Recent Query', { timeoutMs: 90_000 });
    await answer(page, 'All datasources', { expect: 'Datasources', keys: ['ArrowDown', 'Enter'] });
    await answer(page, 'hour', { expect: 'outputFrequency' });
    await answer(page, 'csv-wide', { expect: 'format' });
    const frame = await panelFrame(page);
    const rowCount = Number.parseInt(
      String(await frame.locator('.mt-count').first().textContent()).replace(/,/g, ''),
      10,
    );
    assert.ok(rowCount > 0, 'rows arrived');

    // The widget takes the whole webview, and the webview the whole editor area.
    const editor = await page.locator('.part.editor').first().boundingBox();
    const inFrame = await frame.evaluate(() => ({
      inner: window.innerHeight,
      table: document.querySelector('.measnb-table').getBoundingClientRect().height,
      rows: document.querySelector('.mt-viewport').getBoundingClientRect().height,
    }));
    console.log(
      `      editor ${Math.round(editor.height)} px; webview ${inFrame.inner}, table ${Math.round(inFrame.table)}, rows ${Math.round(inFrame.rows)}`,
    );
    assert.ok(inFrame.inner > editor.height * 0.8, 'the webview fills the editor area');
    assert.ok(inFrame.table >= inFrame.inner - 4, 'the table fills the webview');
    assert.ok(inFrame.rows > inFrame.inner * 0.7, 'the rows take the height below the toolbar');
    console.log(`      screenshot: ${await screenshot(page, 'panel-filled')}`);

    // The chart: drawn at the panel's width, and again at the new width when the side bar is toggled.
    await frame.locator('.mt-view-chart').dispatchEvent('click');
    await frame.locator('.mt-chart canvas').first().waitFor({ timeout: 30_000 });
    const chartSize = () =>
      frame.evaluate(() => {
        const chart = document.querySelector('.mt-chart');
        const plot = document.querySelector('.mt-chart .uplot');
        return {
          chart: chart.clientWidth,
          plot: plot.getBoundingClientRect().width,
          plotHeight: plot.getBoundingClientRect().height,
          legendBottom: document.querySelector('.mt-chart .u-legend').getBoundingClientRect().bottom,
          inner: window.innerHeight,
          overflow: chart.scrollWidth - chart.clientWidth,
        };
      });
    const before = await eventually(
      async () => {
        const s = await chartSize();
        return s.legendBottom <= s.inner + 1 && s;
      },
      async () => `the chart and its legend to fit the panel (${JSON.stringify(await chartSize())})`,
    );
    console.log(`      chart before: ${JSON.stringify(before)}`);
    assert.ok(Math.abs(before.plot - (before.chart - 14)) < 20, 'the plot spans the chart');
    assert.ok(before.plotHeight > before.inner * 0.5, 'the plot uses the panel height');
    assert.ok(before.legendBottom <= before.inner + 1, 'the legend is inside the panel');
    console.log(`      screenshot: ${await screenshot(page, 'panel-chart-before-resize')}`);
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
    const after = await eventually(
      async () => {
        // The width follows at once; the height is refitted a frame later, once the legend has wrapped anew.
        const s = await chartSize();
        const followed = Math.abs(s.chart - before.chart) > 50 && Math.abs(s.plot - (s.chart - 14)) < 20;
        return followed && s.legendBottom <= s.inner + 1 && s;
      },
      async () => `the chart and its legend to follow the new width (now ${JSON.stringify(await chartSize())})`,
    );
    console.log(`      chart after: ${JSON.stringify(after)}`);
    assert.ok(after.overflow <= 0, 'no horizontal scrollbar');
    assert.ok(after.legendBottom <= after.inner + 1, 'the legend is still inside the panel');
    console.log(`      screenshot: ${await screenshot(page, 'panel-chart-after-resize')}`);
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
    await frame.locator('.mt-view-table').dispatchEvent('click');

    // Save JSON: the host's save dialog, then a file of records, one per row shown.
    const { workspace } = e2eEnv();
    const target = path.join(workspace, 'panel-rows.json');
    fs.rmSync(target, { force: true });
    await frame.locator('.mt-save-json').dispatchEvent('click');
    await answerFileDialog(page, target);
    await eventually(async () => fs.existsSync(target) && /Saved/.test(await status(frame)), 'the saved JSON file');
    const records = JSON.parse(fs.readFileSync(target, 'utf8'));
    assert.equal(records.length, rowCount, 'one record per row');
    assert.equal(typeof records[0].datasourceId, 'string');
    assert.ok(
      Object.keys(records[0]).some((k) => k.startsWith('pm2_5')),
      Object.keys(records[0]).join(','),
    );
    console.log(`      saved ${records.length} records: ${JSON.stringify(records[0]).slice(0, 120)}…`);

    // Copy Markdown: the rows shown, as a Markdown table on the clipboard.
    await frame.locator('.mt-copy-md').dispatchEvent('click');
    await eventually(async () => /Markdown table/.test(await status(frame)), 'the copy status');
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    const lines = markdown.trimEnd().split('\n');
    assert.match(lines[0], /^\| datasourceId \| .* \|$/);
    assert.match(lines[1], /^\| ---(:)? \|/);
    assert.equal(lines.length, Math.min(rowCount, 1000) + 2, 'header, rule and the rows');
    console.log(`      markdown: ${lines[0].slice(0, 100)}… (${lines.length} lines); status: ${await status(frame)}`);
  });
});
