// Run with Parameters… as a user meets it in the browser workbench: the monthly-report example, the
// command from the palette, each value asked in turn (a bad number refused as typed), then every cell
// runs with those values and each output's caption names them.
// Screenshots: .artifacts/screenshots/params-ask.png, params-bad-value.png, params-run.png.
import assert from 'node:assert/strict';
import { answer, eventually, openNotebook, runCommand, screenshot, useWorkbench } from './workbench.mjs';

/** The text of every output frame (webview iframes) of the page. */
async function outputText(page) {
  const texts = [];
  for (const f of page.frames())
    texts.push(
      await f
        .locator('body')
        .textContent({ timeout: 2000 })
        .catch(() => ''),
    );
  return texts.join('\n');
}

describe('e2e: Run with Parameters', function () {
  this.timeout(600_000);
  let page;
  useWorkbench(async (opened) => {
    page = opened;
    await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
    await page.keyboard.press('Escape');
  });

  it('asks each parameter (default shown, a bad value refused), runs every cell and captions the values', async () => {
    await openNotebook(page, 'monthly-report.measnb');
    await runCommand(page, 'Measurements: Run with Parameters');
    const widget = page.locator('.quick-input-widget');
    await eventually(
      async () => String(await widget.textContent()).includes('site (text; default DFV2F2UA)'),
      'the site step',
    );
    await screenshot(page, 'params-ask');
    await answer(page, 'DKUHQDHC', { expect: 'site (text' });
    await answer(page, '-3d', { expect: 'start (time' });
    await answer(page, 'today', { expect: 'end (time' });
    await answer(page, 'hour', { expect: 'frequency (text' });
    await answer(page, 'high', { expect: 'threshold (number' });
    await eventually(async () => String(await widget.textContent()).includes("'high' is not a number"), 'the refusal');
    await screenshot(page, 'params-bad-value');
    await answer(page, '5');
    // VS Code may ask once which kernel runs the notebook: ours.
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Measurements' }).first();
    if (
      await pick.waitFor({ timeout: 4000 }).then(
        () => true,
        () => false,
      )
    )
      await pick.click().catch(() => {});
    const text = await eventually(
      async () => {
        // Outputs render as they scroll into view: scroll down the notebook until the last ones are there.
        await page.mouse.move(850, 500);
        await page.mouse.wheel(0, 300);
        const t = await outputText(page);
        return t.includes('parameters: threshold=5') && t.includes('parameters: site=DKUHQDHC') ? t : undefined;
      },
      'the captions of the outputs',
      400,
    );
    assert.match(text, /parameters: site=DKUHQDHC, frequency=hour, start=-3d \(/);
    await screenshot(page, 'params-run');
  });
});
