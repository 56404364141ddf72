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
    runner.once('end', () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${lane}.json`), JSON.stringify({ lane, passes, failures, pending }));
      console.log(`${lane}: ${passes} passed, ${failures} failed`);
    });
  }
}
module.exports = CountingReporter;
