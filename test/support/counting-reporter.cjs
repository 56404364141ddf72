// Mocha's spec output, plus the lane's counts written to .artifacts/results/<lane>.json
// so that .ci/run can print one total line over every lane (unit, host, e2e).
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const lane = process.env.MEASNB_LANE || 'unit';
    const dir = process.env.MEASNB_RESULTS_DIR || path.resolve(__dirname, '../../.artifacts/results');
    // Each failing test's title and the head of its error, so that the run's last lines (all CI
    // keeps of a long log) say which test failed and why, not only how many.
    const failed = [];
    runner.on('fail', (test, err) => {
      failed.push({ title: test.fullTitle(), error: errorHead(err) });
    });
    // A lane that retries (the host lane) counts a test that passed on its retry as passed, and names it
    // with the error of its first try: a flaky test stays in sight.
    const retried = new Map();
    runner.on('retry', (test, err) => {
      if (!retried.has(test.fullTitle())) retried.set(test.fullTitle(), errorHead(err));
      console.log(`    ↻ retrying "${test.title}" after: ${errorHead(err).split('\n')[0]}`);
    });
    const flaky = [];
    runner.on('pass', (test) => {
      const error = retried.get(test.fullTitle());
      if (error !== undefined) flaky.push({ title: test.fullTitle(), error });
    });
    runner.once('end', () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, `${lane}.json`),
        JSON.stringify({ lane, passes, failures, pending, failed, flaky }),
      );
      console.log(`${lane}: ${passes} passed, ${failures} failed`);
    });
  }
}

/** The first lines of an error's message and the first stack frame in a test file: enough to act on. */
function errorHead(err) {
  const message = String(err?.message ?? err)
    .split('\n')
    .slice(0, 6)
    .join('\n');
  const frame = String(err?.stack ?? '')
    .split('\n')
    .find((l) => /^\s+at /.test(l) && /test/.test(l) && !/node_modules/.test(l));
  return frame ? `${message}\n${frame.trim()}` : message;
}

module.exports = CountingReporter;
