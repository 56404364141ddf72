// A cell's chart choice read from its metadata or a renderer message: the resampling is kept only when known.
// A notebook output's summary-request (hostile input from the webview): only a key of the host's form and a plan.
import assert from 'node:assert/strict';
import { chartChoiceOf, isRestKey, notebookSummaryRequestOf } from '../../../../src/core/notebook/renderer-protocol';

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

describe("core notebook summary-request of a notebook output (the webview's message checked)", () => {
  const plan = { frequency: 'hour', timeColumn: 'time', metrics: [{ column: 'pm2_5.value' }] };

  it('passes a key of the form the host gives results, with its plan', () => {
    assert.deepEqual(notebookSummaryRequestOf({ type: 'summary-request', requestId: 's1', key: 'r1x9k2abc', plan }), {
      requestId: 's1',
      key: 'r1x9k2abc',
      plan: { groupColumn: undefined, timeColumn: 'time', frequency: 'hour', metrics: [{ column: 'pm2_5.value' }] },
    });
  });

  it('refuses a path, a full-result id or any other text as the key (never a file the webview names)', () => {
    for (const key of [
      '/etc/passwd',
      '../../x.parquet',
      'C:\\Users\\me\\r1.parquet',
      'file:///tmp/r1.parquet',
      'abcdef12-cell1', // a full-result id (result-store): the host's to resolve, never the webview's
      'r1/../../x',
      'R1ABC',
      'r',
      `r${'a'.repeat(41)}`,
      7,
      undefined,
      { toString: () => 'r1' },
    ]) {
      assert.equal(isRestKey(key), false, String(key));
      const out = notebookSummaryRequestOf({ type: 'summary-request', requestId: 's2', key, plan });
      assert.deepEqual(out, { requestId: 's2', refused: 'the request names no result of this notebook' });
    }
  });

  it('refuses a plan of a bad shape, and a message that is not an object', () => {
    const out = notebookSummaryRequestOf({ requestId: 's3', key: 'r2abc', plan: { frequency: 'week', metrics: [] } });
    assert.deepEqual(out, { requestId: 's3', refused: 'the request names no columns to summarise' });
    assert.ok('refused' in notebookSummaryRequestOf(null));
    assert.equal(notebookSummaryRequestOf({ requestId: 'x'.repeat(500), key: 'r1' }).requestId.length, 100);
  });
});
