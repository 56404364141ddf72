// `npm test`: every lane runs, whatever an earlier one did; each lane's result is printed as it ends
// and once more in a table at the end; the exit code is non-zero if any lane failed.
// Lanes: lint, typecheck, build (checks, one count each), unit (with coverage), cli (the built measnb
// spawned as a user runs it), both again in another time zone with the clock a year ahead (Debian's
// faketime), python (the archive read by pyarrow, Dask and Ray), host (real extension host), host-untrusted (the same in Restricted Mode), e2e (real browser), demo (`npm run demo` on a fresh clone, driven in the browser).
// `npm test -- --only unit,unit-tz` runs a subset. On a fresh clone it runs `npm ci` first.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAptPackages } from './apt.mjs';
import { printFailedTests } from './failed-tests.mjs';
import { dependenciesUpToDate, npmCiEnv, recordInstalledLock } from './npm-deps.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = process.env.MEASNB_RESULTS_DIR || path.join(ROOT, '.artifacts', 'results');

/** The unit lane once more: a zone far from UTC, a clock 400 days ahead; tests must not notice. */
export const SHIFTED_TZ = 'Asia/Kolkata';
export const SHIFTED_CLOCK = '+400d';
const CLI_MOCHARC = 'test/cli/mocharc.json';

const LANES = [
  { name: 'lint', check: true, cmd: ['npm', 'run', '-s', 'lint'] },
  { name: 'typecheck', check: true, cmd: ['npm', 'run', '-s', 'typecheck'] },
  { name: 'build', check: true, cmd: ['npm', 'run', '-s', 'build'] },
  { name: 'unit', cmd: ['npx', 'c8', 'mocha'] },
  // The built `measnb` spawned as a user runs it (test/cli): its own lane, so that the unit lane stays quick.
  { name: 'cli', cmd: ['npx', 'mocha', '--config', CLI_MOCHARC], env: { MEASNB_LANE: 'cli' } },
  {
    name: 'unit-tz',
    needs: ensureFaketime,
    cmd: ['faketime', '-f', SHIFTED_CLOCK, 'npx', 'mocha'],
    env: { TZ: SHIFTED_TZ, MEASNB_LANE: 'unit-tz' },
  },
  {
    name: 'cli-tz',
    needs: ensureFaketime,
    cmd: ['faketime', '-f', SHIFTED_CLOCK, 'npx', 'mocha', '--config', CLI_MOCHARC],
    env: { TZ: SHIFTED_TZ, MEASNB_LANE: 'cli-tz' },
  },
  // The archive read by pyarrow, Dask and Ray Data (a venv from the local package mirror, in .cache).
  { name: 'python', cmd: ['node', 'scripts/python-lane.mjs'] },
  { name: 'host', cmd: ['node', 'test/host/run-host.mjs'] },
  // The same extension host in Restricted Mode: Workspace Trust on, the folder untrusted, then trusted.
  { name: 'host-untrusted', cmd: ['node', 'test/host/run-host.mjs'], env: { MEASNB_HOST_TRUST: 'untrusted' } },
  { name: 'e2e', cmd: ['node', 'test/host/run-e2e.mjs'] },
  // README's first command on a fresh clone of HEAD (test/demo/demo.test.mjs); after host/e2e warmed .cache/.
  {
    name: 'demo',
    cmd: [
      'npx',
      'mocha',
      '--no-config',
      '--reporter',
      'test/support/counting-reporter.cjs',
      '--exit',
      'test/demo/demo.test.mjs',
    ],
    env: { MEASNB_LANE: 'demo' },
  },
];

function ensureFaketime() {
  if (spawnSync('faketime', ['-f', '+0d', 'true']).status === 0) return;
  ensureAptPackages(['faketime'], {
    log: (m) => console.log(`[test] ${m}`),
    why: 'for the unit lane in another time zone, a year ahead',
  });
}

function runLane(lane) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const done = (ok, why) => resolve({ ...lane, ok, why, seconds: (Date.now() - t0) / 1000 });
    try {
      lane.needs?.();
    } catch (e) {
      return done(false, e.message);
    }
    console.log(`\n[test] ── ${lane.name}: ${lane.cmd.join(' ')}${lane.env?.TZ ? ` (TZ=${lane.env.TZ})` : ''}`);
    const child = spawn(lane.cmd[0], lane.cmd.slice(1), {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...lane.env },
    });
    child.on('error', (e) => done(false, e.message));
    child.on('close', (code, signal) => done(code === 0, code === 0 ? '' : `exit ${code ?? signal}`));
  });
}

/** Counts of a test lane (written by the counting reporter), or one count for a check. */
function counts(r) {
  if (r.check) return { passes: r.ok ? 1 : 0, failures: r.ok ? 0 : 1 };
  const file = path.join(RESULTS, `${r.name}.json`);
  if (!fs.existsSync(file)) return { passes: 0, failures: 1, missing: true };
  const { passes, failures, failed = [], flaky = [] } = JSON.parse(fs.readFileSync(file, 'utf8'));
  // A runner that exited non-zero with no failing test (a crash after the tests) still failed.
  return { passes, failures: failures || (r.ok ? 0 : 1), failed, flaky };
}

/** `npm ci` first when node_modules is missing or not what package-lock.json asks for (a fresh clone). */
function ensureDependencies() {
  if (dependenciesUpToDate()) return;
  console.log('[test] npm ci (node_modules missing or not what package-lock.json asks for)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit', env: npmCiEnv() });
  if (r.status !== 0) throw new Error(`npm ci failed (exit ${r.status ?? r.signal})`);
  recordInstalledLock();
}

async function main() {
  ensureDependencies();
  const onlyArg = process.argv.find((a) => a.startsWith('--only'));
  const only = onlyArg ? (onlyArg.split('=')[1] ?? process.argv[process.argv.indexOf(onlyArg) + 1]).split(',') : null;
  const lanes = only ? LANES.filter((l) => only.includes(l.name)) : LANES;
  fs.mkdirSync(RESULTS, { recursive: true });
  for (const l of lanes) fs.rmSync(path.join(RESULTS, `${l.name}.json`), { force: true });
  const results = [];
  for (const lane of lanes) results.push(await runLane(lane));
  let passed = 0;
  let failed = 0;
  const lanesCounted = [];
  console.log('\n[test] lanes:');
  for (const r of results) {
    const c = counts(r);
    lanesCounted.push({ lane: r.name, ...c });
    passed += c.passes;
    failed += c.failures;
    fs.writeFileSync(path.join(RESULTS, `${r.name}.json`), JSON.stringify({ lane: r.name, ...c }));
    const what = r.check ? (r.ok ? 'ok' : 'FAILED') : `${c.passes} passed, ${c.failures} failed`;
    console.log(
      `  ${r.ok ? '✔' : '✘'} ${r.name.padEnd(10)} ${what}${c.missing ? ' (no results: the lane did not run to the end)' : ''}${r.why ? ` (${r.why})` : ''}  ${r.seconds.toFixed(0)} s`,
    );
  }
  printFailedTests(lanesCounted);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
}

main();
