import assert from 'node:assert/strict';
import { isBlankCell, parseCell } from '../../../../src/core/query';
import { NOW } from '../../../support/now';

describe('query language: a blank cell (what Shift+Enter adds) is not a problem while editing', () => {
  it('empty, whitespace-only and comment-only cells are blank; running one still reports the missing verb', () => {
    for (const text of ['', '\n', '   \n\t', '# just a note\n  # another', '\r\n  \r\n']) {
      assert.equal(isBlankCell(text), true, JSON.stringify(text));
      assert.equal(parseCell(text, { now: new Date(NOW) }).diagnostics[0]?.code, 'missing-verb', JSON.stringify(text));
    }
  });

  it('a cell with anything that is not a comment is not blank (its problems are shown)', () => {
    for (const text of ['recent', '# note\nrecnt', '  startTime: -1d', 'a#b']) {
      assert.equal(isBlankCell(text), false, JSON.stringify(text));
    }
  });
});
