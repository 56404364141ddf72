// Which rows the Summary says it covers (issue 28: "say which rows a view covers"): every row held, the first
// rows held of more (a file in the table editor), the rows still arriving (a progressive notebook output), the
// rows a filter leaves.
import assert from 'node:assert/strict';
import { coverText } from '../../../../src/renderer/views/summary';

describe('renderer Summary view: the rows its note says it covers', () => {
  it('all rows, the first rows held of more, the filtered rows', () => {
    assert.equal(coverText(2_904, 2_904, 2_904), 'all 2,904 rows');
    assert.equal(coverText(1_000, 1_000, 2_904), 'the first 1,000 rows held of 2,904');
    assert.equal(coverText(12, 2_904, 2_904), 'the 12 rows shown (filtered)');
    assert.equal(coverText(12, 1_000, 2_904), 'the 12 rows shown (filtered) of the first 1,000 rows held of 2,904');
  });

  it('a progressive output whose rows are still arriving says so, and that the Summary follows', () => {
    assert.equal(
      coverText(140_103, 140_103, 500_000, true),
      'the first 140,103 rows loaded so far of 500,000 (more are arriving; the Summary is drawn again when all are in)',
    );
    assert.match(
      coverText(5, 140_103, 500_000, true),
      /^the 5 rows shown \(filtered\) of the first 140,103 rows loaded so far/,
    );
  });
});
