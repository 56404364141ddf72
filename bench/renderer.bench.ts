// 5. The notebook renderer (dist/renderer.js) with a 1,000,000 × 20 table in Debian chromium:
//    time to first paint < 1 s, and DOM rows < 500 at every step of a scroll to the last row.
//    Baseline, side by side in the same browser: a plain <table> of the first 1,000 rows × 20 columns
//    (what a renderer that caps its output would draw; it never shows the other 999,000 rows).
//    First paint is measured in the page, from the moment the output item is handed to the renderer
//    (bytes already in memory, as VS Code delivers them) to the first frame after it returned: decoding
//    the wire format, building the widget and painting are all inside it.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { cellText } from '../src/core/table/table';
import { encodeTable } from '../src/core/table/wire';
import { syntheticTable } from '../test/support/synthetic-table';
import { type BenchResult, median, type Sample, sideBySide } from './lib';

const ROWS = 1_000_000;
const BASELINE_ROWS = 1000;
const SCROLL_STEPS = 25;
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const AFTER_PAINT = 'await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));';

const SUBJECT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
:root { --vscode-foreground: #ccc; --vscode-editor-background: #1f1f1f; --vscode-font-family: system-ui; --vscode-font-size: 13px; }
body { background: var(--vscode-editor-background); color: var(--vscode-foreground); margin: 12px; }</style></head>
<body><div id="out"></div><script type="module">
import { activate } from './renderer.js';
const bytes = new Uint8Array(await (await fetch('table.bin')).arrayBuffer());
const api = activate({ workspace: { isTrusted: true } });
${AFTER_PAINT}
const t0 = performance.now();
// In a DST zone (the views' local days, hours and weekdays: core/time/zone), as a notebook set to Denver.
await api.renderOutputItem({ id: 'out-1', mime: 'application/vnd.measnb.table', metadata: { measnb: { timeZone: { name: 'America/Denver', dayBoundary: 'clock' } } }, data: () => bytes, text: () => '' }, document.getElementById('out'));
${AFTER_PAINT}
window.benchResult = { firstPaintMs: performance.now() - t0, rows: document.querySelector('.mt-count')?.textContent };
</script></body></html>`;

// The same columns as text, 1,000 rows, one <table> built with the DOM API (textContent, no innerHTML).
const BASELINE_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="out"></div><script type="module">
const cells = await (await fetch('baseline.json')).json();
${AFTER_PAINT}
const t0 = performance.now();
const table = document.createElement('table');
for (const row of cells) {
  const tr = table.insertRow();
  for (const text of row) tr.insertCell().textContent = text;
}
document.getElementById('out').appendChild(table);
${AFTER_PAINT}
window.benchResult = { firstPaintMs: performance.now() - t0, rows: table.rows.length };
</script></body></html>`;

function baselineCells(): string[][] {
  const t = syntheticTable(BASELINE_ROWS);
  const cols = t.columns.slice(0, 20);
  return Array.from({ length: BASELINE_ROWS }, (_, r) => cols.map((c) => cellText(c, r)));
}

async function firstPaint(page: Page, url: string): Promise<{ firstPaintMs: number; rows: unknown }> {
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { benchResult?: unknown }).benchResult, null, {
    timeout: 120_000,
  });
  return page.evaluate(
    () => (window as unknown as { benchResult: { firstPaintMs: number; rows: unknown } }).benchResult,
  );
}

/** Scrolls from the top to the last row in steps; the most DOM rows seen and the last row drawn. */
async function scrollToEnd(page: Page): Promise<{ maxDomRows: number; lastRow: string | undefined }> {
  let maxDomRows = 0;
  for (let step = 1; step <= SCROLL_STEPS; step++) {
    await page.$eval(
      '.mt-viewport',
      (v, f) => {
        v.scrollTop = f >= 1 ? v.scrollHeight : (v.scrollHeight - v.clientHeight) * f;
      },
      step / SCROLL_STEPS,
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    maxDomRows = Math.max(maxDomRows, await page.$$eval('.mt-row', (rows) => rows.length));
  }
  await page.waitForTimeout(100);
  const gutters = await page.$$eval('.mt-body .mt-row:not([hidden]) .mt-gutter', (cells) =>
    cells.map((c) => c.textContent ?? ''),
  );
  return { maxDomRows, lastRow: gutters.at(-1) };
}

/** Serves the renderer, the table, the subject page and (with its cells) the baseline page on 127.0.0.1. */
async function serveBenchPages(
  renderer: string,
  tableBytes: Buffer,
  baselineJson?: string,
): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (p === '/renderer.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(fs.readFileSync(renderer));
    }
    if (p === '/table.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(tableBytes);
    }
    if (p === '/baseline.json' && baselineJson) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(baselineJson);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(p === '/baseline' ? BASELINE_PAGE : SUBJECT_PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function rendererBench(runs: number): Promise<BenchResult> {
  const renderer = path.resolve('dist/renderer.js');
  if (!fs.existsSync(renderer)) throw new Error('dist/renderer.js is missing (npm run build)');
  const tableBytes = Buffer.from(encodeTable(syntheticTable(ROWS)));
  const columnCount = syntheticTable(1).columns.length;
  const baselineJson = JSON.stringify(baselineCells());
  const { server, base } = await serveBenchPages(renderer, tableBytes, baselineJson);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: FLAGS });
    const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const sample = (url: string) => async (): Promise<Sample> => ({ ms: (await firstPaint(page, url)).firstPaintMs });
    const s = await sideBySide(runs, sample(`${base}/baseline`), sample(`${base}/`));
    const shown = await firstPaint(page, `${base}/`);
    const scroll = await scrollToEnd(page);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    const b = median(s.baseline.map((x) => x.ms));
    const p = median(s.subject.map((x) => x.ms));
    const lastDrawn = scroll.lastRow === String(ROWS);
    return {
      name: 'renderer 1,000,000 × 20 in chromium',
      target: 'first paint < 1 s; DOM rows < 500 while scrolling',
      baseline: `plain <table> of the first ${BASELINE_ROWS} rows`,
      subject: `dist/renderer.js, ${ROWS.toLocaleString('en-US')} rows × ${columnCount} columns`,
      baselineMedianMs: b,
      subjectMedianMs: p,
      ratio: p / b,
      figures: {
        wireMb: tableBytes.length / 1e6,
        maxDomRows: scroll.maxDomRows,
        lastRowDrawn: String(scroll.lastRow),
        countShown: String(shown.rows),
      },
      pass: p < 1000 && scroll.maxDomRows < 500 && lastDrawn,
      note: lastDrawn ? undefined : `the last drawn row was ${scroll.lastRow}, not ${ROWS}`,
    };
  } finally {
    await browser?.close();
    server.close();
  }
}

const VIEW_BUTTONS = {
  chart: '.mt-view-chart',
  summary: '.mt-view-summary',
  exceedances: '.mt-view-exceedances',
  profiles: '.mt-view-profiles',
  calendar: '.mt-view-calendar',
  trend: '.mt-view-trend',
  collocation: '.mt-view-collocation',
  map: '.mt-view-map',
  // Not a view: the toolbar's Insights (the strip under the headers, from every row), measured on, then off again.
  insights: '.mt-insights-toggle',
} as const;

/** MEASNB_BENCH_VIEWS=calendar,trend measures only those views (and the Chart, the baseline). */
const ONLY_VIEWS = process.env.MEASNB_BENCH_VIEWS?.split(',');

/** Opens a view by its button and waits a frame: computing and drawing it on every row shown. */
async function openView(page: Page, selector: string): Promise<number> {
  return page.evaluate(async (sel) => {
    const t0 = performance.now();
    (document.querySelector(sel) as HTMLElement).click();
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  }, selector);
}

/**
 * Insights on: the click to the strip drawn (the next frame: the columns in view), and to every column's insights
 * with their distinct counts (computed in the frame after the strip: the strip's data-complete).
 */
async function openInsights(page: Page): Promise<{ ms: number; countsMs: number }> {
  // No named function inside: tsx would wrap it in a helper the page does not have.
  return page.evaluate(async (sel) => {
    const t0 = performance.now();
    (document.querySelector(sel) as HTMLElement).click();
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const ms = performance.now() - t0;
    while (document.querySelector('.mt-irow[data-complete="false"]'))
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return { ms, countsMs: performance.now() - t0 };
  }, VIEW_BUTTONS.insights);
}

/** In the open Chart, picks a Resample period and waits a frame: the means computed from every row, then drawn. */
async function resampleChart(page: Page, period: string): Promise<number> {
  return page.evaluate(async (value) => {
    const select = document.querySelector('.mt-chart .mt-resample') as HTMLSelectElement;
    const t0 = performance.now();
    select.value = value;
    select.dispatchEvent(new Event('change'));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  }, period);
}

/**
 * In the open Chart, picks the "and" metrics whose option text starts with each prefix ('' for none), each change
 * drawn; returns the panels' titles under the first.
 */
async function chooseExtras(page: Page, prefixes: string[]): Promise<string[]> {
  return page.evaluate(async (starts) => {
    for (const [k, start] of starts.entries()) {
      const select = document.querySelector(`.mt-chart .mt-metric-extra-${k}`) as HTMLSelectElement;
      const option = [...select.options].find((o) => (start ? o.text.startsWith(start) : o.value === '-1'));
      select.value = option?.value ?? '-1';
      select.dispatchEvent(new Event('change'));
    }
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return [...document.querySelectorAll('.mt-chart .mt-panel-title')].map((t) => t.textContent ?? '');
  }, prefixes);
}

/** MEASNB_BENCH_CPU_PROFILE=<folder>: a chromium CPU profile (.cpuprofile) of each measured stacked Chart. */
const PROFILE_DIR = process.env.MEASNB_BENCH_CPU_PROFILE;
let profileCount = 0;

/** Runs `measure`, under chromium's CPU profiler when PROFILE_DIR is set (the profile written there). */
async function profiled(page: Page, measure: () => Promise<number>): Promise<number> {
  if (!PROFILE_DIR) return measure();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const ms = await measure();
  const { profile } = await cdp.send('Profiler.stop');
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  fs.writeFileSync(path.join(PROFILE_DIR, `chart-stacked-${++profileCount}.cpuprofile`), JSON.stringify(profile));
  await cdp.detach();
  return ms;
}

/**
 * The Chart with three stacked panels (the first metric, NO2 and temperature under it), opened from the rows:
 * its three charts computed from every row and drawn. The "and" choices are undone after.
 */
async function stackedChart(page: Page): Promise<{ ms: number; panels: string }> {
  await openView(page, VIEW_BUTTONS.chart);
  const titles = await chooseExtras(page, ['no2ConcIndividual.value', 'temperatureAmbientIndividual.value']);
  await openView(page, '.mt-view-table');
  const ms = await profiled(page, () => openView(page, VIEW_BUTTONS.chart));
  await chooseExtras(page, ['', '']);
  await openView(page, '.mt-view-table');
  return { ms, panels: titles.join(' | ') };
}

// 6. The air-quality views on 1,000,000 × 20 tables in chromium (500 datasources, and 8 with long series):
//    the time from the click on a view's button to the next frame (its numbers computed from all rows, then
//    drawn), for each view; what they computed is reported too (Exceedances rows, the map's metric).
//    Baseline: the Chart view (one line per datasource), which the table had before these views.

/** Median ms per view (first round warms up), and what the views computed (the Exceedances rows, the map's metric). */
async function viewTimes(page: Page, runs: number) {
  const times: Record<string, number[]> = {};
  let stackedPanels = '';
  for (let i = 0; i < runs + 1; i++) {
    for (const [name, selector] of Object.entries(VIEW_BUTTONS)) {
      if (ONLY_VIEWS && name !== 'chart' && !ONLY_VIEWS.includes(name)) continue;
      const opened = name === 'insights' ? await openInsights(page) : { ms: await openView(page, selector) };
      await openView(page, name === 'insights' ? selector : '.mt-view-table'); // back to the rows (insights off)
      // The first round warms up (JIT).
      if (i > 0) times[name] = [...(times[name] ?? []), opened.ms];
      if (i > 0 && 'countsMs' in opened) times.insightsCounts = [...(times.insightsCounts ?? []), opened.countsMs];
    }
    // The Chart resampled to daily means in the page's zone (then back to raw), from the rows it holds.
    await openView(page, VIEW_BUTTONS.chart);
    const daily = await resampleChart(page, 'day');
    await resampleChart(page, 'raw');
    await openView(page, '.mt-view-table');
    if (i > 0) times.chartDaily = [...(times.chartDaily ?? []), daily];
    const stacked = await stackedChart(page);
    if (i > 0) times.chartStacked = [...(times.chartStacked ?? []), stacked.ms];
    stackedPanels = stacked.panels;
  }
  const computed = await page.evaluate(() => ({
    exceedanceRows: document.querySelector('.mt-exceedances .mt-exceed-table .mt-count')?.textContent ?? 'none',
    threshold: (document.querySelector('.mt-exceedances .mt-threshold') as HTMLInputElement | null)?.value ?? '',
    mapMetric: document.querySelector('.mt-map .mt-map-metric option:checked')?.textContent ?? '',
    profiles: document.querySelector('.mt-profiles .mt-status')?.textContent ?? '',
    calendar: document.querySelector('.mt-calendar .mt-cal-note')?.textContent ?? '',
    trend: document.querySelector('.mt-trend .mt-trend-result')?.textContent ?? '',
  }));
  Object.assign(computed, { stackedPanels });
  return { medians: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])), computed };
}

/** The views on one synthetic table of ROWS rows and `datasources` datasources. */
async function viewsOn(browser: Browser, renderer: string, datasources: number, runs: number) {
  const { server, base } = await serveBenchPages(renderer, Buffer.from(encodeTable(syntheticTable(ROWS, datasources))));
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await firstPaint(page, `${base}/`);
    const result = await viewTimes(page, runs);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    await page.close();
    return result;
  } finally {
    server.close();
  }
}

// Two tables of 1,000,000 rows × 20: 500 datasources of 2,000 minutes, and 8 datasources of 125,000 minutes
// (87 days each: long series for Profiles, Collocation's 24-hour pairing and the map's latest values).
// Both have a PM2.5 NowCast, so Exceedances computes its table at the default threshold (35.4 µg/m³) and
// the map colours by AQI category.
const VIEW_CASES = [
  ['', 500],
  ['few', 8],
] as const;

export async function rendererViewsBench(runs: number): Promise<BenchResult> {
  const renderer = path.resolve('dist/renderer.js');
  if (!fs.existsSync(renderer)) throw new Error('dist/renderer.js is missing (npm run build)');
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: FLAGS });
    const figures: Record<string, number | string> = {};
    let worst = 0;
    let chart = 0;
    for (const [prefix, datasources] of VIEW_CASES) {
      const { medians, computed } = await viewsOn(browser, renderer, datasources, runs);
      const key = (k: string) => (prefix ? `${prefix}${k[0].toUpperCase()}${k.slice(1)}` : k);
      for (const [k, v] of Object.entries(medians)) figures[key(`${k}Ms`)] = Math.round(v);
      for (const [k, v] of Object.entries(computed)) figures[key(k)] = v;
      if (!prefix) chart = medians.chart;
      worst = Math.max(
        worst,
        ...Object.entries(medians)
          .filter(([k]) => k !== 'chart')
          .map(([, v]) => v),
      );
    }
    return {
      name: 'air-quality views on 1,000,000 × 20 in chromium (500 datasources; 8 with long series)',
      target: 'each view computed and drawn < 1 s',
      baseline: 'the Chart view (before these views), 500 datasources',
      subject:
        'Summary, Exceedances, Profiles, Calendar, Trend, Collocation, Map, Chart resampled to daily means, Chart of three stacked panels (the slowest of both tables)',
      baselineMedianMs: chart,
      subjectMedianMs: worst,
      ratio: worst / chart,
      figures,
      pass: worst < 1000,
    };
  } finally {
    await browser?.close();
  }
}
