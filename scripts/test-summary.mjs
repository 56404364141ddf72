// Sums the per-lane counts written by test/support/counting-reporter.cjs and prints
// the one line CI reads: "N passed, N failed". A lane expected but missing counts as a failure.
import fs from 'node:fs';
import path from 'node:path';
import { printFailedTests } from './failed-tests.mjs';

const dir = path.resolve(process.env.MEASNB_RESULTS_DIR || '.artifacts/results');
const expected = (process.argv[2] || 'lint,typecheck,build,unit,cli,unit-tz,cli-tz,python,host,host-untrusted,e2e,demo')
  .split(',')
  .filter(Boolean);
let passed = 0;
let failed = 0;
const failing = [];
for (const lane of expected) {
  const file = path.join(dir, `${lane}.json`);
  if (!fs.existsSync(file)) {
    console.log(`${lane}: no results (the lane did not run to the end)`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  console.log(`${lane}: ${r.passes} passed, ${r.failures} failed`);
  passed += r.passes;
  failed += r.failures;
  failing.push({ lane, failed: r.failed, flaky: r.flaky });
}
printFailedTests(failing);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
