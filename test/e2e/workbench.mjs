// Helpers for driving the code-server workbench the e2e runner started (MEASNB_E2E_URL, ..._WORKSPACE).
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, workbenchUrl } from '../host/browser.mjs';
import { ARTIFACTS } from '../host/toolchain.mjs';

export const SHOTS = path.join(ARTIFACTS, 'screenshots');

export function e2eEnv() {
  const url = process.env.MEASNB_E2E_URL;
  const workspace = process.env.MEASNB_E2E_WORKSPACE;
  if (!url || !workspace) throw new Error('run the e2e suites through `npm run test:e2e` (it starts code-server)');
  return { url, workspace };
}

/** A browser page on a workbench URL, with the workbench rendered. */
export async function openWorkbenchAt(url, { timezoneId } = {}) {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, timezoneId });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  return { browser, page };
}

/** A browser page on the workbench of the e2e workspace, with the workbench rendered (optionally in a time zone). */
export async function openWorkbench({ timezoneId } = {}) {
  const { url, workspace } = e2eEnv();
  return openWorkbenchAt(workbenchUrl(url, workspace), { timezoneId });
}

/**
 * The hooks of a suite on one workbench page: opens it before the suite and passes the page to `onOpen`
 * (which keeps it, and may prepare it), takes a screenshot of each failed test, closes the browser after.
 */
export function useWorkbench(onOpen, { timezoneId } = {}) {
  let opened;
  before(async () => {
    opened = await openWorkbench({ timezoneId });
    await onOpen(opened.page);
  });
  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, opened?.page);
  });
  after(async () => {
    await opened?.browser.close();
  });
}

/** Waits for the first frame of `page` (a webview iframe, say) that holds an element matching `selector`. */
export function frameWith(page, selector, what) {
  return eventually(
    async () => {
      for (const f of page.frames()) {
        if (
          await f
            .locator(selector)
            .count()
            .catch(() => 0)
        )
          return f;
      }
      return undefined;
    },
    what,
    300,
  );
}

/**
 * Whether the webview frame is on screen: its outermost iframe overlaps the page's viewport. A notebook open in
 * a tab that is not shown keeps its editor and output webview moved far off screen (see notebookList).
 */
async function frameOnScreen(page, frame) {
  let top = frame;
  while (top.parentFrame() && top.parentFrame() !== page.mainFrame()) top = top.parentFrame();
  if (top === page.mainFrame()) return true;
  const box = await top
    .frameElement()
    .then((el) => el.boundingBox())
    .catch(() => null);
  const view = page.viewportSize() ?? { width: 1e9, height: 1e9 };
  return !!box && box.x + box.width > 0 && box.y + box.height > 0 && box.x < view.width && box.y < view.height;
}

/**
 * The output frames (webview iframes) that hold our tables, of the notebook on screen only: the outputs of a
 * notebook in a tab behind it (an earlier test's) are not candidates.
 */
export async function tableFrames(page) {
  const out = [];
  for (const f of page.frames()) {
    if (!(await frameOnScreen(page, f))) continue;
    const n = await f
      .locator('.measnb-table')
      .count()
      .catch(() => 0);
    if (n) out.push({ frame: f, n });
  }
  return out;
}

/** Notebook: Run All on the active notebook (picking our controller if VS Code asks). */
export async function runAll(page) {
  await runCommand(page, 'Notebook: Run All');
  // With one controller for the type VS Code may still ask once: pick ours.
  const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Measurements' }).first();
  if (
    await pick.waitFor({ timeout: 4000 }).then(
      () => true,
      () => false,
    )
  )
    // The palette's own list may still be fading out with a matching row: a pick that is gone is fine.
    await pick.click({ timeout: 3000 }).catch(() => {});
}

/**
 * QC marks drawn in the rendered tables: value cells marked invalid (.mt-invalid) and qcAssessment cells
 * that read "invalid" in the bad tone, over every table that has a qcAssessment column.
 */
export async function qcMarks(page) {
  let invalidValues = 0;
  let invalidAssessments = 0;
  let qcTables = 0;
  for (const { frame } of await tableFrames(page)) {
    for (const t of await frame.locator('.measnb-table').all()) {
      if (!(await t.locator('.mt-hname', { hasText: /\.qcAssessment$/ }).count())) continue;
      qcTables++;
      invalidValues += await t.locator('.mt-body .mt-row:not([hidden]) .mt-cell.mt-invalid').count();
      invalidAssessments += await t
        .locator('.mt-body .mt-row:not([hidden]) .mt-cell.mt-tone-bad', { hasText: /^invalid$/ })
        .count();
    }
  }
  return { qcTables, invalidValues, invalidAssessments };
}

export async function screenshot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Opens a notebook of the workspace by file name (Go to File) and waits for its cells. */
export async function openNotebook(page, name) {
  // A quick pick opened late by an earlier step (the connection picker of a busy extension host) can take the
  // place of Go to File's: then the name is typed into it and no file row shows. Start over until the deadline.
  const deadline = Date.now() + 60_000;
  for (;;) {
    await runCommand(page, 'Go to File');
    await page.locator('.quick-input-widget input').fill(name);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 10_000 });
      break;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).first().waitFor({ timeout: 60_000 });
  await page.locator('.notebook-editor .notebook-toolbar-container:visible').first().waitFor({ timeout: 60_000 });
  // Notebook list rows count as hidden for Playwright (virtualized list); the cells are there once attached.
  await page.locator('.notebook-editor .monaco-list-row').first().waitFor({ state: 'attached', timeout: 60_000 });
  await page.waitForTimeout(500);
}

/**
 * Opens the command palette, types `title`, waits for the entry and runs it. The palette closes whenever
 * something else takes the focus (a webview of an editor that just became active does, a moment after
 * the editor before it closed): then it is opened again, until the deadline, rather than typed into hidden.
 */
export async function runCommand(page, title, { timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 3000 });
      await row.waitFor({ state: 'visible', timeout: 2000 });
      await page.keyboard.press('Enter');
      return;
    } catch (e) {
      if (Date.now() > deadline) {
        throw new Error(`command "${title}" never appeared in the palette (${String(e).split('\n')[0]})`);
      }
    }
  }
}

/** The visible quick input: waits for it (optionally for a title or placeholder text), types, presses Enter. */
export async function answer(page, text, { expect, keys = ['Enter'] } = {}) {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: 30_000 });
  const input = page.locator('.quick-input-widget input');
  if (expect) {
    // The step is recognised by its title, prompt or placeholder.
    await eventually(
      async () =>
        String(await widget.textContent()).includes(expect) ||
        String(await input.getAttribute('placeholder')).includes(expect),
      `the quick input step "${expect}"`,
      150,
    );
  }
  await input.fill(text);
  await page.waitForTimeout(150);
  for (const k of keys) await page.keyboard.press(k);
  await page.waitForTimeout(250);
}

/**
 * Answers code-server's own file dialog (open, save or folder: a quick input over the remote file
 * system) with the path `value`, then presses its OK button `okLabel`, or Enter. The dialog fills in its
 * start path once that folder's listing has loaded, replacing anything typed before; so wait for the
 * listing, type, and check that the path held.
 */
export async function answerFileDialog(page, value, { okLabel, screenshotAs } = {}) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input');
  await eventually(
    async () =>
      (await widget.isVisible()) &&
      (!okLabel || String(await widget.textContent()).includes(okLabel)) &&
      (await widget.locator('.quick-input-list .monaco-list-row').count()) > 0 &&
      !(await widget.locator('.monaco-progress-container.active').count()),
    `the file dialog${okLabel ? ` "${okLabel}"` : ''} with its listing loaded`,
    150,
  );
  if (screenshotAs) console.log(`      file dialog: ${await screenshot(page, screenshotAs)}`);
  await eventually(
    async () => {
      if ((await input.inputValue()) !== value) await input.fill(value);
      await page.waitForTimeout(400);
      return (await input.inputValue()) === value;
    },
    async () =>
      `the file dialog to keep the typed path ${value} (it shows "${await input.inputValue().catch(() => '?')}")`,
    20,
  );
  if (okLabel) await widget.locator('.monaco-button', { hasText: okLabel }).click();
  else await page.keyboard.press('Enter');
}

/** Polls `probe` (async, returns truthy when done) with a bounded number of tries; `what` may be a function that describes the state seen. */
export async function eventually(probe, what, tries = 300, everyMs = 200) {
  for (let i = 0; i < tries; i++) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`gave up waiting for ${typeof what === 'function' ? await what() : what}`);
}

/** For afterEach: a screenshot of a failed test, named after it. */
export async function screenshotIfFailed(test, page) {
  if (test?.state !== 'failed' || !page) return;
  const name = `failed-${test.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
  console.log(`      failure screenshot: ${await screenshot(page, name).catch((e) => e.message)}`);
}

/**
 * The box of the shown notebook's cell list. A notebook open in a tab that is not shown keeps its editor,
 * moved far off screen: the list on screen is the one to scroll and clip to.
 */
export async function notebookList(page) {
  const boxes = await page.locator('.notebook-editor .monaco-list').evaluateAll((lists) =>
    lists.map((l) => {
      const r = l.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  const shown = boxes.find((b) => b.x >= 0 && b.y >= 0 && b.width > 0 && b.height > 0);
  if (!shown) throw new Error(`no notebook on screen (cell lists at ${JSON.stringify(boxes)})`);
  return shown;
}

/** Scrolls the notebook (wheel over the cell list's left gutter) until `locator` (inside an output) is on screen. */
export async function revealInNotebook(page, locator) {
  const list = await notebookList(page);
  for (let i = 0; i < 20; i++) {
    const box = await locator.boundingBox();
    if (!box) return;
    const top = list.y + 20;
    if (box.y >= top && box.y + Math.min(box.height, list.height - 60) <= list.y + list.height) return;
    await page.mouse.move(list.x + 14, list.y + list.height / 2);
    await page.mouse.wheel(0, box.y - top);
    await page.waitForTimeout(300);
  }
}

/**
 * Takes an entry of an open context menu. The menu ignores a click that lands while it is still settling
 * (it stays open on the entry), so: wait a moment, click, and press Enter on the entry when it stayed open.
 */
export async function pickMenuItem(page, item) {
  await item.waitFor({ state: 'visible', timeout: 10_000 });
  await page.waitForTimeout(300);
  await item.click();
  await page.waitForTimeout(500);
  if (await item.isVisible().catch(() => false)) {
    await item.hover().catch(() => undefined);
    await page.keyboard.press('Enter');
  }
}

const exactly = (name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * The rendered output table with every header of `has` and none of `hasNot`, scrolling the notebook until
 * its output is drawn. The locator names the table by its headers (not by its place among the outputs,
 * which changes as outputs are drawn); tables inside a view (Summary, ...) are not candidates.
 */
export async function findTable(page, { has, hasNot = [] }, what) {
  const list = await notebookList(page);
  let step = 0;
  return eventually(
    async () => {
      for (const { frame } of await tableFrames(page)) {
        let table = frame.locator('.measnb-table:not(.mt-panel .measnb-table)');
        for (const n of has) table = table.filter({ has: frame.locator('.mt-hname', { hasText: exactly(n) }) });
        for (const n of hasNot) table = table.filter({ hasNot: frame.locator('.mt-hname', { hasText: exactly(n) }) });
        if ((await table.count()) > 0) return { frame, table: table.first() };
      }
      await page.mouse.move(list.x + 14, list.y + list.height / 2);
      await page.mouse.wheel(0, ++step % 40 === 0 ? -40_000 : 500);
      return undefined;
    },
    async () => {
      const seen = [];
      for (const { frame } of await tableFrames(page))
        for (const t of await frame.locator('.measnb-table:not(.mt-panel .measnb-table)').all())
          seen.push((await t.locator('.mt-hrow .mt-hname').allTextContents()).slice(0, 6).join(','));
      return `${what} (tables drawn: ${seen.join(' | ')})`;
    },
    240,
    500,
  );
}

/** Scrolls the notebook (wheel over the list's left gutter) until `locator` starts just below the list's top. */
export async function revealTop(page, locator) {
  const list = await notebookList(page);
  let last;
  for (let i = 0; i < 25; i++) {
    const box = await locator.boundingBox();
    if (!box) return;
    const delta = Math.round(box.y - (list.y + 8));
    if (Math.abs(delta) < 6 || box.y === last) return;
    last = box.y;
    await page.mouse.move(list.x + 14, list.y + list.height / 2);
    await page.mouse.wheel(0, delta);
    await page.waitForTimeout(250);
  }
}

/**
 * Opens a view by its tab in the output (the Table tab goes back to the rows). Output webviews
 * sit under the workbench's cell list, which takes real pointer hits: the click is dispatched in the frame.
 */
export async function openView(page, table, name) {
  await revealTop(page, table); // an output out of view is hidden by the workbench
  const button = table.locator(`.mt-tabs .mt-view-${name}`).first();
  if ((await button.getAttribute('aria-selected')) !== 'true') await button.dispatchEvent('click');
  await eventually(async () => (await button.getAttribute('aria-selected')) === 'true', `the ${name} view open`, 50);
}

/**
 * A screenshot of the output as the user sees it: the page clipped to the output within the cell list (an
 * element screenshot would scroll the notebook's webview by itself and show the wrong place).
 */
export async function shotOf(page, locator, name) {
  await revealTop(page, locator);
  await page.waitForTimeout(300);
  const list = await notebookList(page);
  const box = await locator.boundingBox();
  const x = Math.max(box.x - 4, list.x);
  const y = Math.max(box.y - 4, list.y);
  const right = Math.min(box.x + box.width + 4, list.x + list.width - 14); // not the list's scrollbar
  const bottom = Math.min(box.y + box.height + 4, list.y + list.height);
  if (right <= x || bottom <= y)
    throw new Error(`${name}: the output is not in the notebook's view (${JSON.stringify({ box, list })})`);
  const file = path.join(SHOTS, `aq-wb-${name}.png`);
  await page.screenshot({ path: file, clip: { x, y, width: right - x, height: bottom - y } });
  return file;
}

/** Picks a colour theme by its name in the theme picker and waits for the workbench to wear it. */
export async function setColorTheme(page, label) {
  // The palette's first row for "Preferences: Color Theme" may be "Browse Color Themes in Marketplace"
  // (Enter would take it): click the command, then the theme.
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill('>Preferences: Color Theme');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: /^Preferences: Color Theme/ })
    .first()
    .click({ timeout: 10_000 });
  await eventually(async () => (await input.inputValue()) === '', 'the theme picker', 50);
  await input.fill(label);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
  const kind = /high contrast/i.test(label)
    ? /light/i.test(label)
      ? 'hc-light'
      : 'hc-black'
    : /dark/i.test(label)
      ? 'vs-dark'
      : 'vs';
  await eventually(
    async () => (await page.locator(`.monaco-workbench.${kind}`).count()) === 1,
    `the ${label} theme`,
    50,
  );
  await page.waitForTimeout(1500); // the output webviews take the new colours
}

/** The output as the user sees it: the page clipped to `locator` within the notebook's cell list, as <name>.png. */
export async function outputShot(page, locator, name) {
  await revealInNotebook(page, locator);
  await page.waitForTimeout(400);
  const list = await notebookList(page);
  const box = await locator.boundingBox();
  const x = Math.max(box.x - 4, list.x);
  const y = Math.max(box.y - 4, list.y);
  const right = Math.min(box.x + box.width + 4, list.x + list.width - 14);
  const bottom = Math.min(box.y + box.height + 4, list.y + list.height);
  const file = path.join(SHOTS, `${name}.png`);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: file, clip: { x, y, width: right - x, height: bottom - y } });
  return file;
}

/**
 * Writes a notebook of one measq cell on the Local emulator into the e2e workspace as `name`, and lets the
 * extension activate (Select Notebook Connection, dismissed) before it is opened.
 */
export function writeOneCellNotebook(page, name, source) {
  return writeNotebook(page, name, [source]);
}

/** As writeOneCellNotebook, with a measq cell per source (each a string or a list of lines). */
export async function writeNotebook(page, name, sources) {
  const nb = {
    measnb: 1,
    metadata: { connection: 'Local emulator' },
    cells: sources.map((source) => ({ kind: 'code', language: 'measq', source, outputs: [] })),
  };
  fs.writeFileSync(path.join(e2eEnv().workspace, name), JSON.stringify(nb, null, 2));
  await runCommand(page, 'Measurements: Select Notebook Connection', { timeoutMs: 90_000 });
  await page.keyboard.press('Escape');
}

/** The output table (not a view's own) whose count reads `rows` (e.g. '52,560 rows'), polled `tries` times. */
export function tableWithCount(page, rows, tries) {
  return eventually(
    async () => {
      for (const { frame } of await tableFrames(page)) {
        const t = frame.locator('.measnb-table:not(.mt-panel .measnb-table)').first();
        if ((await t.count()) && (await t.locator('.mt-count').first().textContent()) === rows) return t;
      }
      return undefined;
    },
    `the report output with ${rows}`,
    tries,
    400,
  );
}

/** The output table (not a view's own) once drawn with all its rows, and its row count ("72 rows" → 72). */
export function outputTable(page) {
  return eventually(
    async () => {
      for (const { frame } of await tableFrames(page)) {
        const t = frame.locator('.measnb-table:not(.mt-panel .measnb-table)').first();
        if (!(await t.count())) continue;
        const count = await t.locator('.mt-count').first().textContent();
        if (/^\d[\d,]* rows$/.test(count ?? '')) return { table: t, total: Number(count.replace(/\D/g, '')) };
      }
      return undefined;
    },
    'the output table',
    900,
    400,
  );
}
