import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isPlainNumber, parseDecimal, parseIsoTimestamp } from '../../../src/core/table/builders';

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

  it('parseIsoTimestamp agrees with Date.parse and rejects impossible dates', () => {
    const time = fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(time, (d) => {
        const iso = d.toISOString();
        return (
          parseIsoTimestamp(iso) === d.getTime() &&
          parseIsoTimestamp(iso.replace(/\.\d{3}Z$/, 'Z')) === Date.parse(iso.replace(/\.\d{3}Z$/, 'Z'))
        );
      }),
    );
    assert.equal(parseIsoTimestamp('2026-11-01T10:00:00+02:00'), Date.UTC(2026, 10, 1, 8));
    assert.ok(Number.isNaN(parseIsoTimestamp('2026-02-30T00:00:00.000Z')));
    assert.ok(Number.isNaN(parseIsoTimestamp('2026-11-01T1a:00:00.000Z')));
    assert.ok(Number.isNaN(parseIsoTimestamp('soon')));
  });

  it('isPlainNumber accepts numbers and refuses ids that look numeric', () => {
    for (const ok of ['0', '-1.5', '12', '0.25', '1e5', '3.']) assert.ok(isPlainNumber(ok), ok);
    for (const no of ['007', '+5', ' 5', '0x10', '', '-', '1,5', 'Infinity']) assert.ok(!isPlainNumber(no), no);
  });
});
