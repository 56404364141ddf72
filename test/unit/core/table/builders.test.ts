import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isPlainNumber, parseDecimal } from '../../../../src/core/table/builders';

describe('table: cell parsing fast paths', () => {
  it('parseDecimal agrees with Number() on every decimal text', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.stringMatching(/^\d{1,12}$/), fc.option(fc.stringMatching(/^\d{1,8}$/)))
      .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}`);
    fc.assert(
      fc.property(decimal, (s) => Object.is(parseDecimal(s), Number(s))),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.double({ noNaN: true }), (d) => Object.is(parseDecimal(String(d)), Number(String(d)))));
  });

  it('parseDecimal falls back or refuses on other text', () => {
    assert.equal(parseDecimal('1e3'), 1000);
    assert.equal(parseDecimal(' 7 '), 7);
    assert.ok(Number.isNaN(parseDecimal('')));
    assert.ok(Number.isNaN(parseDecimal('-')));
    assert.ok(Number.isNaN(parseDecimal('n/a')));
    assert.ok(Number.isNaN(parseDecimal('1.2.3')));
  });

  it('isPlainNumber accepts numbers and refuses ids that look numeric', () => {
    for (const ok of ['0', '-1.5', '12', '0.25', '1e5', '3.']) assert.ok(isPlainNumber(ok), ok);
    for (const no of ['007', '+5', ' 5', '0x10', '', '-', '1,5', 'Infinity']) assert.ok(!isPlainNumber(no), no);
  });
});
