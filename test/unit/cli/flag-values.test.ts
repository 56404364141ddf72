import assert from 'node:assert/strict';
import { durationFlag, integerFlag } from '../../../src/cli/flag-values';

describe('command-line flag values', () => {
  it('a duration: the one grammar, a bare 0 is zero, any other bare number or a negative one is a usage error', () => {
    assert.equal(durationFlag('d', '0'), 0);
    assert.equal(durationFlag('d', '0.0'), 0);
    assert.equal(durationFlag('d', '0s'), 0);
    assert.equal(durationFlag('d', '1500ms'), 1500);
    assert.equal(durationFlag('d', '1m30s'), 90_000);
    for (const bad of ['5', '', '-1s', '1 fortnight']) {
      assert.throws(() => durationFlag('report-delay', bad), { code: 'USAGE', message: /^--report-delay/ }, bad);
    }
  });

  it('an integer within its bounds, or a usage error naming the flag', () => {
    assert.equal(integerFlag('port', '0', 0, 65535), 0);
    assert.equal(integerFlag('port', '8080', 0, 65535), 8080);
    for (const bad of ['', ' ', '1.5', '65536', '-1', 'x']) {
      assert.throws(() => integerFlag('port', bad, 0, 65535), { code: 'USAGE', message: /^--port must be/ }, bad);
    }
  });
});
