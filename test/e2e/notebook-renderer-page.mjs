// The built renderer (dist/renderer.js) in real chromium, outside VS Code: a page with VS Code theme
// variables activates it as the workbench would and renders a synthetic table in the wire format
// (default 1,000,000 rows x 20 columns); then scrolls to the end, sorts, filters and charts, checking
// the DOM stays bounded, the row count is visible and a hostile id stays text. Screenshots go to
// .artifacts/screenshots/renderer-*.png. Run: npm run build && node test/e2e/notebook-renderer-page.mjs [rows]
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { launchChromium } from '../host/browser.mjs';
import { ARTIFACTS, CACHE, ROOT } from '../host/toolchain.mjs';

const SHOTS = path.join(ARTIFACTS, 'screenshots');

/** Waits (bounded) until `predicate` holds in the page; the assertions after it say what is wrong if it never does. */
async function settle(page, predicate, arg) {
  await page.waitForFunction(predicate, arg, { timeout: 15_000 }).catch(() => undefined);
}
const PAGE_DIR = path.join(CACHE, 'renderer-page');

const THEMES = {
  dark: {
    '--vscode-foreground': '#cccccc',
    '--vscode-editor-background': '#1f1f1f',
    '--vscode-descriptionForeground': '#9d9d9d',
    '--vscode-input-background': '#313131',
    '--vscode-input-foreground': '#cccccc',
    '--vscode-input-border': '#3c3c3c',
    '--vscode-focusBorder': '#0078d4',
    '--vscode-button-background': '#0078d4',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-secondaryBackground': '#313131',
    '--vscode-button-secondaryForeground': '#cccccc',
    '--vscode-list-hoverBackground': '#2a2d2e',
    '--vscode-list-activeSelectionBackground': '#04395e',
    '--vscode-list-inactiveSelectionBackground': '#37373d',
    '--vscode-errorForeground': '#f85149',
    '--vscode-editorWarning-foreground': '#cca700',
    '--vscode-editorWidget-background': '#202020',
    '--vscode-editorGroup-border': '#ffffff17',
    '--vscode-charts-blue': '#3794ff',
    '--vscode-charts-red': '#f14c4c',
    '--vscode-charts-green': '#89d185',
    '--vscode-charts-yellow': '#cca700',
    '--vscode-charts-orange': '#d18616',
    '--vscode-charts-purple': '#b180d7',
    '--vscode-font-family': 'system-ui, sans-serif',
    '--vscode-font-size': '13px',
  },
  light: {
    '--vscode-foreground': '#3b3b3b',
    '--vscode-editor-background': '#ffffff',
    '--vscode-descriptionForeground': '#717171',
    '--vscode-input-background': '#ffffff',
    '--vscode-input-foreground': '#3b3b3b',
    '--vscode-input-border': '#cecece',
    '--vscode-focusBorder': '#005fb8',
    '--vscode-button-background': '#005fb8',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-secondaryBackground': '#e5e5e5',
    '--vscode-button-secondaryForeground': '#3b3b3b',
    '--vscode-list-hoverBackground': '#f2f2f2',
    '--vscode-list-activeSelectionBackground': '#e8e8e8',
    '--vscode-errorForeground': '#f85149',
    '--vscode-editorWarning-foreground': '#bf8803',
    '--vscode-editorWidget-background': '#f8f8f8',
    '--vscode-editorGroup-border': '#e5e5e5',
    '--vscode-charts-blue': '#1a85ff',
    '--vscode-charts-red': '#e51400',
    '--vscode-charts-green': '#388a34',
    '--vscode-font-family': 'system-ui, sans-serif',
    '--vscode-font-size': '13px',
  },
};

function pageHtml(theme) {
  const vars = Object.entries(THEMES[theme])
    .map(([k, v]) => `${k}: ${v};`)
    .join(' ');
  return `<!doctype html><html><head><meta charset="utf-8"><style>:root { ${vars} }
body { background: var(--vscode-editor-background); color: var(--vscode-foreground); margin: 12px; }
.spacer { height: 3000px; }
/* As VS Code's webviews style them: classic 10 px scrollbars (headless chromium's own are overlays, 0 px). */
::-webkit-scrollbar { width: 10px; height: 10px; }
::-webkit-scrollbar-thumb { background-color: rgba(121, 121, 121, 0.4); }</style></head>
<body><div id="out"></div><script type="module">
import { activate } from './renderer.js';
const params = new URLSearchParams(location.search);
const source = params.get('src') === 'aq' ? 'aq.bin' : 'table.bin?rows=' + params.get('rows');
const bytes = new Uint8Array(await (await fetch(source)).arrayBuffer());
const api = activate({ workspace: { isTrusted: true } });
await api.renderOutputItem(
  { id: 'out-1', mime: 'application/vnd.measnb.table', metadata: { measnb: { ...(params.get('src') === 'aq' ? { title: 'recent hour' } : { title: 'synthetic', notes: ['synthetic ' + params.get('rows') + ' rows'] }), ...(params.get('tz') ? { timeZone: { name: params.get('tz'), dayBoundary: 'clock' } } : {}) } }, data: () => bytes, text: () => '' },
  document.getElementById('out'),
);
// A page taller than the window (the wheel check): the notebook's list around an output.
if (params.get('spacer')) document.body.append(Object.assign(document.createElement('div'), { className: 'spacer' }));
window.measnbReady = true;
</script></body></html>`;
}

/** Serves dist/renderer.js, the page, the synthetic table (`table.bin?rows=`) and an optional fixed result (`aq.bin`). */
async function servePage(encodeRows, aqBytes) {
  const renderer = path.join(ROOT, 'dist', 'renderer.js');
  if (!fs.existsSync(renderer)) throw new Error('dist/renderer.js is missing: run npm run build first');
  const encoded = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/renderer.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(fs.readFileSync(renderer));
    }
    if (url.pathname === '/table.bin' && encodeRows) {
      const rows = Number(url.searchParams.get('rows'));
      if (!encoded.has(rows)) encoded.set(rows, encodeRows(rows));
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(encoded.get(rows));
    }
    if (url.pathname === '/aq.bin' && aqBytes) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(aqBytes);
    }
    // The air-quality page runs under a strict CSP, as in a webview: nothing from another origin, no eval.
    const csp =
      url.searchParams.get('src') === 'aq'
        ? {
            'content-security-policy':
              "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:",
          }
        : {};
    res.writeHead(200, { 'content-type': 'text/html', ...csp });
    res.end(pageHtml(url.searchParams.get('theme') === 'light' ? 'light' : 'dark'));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** The synthetic table and the core's encoder, bundled for node (the page gets only the bytes). */
async function syntheticEncoder() {
  fs.mkdirSync(PAGE_DIR, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/e2e/notebook-renderer-page/encode-synthetic.ts')],
    outfile: path.join(PAGE_DIR, 'encode-synthetic.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(path.join(PAGE_DIR, 'encode-synthetic.cjs')).encodeSynthetic;
}

/** Runs the page checks with `rows` rows; throws on the first failed check. */
export async function checkRendererPage(ROWS = 1_000_000) {
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.mkdirSync(PAGE_DIR, { recursive: true });
  const encodeSynthetic = await syntheticEncoder();
  const { server, base } = await servePage((rows) => Buffer.from(encodeSynthetic(rows)));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 620 } });
    const alerts = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/?rows=${ROWS}`);
    await page.waitForFunction(() => window.measnbReady === true, null, { timeout: 120_000 });
    const count = await page.textContent('.mt-count');
    assert.equal(count, `${ROWS.toLocaleString('en-US')} rows`);
    await page.screenshot({ path: path.join(SHOTS, 'renderer-top.png') });

    // Scroll to the very end: the last row is drawn, the DOM stays bounded.
    await page.$eval('.mt-viewport', (v) => {
      v.scrollTop = v.scrollHeight;
    });
    // Drawn on the next frame: wait for it (bounded), then assert with what is there.
    await settle(
      page,
      (n) =>
        [...document.querySelectorAll('.mt-body .mt-row:not([hidden]) .mt-gutter')].some(
          (g) => g.textContent === String(n),
        ),
      ROWS,
    );
    const last = await page.$$eval('.mt-body .mt-row:not([hidden])', (rows) =>
      rows.map((r) => r.querySelector('.mt-gutter')?.textContent),
    );
    assert.ok(last.includes(String(ROWS)), `last row ${ROWS} drawn (saw ${last.at(-1)})`);
    const domRows = await page.$$eval('.mt-row', (rows) => rows.length);
    assert.ok(domRows < 500, `DOM rows bounded: ${domRows}`);
    console.log(`scrolled to the end: last drawn row ${last.at(-1)}, DOM rows ${domRows}`);
    await page.screenshot({ path: path.join(SHOTS, 'renderer-end.png') });

    // The hostile id is text: no <img> element, no alert.
    await page.fill('.mt-filter', 'onerror');
    await settle(page, () =>
      [...document.querySelectorAll('.mt-body .mt-row:not([hidden]) .mt-cell')].some((c) =>
        c.textContent?.includes('onerror'),
      ),
    );
    const hostile = await page.$$eval('.mt-body .mt-row:not([hidden]) .mt-cell', (cells) =>
      cells.map((c) => c.textContent).find((t) => t?.includes('onerror')),
    );
    assert.equal(hostile, '<img src=x onerror=alert(1)>');
    assert.equal(await page.$$eval('.measnb-table img', (imgs) => imgs.length), 0);
    console.log(`filtered on 'onerror': ${await page.textContent('.mt-count')}`);
    await page.screenshot({ path: path.join(SHOTS, 'renderer-hostile-filter.png') });
    await page.fill('.mt-filter', '');

    // Sort by a metric descending (two clicks on its header).
    const header = page.locator('.mt-hcell', { hasText: 'pm2_5ConcMassIndividual.value' });
    await header.click();
    await settle(page, () => document.querySelector('.mt-hcell[aria-sort="ascending"]') !== null);
    await header.click();
    await settle(page, () => document.querySelector('.mt-hcell[aria-sort="descending"]') !== null);
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    await page.$eval('.mt-viewport', (v) => {
      v.scrollTop = 0;
    });
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(SHOTS, 'renderer-sorted.png') });

    // An invalid column filter: the input is marked and a notice says what the filter accepts.
    const metricFilter = page.locator('.mt-fcell input[aria-label="Filter pm2_5ConcMassIndividual.value"]');
    assert.equal(await page.isHidden('.mt-filter-problem'), true, 'no notice while the filters are valid');
    await metricFilter.fill('>abc');
    await settle(page, () => document.querySelector('.mt-filter-problem:not([hidden])') !== null);
    assert.equal(await metricFilter.getAttribute('aria-invalid'), 'true');
    assert.match(await metricFilter.getAttribute('class'), /\bmt-invalid\b/);
    assert.equal(
      await page.textContent('.mt-filter-problem'),
      'Filter of pm2_5ConcMassIndividual.value: "abc" is not a number. This filter accepts: text, =exact, !not, empty, !empty, >5, <=5, 5..10, 5..<10',
    );
    await page.screenshot({ path: path.join(SHOTS, 'renderer-invalid-filter.png') });
    await metricFilter.fill('>5');
    await settle(page, () => document.querySelector('.mt-filter-problem')?.hidden === true);
    assert.equal(await metricFilter.getAttribute('aria-invalid'), 'false');
    await metricFilter.fill('');

    // Per-column filter, then the chart of the filtered rows.
    await page.fill('.mt-fcell input[aria-label="Filter datasourceId"]', '=D000001');
    await settle(page, () => / of /.test(document.querySelector('.mt-count')?.textContent ?? ''));
    console.log(`column filter: ${await page.textContent('.mt-count')}`);
    await page.click('.mt-view-chart');
    await page.waitForSelector('.mt-chart canvas');
    await page.screenshot({ path: path.join(SHOTS, 'renderer-chart.png') });
    await page.click('.mt-view-table');

    // A notebook in Asia/Tokyo: its times in Tokyo, the zone button to switch to UTC.
    await page.goto(`${base}/?rows=2000&theme=light&tz=Asia/Tokyo`);
    await page.waitForFunction(() => window.measnbReady === true);
    assert.equal(await page.textContent('.mt-tz'), 'Asia/Tokyo');
    await page.screenshot({ path: path.join(SHOTS, 'renderer-light-local.png') });
    assert.deepEqual(alerts, []);
    assert.deepEqual(errors, []);
    console.log(`screenshots in ${path.relative(ROOT, SHOTS)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

/**
 * AQI chips are one width whatever the category (G … USG), at the cell's left edge, and the numbers beside them
 * right-aligned in tabular figures: in a column, every value ends at one x (issue 30 item 15).
 */
async function checkChipsAligned(page) {
  const columns = await page.$$eval('.measnb-table > .mt-viewport .mt-body .mt-row:not([hidden])', (rows) => {
    const out = {};
    for (const row of rows)
      for (const [k, cell] of [...row.children].entries()) {
        if (!cell.classList.contains('mt-aqi')) continue;
        const before = getComputedStyle(cell, '::before');
        const range = document.createRange();
        range.selectNodeContents(cell);
        const text = [...range.getClientRects()].at(-1);
        const style = getComputedStyle(cell);
        out[k] ??= [];
        out[k].push({
          abbr: cell.dataset.aqiAbbr,
          chip: before.width,
          float: before.float,
          right: Math.round(text.right),
          numbers: `${style.textAlign} ${style.fontVariantNumeric}`,
        });
      }
    return Object.values(out);
  });
  const all = columns.flat();
  assert.ok(new Set(all.map((c) => c.abbr)).size >= 2, `chips of several categories: ${all.map((c) => c.abbr)}`);
  assert.equal(new Set(all.map((c) => c.chip)).size, 1, `one chip width: ${[...new Set(all.map((c) => c.chip))]}`);
  assert.ok(
    all.every((c) => c.float === 'left' && c.numbers === 'right tabular-nums'),
    JSON.stringify(all[0]),
  );
  for (const column of columns)
    assert.equal(new Set(column.map((c) => c.right)).size, 1, `values end at one x: ${column.map((c) => c.right)}`);
}

/** The widget's toolbar as laid out: its height, how far it overflows, what is in its "…" menu. */
function toolbarLayout(page) {
  return page.$eval('.measnb-table > .mt-bar', (bar) => ({
    height: Math.round(bar.getBoundingClientRect().height),
    overflow: bar.scrollWidth - bar.clientWidth,
    more: !bar.querySelector('.mt-more-host').hidden,
    inMenu: [...bar.querySelectorAll('.mt-more-menu > *')].map((e) => e.className.split(' ').at(-1)),
  }));
}

/**
 * The toolbar keeps one line (issue 30 item 8): at 1500 px everything fits; at 900 px what does not fit is in
 * the "…" menu, which opens and closes. Screenshots aq-toolbar-1500, aq-toolbar-900, aq-toolbar-900-menu.
 */
async function checkToolbarLine(page, shot) {
  const oneLine = 40; // a button's height and the bar's padding: two lines would be twice that
  for (const width of [1500, 900]) {
    await page.setViewportSize({ width, height: 900 });
    await settle(page, (w) => document.querySelector('.measnb-table > .mt-bar').clientWidth < w, width);
    await page.waitForTimeout(100); // the layout runs on the next frame
    const bar = await toolbarLayout(page);
    console.log(`toolbar at ${width} px: ${JSON.stringify(bar)}`);
    assert.ok(bar.height <= oneLine && bar.overflow <= 1, `one line at ${width} px: ${JSON.stringify(bar)}`);
    assert.equal(bar.more, width === 900, `the "…" menu ${width === 900 ? 'shown' : 'hidden'} at ${width} px`);
    if (width === 900) assert.ok(bar.inMenu.length > 0 && !bar.inMenu.includes('mt-tabs'), 'the tabs stay');
    await shot(`toolbar-${width}`);
  }
  await page.click('.mt-more');
  await page.waitForSelector('.mt-more-menu:not([hidden])');
  await shot('toolbar-900-menu');
  await page.click('.mt-more');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForTimeout(100);
}

/**
 * A table whose rows all fit (3 rows, 20 columns: a horizontal scrollbar) does not catch the wheel (issue 30
 * item 17): it never scrolls vertically (VS Code's webview hands a wheel to the notebook unless an element under
 * the pointer can scroll that way), and a wheel over it scrolls the page around it.
 */
export async function checkShortTableWheel() {
  const encodeSynthetic = await syntheticEncoder();
  const { server, base } = await servePage((rows) => Buffer.from(encodeSynthetic(rows)));
  const browser = await launchChromium({ scrollbars: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    await page.goto(`${base}/?rows=3&spacer=1`);
    await page.waitForFunction(() => window.measnbReady === true);
    await page.waitForTimeout(200); // the height is fitted again once laid out (a frame)
    const box = await page.$eval('.mt-viewport', (v) => ({
      scrollHeight: v.scrollHeight,
      clientHeight: v.clientHeight,
      scrollbar: v.offsetHeight - v.clientHeight - 2,
      width: [v.scrollWidth, v.clientWidth, document.documentElement.scrollWidth],
    }));
    console.log(`short table: ${JSON.stringify(box)}`);
    assert.ok(box.scrollbar > 0, 'the columns are wider than the window: a horizontal scrollbar');
    assert.ok(box.scrollHeight <= box.clientHeight, `every row fits: ${JSON.stringify(box)}`);
    const rows = await page.locator('.mt-body .mt-row:not([hidden])').first().boundingBox();
    await page.mouse.move(rows.x + 200, rows.y + 10);
    await page.mouse.wheel(0, 300);
    await settle(page, () => window.scrollY > 0);
    const after = await page.evaluate(() => ({
      page: window.scrollY,
      table: document.querySelector('.mt-viewport').scrollTop,
    }));
    assert.ok(
      after.page > 0 && after.table === 0,
      `the wheel scrolled the page, not the table: ${JSON.stringify(after)}`,
    );
    await page.screenshot({ path: path.join(SHOTS, 'renderer-short-table.png') });
  } finally {
    await browser.close();
    server.close();
  }
}

const near = (a, b, eps = 1e-6) => Math.abs(a - b) <= eps * Math.max(1, Math.abs(b));

/** The cells of the drawn rows of the table widget inside `scope`, as text (`within`: a page, frame or locator). */
export async function drawnRows(within, scope) {
  return within
    .locator(`${scope} .mt-body .mt-row:not([hidden])`)
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('.mt-cell:not(.mt-gutter)')].map((c) => c.textContent)),
    );
}

/**
 * The air-quality views on a real result (an hourly recent query against the emulator, see
 * encode-emulator.ts), in the dark and light themes: units and AQI chips in the table, AQI bands and QC
 * marks in the chart, Summary and Collocation numbers equal to the model's, Exceedances, Profiles, Map.
 * Screenshots: .artifacts/screenshots/aq-<view>-<theme>.png.
 */
/** An emulator result in the wire format (bytes, rowCount), encoded by a bundled node script. */
async function emulatorResult() {
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.mkdirSync(PAGE_DIR, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/e2e/notebook-renderer-page/encode-emulator.ts')],
    outfile: path.join(PAGE_DIR, 'encode-emulator.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    logLevel: 'warning',
    external: ['@duckdb/node-api', '@duckdb/node-bindings'], // the SQL engine: native, loaded only by sql cells (none here)
  });
  const { encodeEmulatorResult } = createRequire(import.meta.url)(path.join(PAGE_DIR, 'encode-emulator.cjs'));
  return encodeEmulatorResult();
}

/**
 * The emulator result in a notebook set to America/Denver: times in the one ISO-like 24-hour format in Denver,
 * the zone named once in the header, the zone button switches to UTC and back (the same instants), and the
 * chart's time axis is titled "hour starting (America/Denver)". Screenshots: local-times-{table,chart}.png.
 */
export async function checkLocalTimes() {
  const result = await emulatorResult();
  const { server, base } = await servePage(undefined, Buffer.from(result.bytes));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/?src=aq&tz=America/Denver`);
    await page.waitForFunction(() => window.measnbReady === true, null, { timeout: 60_000 });
    const header = () =>
      page.$$eval('.mt-hcell', (cells) => {
        const c = cells.find((x) => x.querySelector('.mt-hname')?.textContent === 'startOfPeriod');
        return { unit: c?.querySelector('.mt-unit')?.textContent };
      });
    // The first shown row's startOfPeriod cell: body cells are in the header's order.
    const firstTime = () =>
      page.evaluate(() => {
        const heads = [...document.querySelectorAll('.mt-hrow > *')];
        const k = heads.findIndex((c) => c.querySelector('.mt-hname')?.textContent === 'startOfPeriod');
        return document.querySelector('.mt-body .mt-row:not([hidden])')?.children[k]?.textContent;
      });
    assert.equal((await header()).unit, 'America/Denver', 'the zone named once, in the header');
    const denver = await firstTime();
    assert.match(denver, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/, `ISO-like 24-hour: ${denver}`);
    await page.screenshot({ path: path.join(SHOTS, 'local-times-table.png') });
    assert.equal(await page.textContent('.mt-tz'), 'America/Denver');
    await page.click('.mt-tz');
    assert.equal((await header()).unit, 'UTC');
    const utc = await firstTime();
    // The same instant: Denver's text is the UTC one converted by Intl (ICU's tzdata) into America/Denver.
    const instant = Date.parse(`${utc.replace(' ', 'T')}:00Z`);
    const expected = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'America/Denver',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(instant);
    assert.equal(denver, expected, `${utc} UTC in Denver`);
    await page.click('.mt-tz');
    await page.click('.mt-view-chart');
    await page.waitForSelector('.mt-plot canvas');
    const legend = await page.$eval('.mt-chart .u-legend', (l) => l.textContent);
    assert.match(legend, /hour starting \(America\/Denver\)/);
    await page.screenshot({ path: path.join(SHOTS, 'local-times-chart.png') });
    // Resampled to daily means in the notebook's zone, from the rows held (no new query).
    await page.selectOption('.mt-chart .mt-resample', 'day');
    await page.waitForFunction(() => /daily means/.test(document.querySelector('.mt-chart-note')?.textContent ?? ''));
    assert.match(await page.textContent('.mt-chart-note'), /; daily means in local time \(America\/Denver\)$/);
    await page.waitForSelector('.mt-plot canvas');
    assert.match(await page.$eval('.mt-chart .u-legend', (l) => l.textContent), /day starting \(America\/Denver\)/);
    await page.screenshot({ path: path.join(SHOTS, 'local-times-chart-daily.png') });
    await page.selectOption('.mt-chart .mt-resample', 'raw');
    // Three metrics stacked: two more panels under the first, each with its unit, the cursor synced.
    const metrics = await page.$$eval('.mt-chart .mt-metric option', (os) => os.map((o) => o.textContent));
    const pick = (re) => metrics.find((m) => re.test(m)) ?? metrics[1];
    await page.selectOption('.mt-chart .mt-metric', { label: pick(/^pm2_5/) });
    await page.selectOption('.mt-chart .mt-metric-extra-0', { label: pick(/^no2/) });
    await page.selectOption('.mt-chart .mt-metric-extra-1', { label: pick(/^temperature/) });
    await page.waitForFunction(() => document.querySelectorAll('.mt-chart .mt-panel canvas').length === 2);
    const titles = await page.$$eval('.mt-chart .mt-panel-title', (ts) => ts.map((t) => t.textContent));
    assert.deepEqual(titles, [pick(/^no2/), pick(/^temperature/)]);
    const box = await page.locator('.mt-chart .mt-plot .u-over').first().boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const cursors = await page.$$eval('.mt-chart .u-cursor-x', (cs) => cs.map((c) => c.style.transform));
    assert.equal(cursors.length, 3);
    assert.ok(
      cursors.every((c) => c && c === cursors[0]),
      `cursor synced: ${cursors.join(' | ')}`,
    );
    await page.screenshot({ path: path.join(SHOTS, 'local-times-chart-stacked.png'), fullPage: true });
    // Two metrics in one panel: the second's lines on a right axis, no panels under it.
    await page.selectOption('.mt-chart .mt-metric-extra-1', '-1');
    await page.check('.mt-chart .mt-two-axes');
    await page.waitForFunction(() => document.querySelectorAll('.mt-chart .mt-panel').length === 0);
    const legend2 = await page.$eval('.mt-chart .u-legend', (l) => l.textContent);
    assert.ok(legend2.includes(` · ${pick(/^no2/).split(' [')[0]}`), legend2);
    // The QC-invalid marks say whose they are: the first metric's, on the left axis (both metrics' marks look alike).
    assert.ok(legend2.includes(`QC-invalid · ${pick(/^pm2_5/).split(' [')[0]} (left axis)`), legend2);
    await page.screenshot({ path: path.join(SHOTS, 'local-times-chart-two-axes.png'), fullPage: true });
    // A view's derived table (Exceedances: first / last above) names the same zone on its time columns.
    await page.click('.mt-view-exceedances');
    await page.waitForSelector('.mt-exceedances .mt-hcell');
    const units = await page.$$eval('.mt-exceedances .mt-hcell', (cells) =>
      cells.map(
        (c) => `${c.querySelector('.mt-hname')?.textContent}|${c.querySelector('.mt-unit')?.textContent ?? ''}`,
      ),
    );
    assert.ok(units.includes('first above|America/Denver'), units.join(', '));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
}

export async function checkAirQualityViews() {
  const result = await emulatorResult();
  const { server, base } = await servePage(undefined, Buffer.from(result.bytes));
  const browser = await launchChromium();
  try {
    for (const theme of ['dark', 'light']) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      const shot = (name) => page.screenshot({ path: path.join(SHOTS, `aq-${name}-${theme}.png`), fullPage: true });
      await page.goto(`${base}/?src=aq&theme=${theme}`);
      await page.waitForFunction(() => window.measnbReady === true, null, { timeout: 60_000 });
      assert.equal(await page.textContent('.mt-count'), `${result.rowCount.toLocaleString('en-US')} rows`);

      // Units on headers; AQI chips with the category in the tooltip.
      const unit = await page
        .$eval('.mt-hcell:has(.mt-hname:text-is("pm2_5ConcMassNowcast.value")) .mt-unit', (e) => e.textContent)
        .catch(async () =>
          page.$$eval(
            '.mt-hcell',
            (cells) =>
              cells
                .find((c) => c.querySelector('.mt-hname')?.textContent === 'pm2_5ConcMassNowcast.value')
                ?.querySelector('.mt-unit')?.textContent,
          ),
        );
      assert.equal(unit, 'µg/m³');
      const chip = await page.$eval('.mt-body .mt-cell.mt-aqi', (c) => ({ title: c.title, aqi: c.dataset.aqi }));
      assert.match(
        chip.title,
        /AQI category: (Good|Moderate|Unhealthy for Sensitive Groups|Unhealthy|Very Unhealthy|Hazardous)$/,
      );
      await checkChipsAligned(page);
      await shot('table');
      if (theme === 'dark') await checkToolbarLine(page, shot);
      // Metric headers on two lines (issue 30 item 6): no two read alike, neither line is cut.
      const heads = await page.$$eval('.measnb-table > .mt-viewport .mt-hrow .mt-hcell:has(.mt-hlines)', (cells) =>
        cells.map((c) => {
          const [top, bottom] = [c.querySelector('.mt-hmetric'), c.querySelector('.mt-hdetail')];
          const cut = (e) => e.scrollWidth > e.clientWidth + 1;
          return { text: `${top.textContent} / ${bottom.textContent}`, cut: cut(top) || cut(bottom), title: c.title };
        }),
      );
      console.log(`headers: ${heads.map((x) => x.text).join(' | ')}`);
      assert.ok(heads.length >= 6, `metric headers: ${heads.length}`);
      assert.equal(new Set(heads.map((x) => x.text)).size, heads.length, 'every metric header reads differently');
      assert.deepEqual(
        heads.filter((x) => x.cut).map((x) => x.text),
        [],
        'no header line is cut',
      );
      assert.ok(
        heads.every((x) => /^[a-zA-Z0-9_]+\.[a-zA-Z]+ /.test(x.title)),
        'the canonical name in the tooltip',
      );

      // Column layout: datasource and period start first, then the values; common values fit their column.
      const headers = await page.$$eval('.mt-hrow .mt-hcell:not([hidden]) .mt-hname', (c) =>
        c.map((e) => e.textContent),
      );
      assert.deepEqual(headers.slice(0, 2), ['datasourceId', 'startOfPeriod']);
      assert.ok(headers[2].endsWith('.value'), `third column is a metric value: ${headers[2]}`);
      const cut = await page.$$eval('.mt-hrow .mt-hcell', (cells) => {
        const col = cells.find((c) => c.querySelector('.mt-hname')?.textContent === 'sourceType')?.dataset.col;
        const order = cells.map((c) => c.dataset.col);
        const k = order.indexOf(col) + 1; // +1: the gutter
        return [...document.querySelectorAll('.mt-body .mt-row:not([hidden])')]
          .map((r) => r.children[k])
          .filter((c) => c.scrollWidth > c.clientWidth)
          .map((c) => c.textContent);
      });
      assert.deepEqual(cut, [], 'no sourceType value is cut');
      // Pinned: scrolled sideways to the end, the first two columns stay where they were.
      const leftOf = () =>
        page.$$eval('.mt-hrow .mt-hcell:not([hidden])', (c) =>
          c.slice(0, 3).map((e) => Math.round(e.getBoundingClientRect().left)),
        );
      const before = await leftOf();
      await page.$eval('.mt-viewport', (v) => {
        v.scrollLeft = v.scrollWidth;
      });
      await settle(
        page,
        (x) =>
          Math.round(document.querySelectorAll('.mt-hrow .mt-hcell:not([hidden])')[2].getBoundingClientRect().left) !==
          x,
        before[2],
      );
      const after = await leftOf();
      assert.deepEqual(after.slice(0, 2), before.slice(0, 2), 'pinned columns stay');
      assert.notEqual(after[2], before[2], 'the third column scrolled');
      if (theme === 'dark') await shot('table-scrolled');
      await page.$eval('.mt-viewport', (v) => {
        v.scrollLeft = 0;
      });
      // Column menu: hide datasourceId (startOfPeriod is pinned first then), show it again.
      await page.click('.mt-columns');
      await page.uncheck('.mt-colmenu input[data-col="0"]');
      assert.equal(await page.$eval('.mt-hcell[data-col="0"]', (c) => c.hidden), true);
      const pinnedNow = await page.$$eval('.mt-hrow .mt-hcell.mt-pin', (c) =>
        c.map((e) => e.querySelector('.mt-hname').textContent),
      );
      assert.equal(pinnedNow[0], 'startOfPeriod');
      if (theme === 'dark') await shot('column-menu');
      await page.check('.mt-colmenu input[data-col="0"]');
      await page.click('.mt-columns');
      assert.equal(await page.$eval('.mt-hcell[data-col="0"]', (c) => c.hidden), false);

      // Chart: AQI bands legend, QC-invalid count, flag legend.
      await page.click('.mt-view-chart');
      await page.waitForSelector('.mt-chart canvas');
      await page.selectOption('.mt-chart .mt-metric', { label: 'pm2_5ConcMassNowcast.value [µg/m³]' });
      await settle(page, () => document.querySelector('.mt-chart .mt-aqi-legend') !== null);
      const legend = await page.textContent('.mt-chart .mt-aqi-legend');
      for (const name of ['Good', 'Moderate', 'Unhealthy for Sensitive Groups', 'Hazardous'])
        assert.ok(legend.includes(name), legend);
      const invalidLabel = await page.textContent('.mt-chart .mt-invalid-count');
      const invalidShown = Number(/\((\d[\d,]*)\)/.exec(invalidLabel)[1].replace(/,/g, ''));
      const modelInvalid = result.summaryRows
        .filter((r) => r.metric === 'pm2_5ConcMassNowcast.value')
        .reduce((n, r) => n + r['QC-invalid'], 0);
      assert.equal(invalidShown, modelInvalid, 'QC-invalid count of the chart = the Summary model');
      await page.click('.mt-chart .mt-qc-legend summary');
      await shot('chart');

      // Summary: the derived table's rows equal the model's numbers.
      await page.click('.mt-view-summary');
      await page.waitForSelector('.mt-summary .mt-body .mt-row:not([hidden])');
      assert.equal(
        await page.textContent('.mt-summary .mt-count'),
        `${result.summaryRows.length.toLocaleString('en-US')} rows`,
      );
      const summaryHeader = await page.$$eval('.mt-summary .mt-hcell .mt-hname', (c) => c.map((e) => e.textContent));
      const shown = await drawnRows(page, '.mt-summary');
      assert.ok(shown.length >= 5, `summary rows drawn: ${shown.length}`);
      shown.slice(0, 8).forEach((cells, i) => {
        const model = result.summaryRows[i];
        summaryHeader.forEach((name, k) => {
          const want = model[name];
          if (typeof want === 'number') {
            if (Number.isNaN(want)) assert.equal(cells[k], '', `${name} row ${i}`);
            else assert.ok(near(Number(cells[k]), want), `${name} row ${i}: shown ${cells[k]}, model ${want}`);
          } else assert.equal(cells[k], want, `${name} row ${i}`);
        });
      });
      console.log(`summary: ${result.summaryRows.length} rows, first ${JSON.stringify(shown[0])}`);
      await shot('summary');
      // Stable tabs: the Summary's tab is the one pressed; its own table offers no view (no Chart there);
      // Summary → Chart is one click, and back.
      const tab = (name) => page.locator(`.measnb-table > .mt-bar .mt-view-${name}`).first();
      assert.equal(await tab('summary').getAttribute('aria-selected'), 'true');
      assert.equal(await tab('table').getAttribute('aria-selected'), 'false');
      assert.equal(await page.$eval('.mt-summary .mt-tabs', (t) => t.hidden), true, 'no view tabs in the Summary');
      assert.equal(await page.locator('.mt-summary .mt-view-chart').count(), 0);
      await tab('chart').click();
      await page.locator('.measnb-table > .mt-chart:not([hidden]) canvas').first().waitFor();
      assert.equal(await tab('chart').getAttribute('aria-selected'), 'true');
      await tab('summary').click();
      await page.waitForSelector('.mt-summary:not([hidden])');

      // Exceedances: threshold defaulted from the metric, the line on the chart, per datasource rows.
      await page.click('.mt-view-exceedances');
      await page.waitForSelector('.mt-exceedances canvas');
      const threshold = await page.inputValue('.mt-exceedances .mt-threshold');
      assert.ok(['35.4', '35', '100'].includes(threshold), `default threshold ${threshold}`);
      await page.fill('.mt-exceedances .mt-threshold', '12');
      await page.dispatchEvent('.mt-exceedances .mt-threshold', 'change');
      await settle(page, () =>
        /threshold 12 /.test(document.querySelector('.mt-exceedances .mt-threshold-legend')?.textContent ?? ''),
      );
      assert.match(await page.textContent('.mt-exceedances .mt-threshold-legend'), /threshold 12 /);
      await page.waitForSelector('.mt-exceedances .mt-exceed-table .mt-body .mt-row:not([hidden])');
      await shot('exceedances');

      // Profiles: two charts.
      await page.click('.mt-view-profiles');
      await page.waitForSelector('.mt-profiles .mt-weekday canvas');
      assert.equal(await page.$$eval('.mt-profiles canvas', (c) => c.length), 4);
      await shot('profiles');

      // Collocation: a sensor against the first reference site; the numbers are the model's.
      await page.click('.mt-view-collocation');
      await page.waitForSelector('.mt-collocation .mt-reference option', { state: 'attached' });
      const { sensor, reference } = result.pair;
      assert.ok(result.references.includes(reference), "the pair's reference is a REFERENCE_SITE");
      await page.selectOption('.mt-collocation .mt-colloc-metric', { label: 'pm2_5ConcMassNowcast.value [µg/m³]' });
      await page.selectOption('.mt-collocation .mt-reference', reference);
      await page.selectOption('.mt-collocation .mt-sensor', sensor);
      await page.waitForSelector('.mt-collocation .mt-colloc-table');
      const stats = await page.$$eval('.mt-collocation .mt-colloc-table tbody tr', (rows) =>
        Object.fromEntries(rows.map((r) => [r.dataset.stat, [...r.cells].map((c) => c.textContent)])),
      );
      const fit = result.collocation(sensor, reference);
      assert.equal(Number(stats['n (pairs)'][1]), fit.n);
      assert.ok(near(Number.parseFloat(stats.Slope[1]), Math.round(fit.slope * 1000) / 1000));
      assert.ok(near(Number.parseFloat(stats.Intercept[1]), Math.round(fit.intercept * 1000) / 1000));
      assert.ok(near(Number.parseFloat(stats['R²'][1]), Math.round(fit.r2 * 1000) / 1000));
      assert.ok(near(Number.parseFloat(stats['RMSE (sensor − reference)'][1]), Math.round(fit.rmse * 1000) / 1000));
      assert.ok(
        near(Number.parseFloat(stats['Mean bias (sensor − reference)'][1]), Math.round(fit.meanBias * 1000) / 1000),
      );
      for (const t of fit.targets) {
        const row = Object.entries(stats).find(([k]) => k.startsWith(t.name));
        assert.equal(row[1][4], t.met ? '✓ met' : '✗ not met', t.name); // Met (1-hour)
      }
      console.log(`collocation ${sensor} vs ${reference}: ${JSON.stringify(stats)}`);
      // The scatter is square (one range on both axes: the 1:1 line is its diagonal).
      const plotArea = await page.$eval('.mt-collocation .mt-scatter .u-over', (o) => {
        const r = o.getBoundingClientRect();
        return [Math.round(r.width), Math.round(r.height)];
      });
      assert.ok(Math.abs(plotArea[0] - plotArea[1]) <= 2 && plotArea[0] >= 200, `a square scatter: ${plotArea}`);
      await shot('collocation');

      // Map: every datasource with a location, the moved one with its track; hover shows id and value.
      await page.click('.mt-view-map');
      await page.waitForSelector('.mt-map canvas');
      const mapNote = await page.textContent('.mt-map-note');
      assert.match(mapNote, /^\d+ datasources, 1 moved/);
      // City scale (the emulator's datasources are around San Francisco): the 1:50m coast, towns named clear of
      // the datasources' markers and names (the canvas's text alternative lists them).
      const cityLabel = await page.getAttribute('.mt-map canvas', 'aria-label');
      assert.match(cityLabel, /; towns: .*(San Francisco|Oakland|Daly City)/, cityLabel);
      await shot('map');
      // Zoomed out to the region (the Bay Area and Nevada): California's state line and more towns.
      const mapBox = await page.locator('.mt-map canvas').boundingBox();
      await page.mouse.move(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height / 2);
      for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 100);
      await page.waitForTimeout(300);
      assert.match(await page.getAttribute('.mt-map canvas', 'aria-label'), /; towns: .*Sacramento/);
      await shot('map-region');
      // Zoomed out to the whole world: no line across the map (rings over the antimeridian), no label past 90°.
      const canvas = page.locator('.mt-map canvas');
      const box = await canvas.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 200);
      await page.waitForTimeout(200);
      await shot('map-world');

      assert.deepEqual(errors, [], 'no page errors, no CSP violations');
      await page.close();
    }
    console.log(`air-quality screenshots in ${path.relative(ROOT, SHOTS)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'aq') await checkAirQualityViews();
  else if (process.argv[2] === 'wheel') await checkShortTableWheel();
  else await checkRendererPage(Number(process.argv[2] ?? 1_000_000));
}
