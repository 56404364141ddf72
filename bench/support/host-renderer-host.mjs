// Child of the host -> renderer benchmark: one real extension host (code-server + headless chromium, the
// host lane's toolchain) with the project's build (dist/ as `npm run build` made it) as the development
// extension and host-renderer-probe.cjs as the tests entry. The probe runs a sql cell that makes a
// 1,000,000 x 20 table through the real controller; this side arms a paint observer in the output
// webview's frame before each run and reads when the new table's first rows were painted.
// Prints one @@bench_host_renderer line per run.
// Usage: node bench/support/host-renderer-host.mjs <scratchDir> <runs> [rows, default 1000000]
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, remoteUri, workbenchUrl } from '../../test/host/browser.mjs';
import { ensureToolchain, ROOT, scratchProfile, startCodeServer } from '../../test/host/toolchain.mjs';
import { bigSqlCellLines } from '../../test/support/big-sql-cell.mjs';

const [scratch, runsArg, rowsArg] = process.argv.slice(2);
const runs = Number(runsArg) || 3;
const rows = Number(rowsArg) || 1_000_000;
const probe = path.resolve('bench/support/host-renderer-probe.cjs');

/** `rows` rows (1,000,000) x 20 columns of what a measurement table holds: a time, an id, 18 numbers. */
const BIG_CELL = bigSqlCellLines(rows);

/**
 * In the output frame: sets window.__mbPaint once a table that was not there when armed shows rows (a
 * progressive output's first rows), then adds allAt once its row count reads `rowCount` rows (every row in).
 */
function arm(rowCount) {
  const seen = new WeakSet(document.querySelectorAll('.measnb-table'));
  window.__mbPaint = undefined;
  let table;
  const check = () => {
    if (table) {
      if (window.__mbPaint && (table.querySelector('.mt-count')?.textContent ?? '') === `${rowCount} rows`) {
        window.__mbPaint.allAt = Date.now();
        observer.disconnect();
      }
      return;
    }
    for (const t of document.querySelectorAll('.measnb-table')) {
      if (seen.has(t) || !t.querySelector('.mt-body .mt-row')) continue;
      if (!t.querySelector('.mt-hname')?.textContent) continue;
      table = t;
      const domAt = Date.now();
      const count = t.querySelector('.mt-count')?.textContent ?? '';
      // The frame with the rows is painted before the next task after the next animation frame.
      requestAnimationFrame(() =>
        setTimeout(() => {
          window.__mbPaint = { domAt, paintAt: Date.now(), firstCount: count };
          check();
        }, 0),
      );
      return;
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
}

async function tableFrame(page) {
  for (let i = 0; i < 600; i++) {
    for (const f of page.frames()) {
      if (
        await f
          .locator('.measnb-table')
          .count()
          .catch(() => 0)
      )
        return f;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no output frame with a table (the warm-up cell did not render)');
}

async function main() {
  ensureToolchain();
  const profile = scratchProfile(scratch);
  const benchDir = path.join(scratch, 'signals');
  fs.mkdirSync(benchDir, { recursive: true });
  fs.writeFileSync(
    path.join(profile.workspace, 'bench.measnb'),
    JSON.stringify({
      measnb: 1,
      metadata: { connection: 'Local emulator' },
      cells: [
        { kind: 'code', language: 'measq', source: BIG_CELL, outputs: [] },
        { kind: 'code', language: 'measq', source: ['sql', 'SELECT 1 AS x'], outputs: [] },
      ],
    }),
  );
  const server = await startCodeServer({
    ...profile,
    extraArgs: [
      ...['--vscode-option', 'enable-smoke-test-driver'],
      // MEASNB_BENCH_WS_PLAIN=1: the workbench's websocket without permessage-deflate (VS Code server's option).
      ...(process.env.MEASNB_BENCH_WS_PLAIN ? ['--vscode-option', 'disable-websocket-compression'] : []),
    ],
    env: {
      MEASNB_BENCH_DIR: benchDir,
      MEASNB_BENCH_NOTEBOOK: path.join(profile.workspace, 'bench.measnb'),
      MEASNB_BENCH_RUNS: String(runs),
    },
  });
  let browser;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const lines = [];
    let wake = () => {};
    let exitCode;
    await page.exposeFunction('codeAutomationLog', (_type, args) => {
      const msg = args.map(String).join(' ');
      if (process.env.MEASNB_BENCH_VERBOSE) process.stderr.write(`${msg}\n`);
      if (msg.includes('@@bench_')) lines.push(msg);
      wake();
    });
    await page.exposeFunction('codeAutomationExit', (code) => {
      exitCode = code;
      wake();
    });
    const next = async (re, timeoutMs = 600_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = lines.find((l) => re.test(l));
        if (hit) {
          lines.splice(lines.indexOf(hit), 1);
          return re.exec(hit);
        }
        if (exitCode !== undefined) throw new Error(`the host's tests ended (${exitCode}) before ${re}`);
        if (Date.now() > deadline) throw new Error(`gave up waiting for ${re}`);
        await new Promise((r) => {
          wake = r;
          setTimeout(r, 1000);
        });
      }
    };
    const payload = [
      ['extensionDevelopmentPath', remoteUri(server.url, ROOT)],
      ['extensionTestsPath', remoteUri(server.url, probe)],
      ['skipWelcome', 'true'],
    ];
    await page.goto(workbenchUrl(server.url, profile.workspace, payload));
    for (let i = 0; i < runs; i++) {
      await next(new RegExp(`@@bench_ready ${i}\\b`));
      const frame = await tableFrame(page);
      await frame.evaluate(`(${arm.toString()})(${JSON.stringify(rows.toLocaleString('en-US'))})`);
      fs.writeFileSync(path.join(benchDir, `go-${i}`), '');
      const cell = JSON.parse((await next(new RegExp(`@@bench_cell (\\{"i":${i},.*\\})`)))[1]);
      let paint;
      for (let k = 0; k < 12_000 && !paint?.allAt; k++) {
        paint = await frame.evaluate('window.__mbPaint').catch(() => undefined);
        if (!paint?.allAt) await new Promise((r) => setTimeout(r, 50));
      }
      if (!paint) throw new Error(`run ${i}: the new table never showed rows`);
      if (!paint.allAt) throw new Error(`run ${i}: the table never reached ${rows} rows (${paint.firstCount})`);
      if (i === runs - 1) await page.screenshot({ path: path.join(scratch, '..', 'host-renderer.png') });
      fs.writeFileSync(path.join(benchDir, `painted-${i}`), '');
      process.stdout.write(`@@bench_host_renderer ${JSON.stringify({ ...cell, ...paint })}\n`);
    }
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
