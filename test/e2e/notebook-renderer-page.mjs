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
body { background: var(--vscode-editor-background); color: var(--vscode-foreground); margin: 12px; }</style></head>
<body><div id="out"></div><script type="module">
import { activate } from './renderer.js';
const params = new URLSearchParams(location.search);
const bytes = new Uint8Array(await (await fetch('table.bin?rows=' + params.get('rows'))).arrayBuffer());
const api = activate({ workspace: { isTrusted: true } });
await api.renderOutputItem(
  { id: 'out-1', mime: 'application/vnd.measnb.table', metadata: { measnb: { title: 'synthetic', notes: ['synthetic ' + params.get('rows') + ' rows'] } }, data: () => bytes, text: () => '' },
  document.getElementById('out'),
);
window.measnbReady = true;
</script></body></html>`;
}

/** Runs the page checks with `rows` rows; throws on the first failed check. */
export async function checkRendererPage(ROWS = 1_000_000) {
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.mkdirSync(PAGE_DIR, { recursive: true });
  // The synthetic table and the core's encoder, bundled for node (the page gets only the bytes).
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/e2e/notebook-renderer-page/encode-synthetic.ts')],
    outfile: path.join(PAGE_DIR, 'encode-synthetic.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    logLevel: 'warning',
  });
  const { encodeSynthetic } = createRequire(import.meta.url)(path.join(PAGE_DIR, 'encode-synthetic.cjs'));
  const renderer = path.join(ROOT, 'dist', 'renderer.js');
  if (!fs.existsSync(renderer)) throw new Error('dist/renderer.js is missing: run npm run build first');
  const encoded = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/renderer.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(fs.readFileSync(renderer));
    }
    if (url.pathname === '/table.bin') {
      const rows = Number(url.searchParams.get('rows'));
      if (!encoded.has(rows)) encoded.set(rows, Buffer.from(encodeSynthetic(rows)));
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(encoded.get(rows));
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(pageHtml(url.searchParams.get('theme') === 'light' ? 'light' : 'dark'));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
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

    // Per-column filter, then the chart of the filtered rows.
    await page.fill('.mt-fcell input[aria-label="Filter datasourceId"]', '=D000001');
    await settle(page, () => / of /.test(document.querySelector('.mt-count')?.textContent ?? ''));
    console.log(`column filter: ${await page.textContent('.mt-count')}`);
    await page.click('.mt-view-toggle');
    await page.waitForSelector('.mt-chart canvas');
    await page.screenshot({ path: path.join(SHOTS, 'renderer-chart.png') });
    await page.click('.mt-view-toggle');

    await page.goto(`${base}/?rows=2000&theme=light`);
    await page.waitForFunction(() => window.measnbReady === true);
    await page.click('.mt-tz');
    await page.screenshot({ path: path.join(SHOTS, 'renderer-light-local.png') });
    assert.deepEqual(alerts, []);
    assert.deepEqual(errors, []);
    console.log(`screenshots in ${path.relative(ROOT, SHOTS)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await checkRendererPage(Number(process.argv[2] ?? 1_000_000));
}
