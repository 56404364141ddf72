// A cell's chart choice read from its metadata or a renderer message: the resampling is kept only when known.
import assert from 'node:assert/strict';
import { chartChoiceOf } from '../../../../src/core/notebook/renderer-protocol';

describe('core notebook chart choice', () => {
  it('keeps hourly / daily resampling, drops raw and anything unknown', () => {
    assert.deepEqual(chartChoiceOf({ metric: 'pm2_5', resample: 'day' }), { metric: 'pm2_5', resample: 'day' });
    assert.deepEqual(chartChoiceOf({ resample: 'hour' }), { resample: 'hour' });
    assert.deepEqual(chartChoiceOf({ metric: 'x', resample: 'raw' }), { metric: 'x' });
    assert.equal(chartChoiceOf({ resample: 'weekly' }), undefined);
    assert.equal(chartChoiceOf({ resample: { toString: () => 'day' } }), undefined);
  });
});
