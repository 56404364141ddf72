import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  DictBuilder,
  grow,
  isPlainNumber,
  NumberBuilder,
  parseDecimal,
  TimeBuilder,
  trimTo,
} from '../../../../src/core/table/builders';
import type { DictColumn, NumericColumn } from '../../../../src/core/table/table';

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

describe('table: column growth', () => {
  const resizable = (a: ArrayBufferView) => (a.buffer as ArrayBuffer & { resizable?: boolean }).resizable === true;

  it('grows large columns in place and keeps every value (same column as before)', () => {
    const n = 200_000; // past the in-place threshold, under one reservation
    const nums = new NumberBuilder();
    const times = new TimeBuilder();
    const ids = new DictBuilder('identifier');
    for (let i = 0; i < n; i++) {
      if (i % 7 === 0) nums.pushEmpty(1);
      else nums.pushNumber(i / 4);
      times.pushTime(1_700_000_000_000 + i * 60_000);
      ids.push(i % 5 === 0 ? '' : `D${i % 3}`);
    }
    const v = nums.finish({ name: 'v' }) as NumericColumn;
    const t = times.finish({ name: 't' }) as NumericColumn;
    const d = ids.finish({ name: 'd' }) as DictColumn;
    for (const col of [v.values, t.values, d.codes]) {
      assert.equal(col.length, n);
      assert.ok(resizable(col), 'grown in place');
    }
    for (let i = 0; i < n; i++) {
      assert.ok(i % 7 === 0 ? Number.isNaN(v.values[i]) : v.values[i] === i / 4, `value ${i}`);
      assert.equal(t.values[i], 1_700_000_000_000 + i * 60_000);
      assert.equal(d.codes[i] < 0 ? '' : d.dict[d.codes[i]], i % 5 === 0 ? '' : `D${i % 3}`);
    }
  });

  it('counts, reads back and finishes values still staged (cells reach the column in blocks)', () => {
    const nums = new NumberBuilder();
    const expected: number[] = [];
    for (let i = 0; i < 70_000; i++) {
      if (i % 1000 === 999) {
        nums.pushEmpty(3);
        expected.push(Number.NaN, Number.NaN, Number.NaN);
      }
      nums.pushNumber(i + 0.25);
      expected.push(i + 0.25);
      if (i === 5 || i === 4100 || i === 69_999) {
        assert.equal(nums.length, expected.length);
        const texts = nums.texts(); // what a demotion reads
        assert.equal(texts.length, expected.length);
        assert.equal(texts.at(-1), String(i + 0.25));
        const first = nums.finish({ name: 'v' }) as NumericColumn; // finished early (a file's first rows)
        assert.equal(first.values.length, expected.length);
        assert.equal(first.values.at(-1), i + 0.25);
      }
    }
    const v = nums.finish({ name: 'v' }) as NumericColumn;
    assert.deepEqual([...v.values], expected);
  });

  it('keeps small columns in plain arrays', () => {
    const nums = new NumberBuilder();
    for (let i = 0; i < 5000; i++) nums.pushNumber(i);
    const v = nums.finish({ name: 'v' }) as NumericColumn;
    assert.ok(!resizable(v.values));
    assert.deepEqual([...v.values.subarray(4995)], [4995, 4996, 4997, 4998, 4999]);
  });

  it('moves a column that outgrows its reservation into a larger one, values kept', () => {
    const Resizable = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer;
    const small = new Float64Array(new Resizable(8 * 1024, { maxByteLength: 8 * 2048 }));
    for (let i = 0; i < small.length; i++) small[i] = i + 0.5;
    const same = grow(small, 2048);
    assert.equal(same, small, 'within the reservation: the same array, longer');
    assert.equal(same.length, 2048);
    const moved = grow(same, 5000);
    assert.notEqual(moved, same);
    assert.ok(resizable(moved) && moved.length >= 5000);
    for (let i = 0; i < 1024; i++) assert.equal(moved[i], i + 0.5);
    const trimmed = trimTo(moved, 3000);
    assert.equal(trimmed.length, 3000);
    assert.equal(trimmed[1023], 1023.5);
  });
});
