import assert from 'node:assert/strict';
import { checkMetricSelect } from '../../../../src/core/query/metric-select';

describe('query language: metricSelect checker (cells and Create Report)', () => {
  it("a bare 'only' is a problem: it selects nothing", () => {
    for (const text of ['only', 'ONLY', '  only  ']) {
      const problems = checkMetricSelect(text, 'hour', 'emulator');
      assert.equal(problems.length, 1, text);
      assert.match(problems[0].message, /'only' must be followed by a metric/);
    }
    for (const text of ['default', 'all', 'none', 'only :pm25', 'only pm2_5ConcMassNowcast', 'all - :gas']) {
      assert.deepEqual(checkMetricSelect(text, 'hour', 'emulator'), [], text);
    }
  });
});
