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

  it('keeps up to two more metrics for the stacked panels, as names', () => {
    assert.deepEqual(chartChoiceOf({ also: ['no2', 'temp'] }), { also: ['no2', 'temp'] });
    assert.equal(chartChoiceOf({ also: ['a', 'b', 'c'] }), undefined);
    assert.equal(chartChoiceOf({ also: [1] }), undefined);
    assert.equal(chartChoiceOf({ also: [] }), undefined);
  });

  it('keeps the left/right axes choice only as `true`', () => {
    assert.deepEqual(chartChoiceOf({ also: ['no2'], twoAxes: true }), { also: ['no2'], twoAxes: true });
    assert.equal(chartChoiceOf({ twoAxes: 'yes' }), undefined);
    assert.equal(chartChoiceOf({ twoAxes: false }), undefined);
  });
});
