import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DictBuilder, InferredNumberBuilder, NumberBuilder, TimeBuilder } from '../../../../src/core/table/builders';
import { isPlainNumber, parseDecimal } from '../../../../src/core/table/decimal';
import { grow, trimTo } from '../../../../src/core/table/growable';
import {
  type DecimalColumn,
  DICT16_CODES,
  type DictColumn,
  type FloatColumn,
  floatValues,
  isDecimal,
} from '../../../../src/core/table/table';

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
    const v = nums.finish({ name: 'v' }) as FloatColumn;
    const t = times.finish({ name: 't' }) as FloatColumn;
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

  it('holds dictionary codes as Int16 up to 32,768 texts and widens to Int32 at the next, codes and empties kept', () => {
    const ids = new DictBuilder('identifier');
    const text = (i: number) => `D${i}`;
    // Every text once, an empty cell and a repeat between them, up to the last text Int16 codes can hold.
    for (let i = 0; i < DICT16_CODES; i++) {
      ids.push(text(i));
      if (i % 1000 === 0) ids.push('');
    }
    ids.push(text(7));
    const narrow = ids.finish({ name: 'd' }) as DictColumn;
    assert.ok(narrow.codes instanceof Int16Array, `${DICT16_CODES} texts: Int16 codes`);
    assert.equal(narrow.codes[narrow.codes.length - 1], 7);
    const more = new DictBuilder('identifier');
    const expected: string[] = [];
    for (let i = 0; i <= DICT16_CODES; i++) {
      for (const t of i % 1000 === 0 ? [text(i), '', text(3)] : [text(i)]) {
        more.push(t);
        expected.push(t);
      }
    }
    const wide = more.finish({ name: 'd' }) as DictColumn;
    assert.ok(wide.codes instanceof Int32Array, 'one text more: Int32 codes');
    assert.deepEqual(
      Array.from(wide.codes, (c) => (c < 0 ? '' : wide.dict[c])),
      expected,
      'every cell, before and after the widening',
    );
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
        const first = nums.finish({ name: 'v' }) as FloatColumn; // finished early (a file's first rows)
        assert.equal(first.values.length, expected.length);
        assert.equal(first.values.at(-1), i + 0.25);
      }
    }
    const v = nums.finish({ name: 'v' }) as FloatColumn;
    assert.deepEqual([...v.values], expected);
  });

  it('keeps small columns in plain arrays', () => {
    const nums = new NumberBuilder();
    for (let i = 0; i < 5000; i++) nums.pushNumber(i);
    const v = nums.finish({ name: 'v' }) as FloatColumn;
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

describe('table: decimal number columns (exact scaled Int16 or Int32)', () => {
  const decimalText = fc
    .tuple(fc.boolean(), fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 4 }))
    .map(([neg, m, frac]) => {
      const digits = String(m).padStart(frac + 1, '0');
      const text = frac ? `${digits.slice(0, -frac)}.${digits.slice(-frac)}` : digits;
      return neg && m !== 0 ? `-${text}` : text;
    });
  const read = (texts: string[], b = new NumberBuilder(true)) => {
    for (const t of texts) assert.ok(b.push(t), t);
    return b.finish({ name: 'v' });
  };
  const expected = (texts: string[]) => texts.map((t) => (t === '' ? Number.NaN : Number(t)));

  it('holds plain decimals as scaled integers whose values are exactly the doubles of their text, 16 bits when they fit', () => {
    const fracOf = (t: string) => (t.includes('.') ? t.length - t.indexOf('.') - 1 : 0);
    fc.assert(
      fc.property(fc.array(fc.oneof(decimalText, fc.constant('')), { maxLength: 300 }), (texts) => {
        const col = read(texts);
        assert.ok(isDecimal(col), 'stays decimal');
        assert.deepEqual(Array.from(floatValues(col)), expected(texts));
        const scale = Math.max(0, ...texts.map(fracOf));
        const maxAbs = Math.max(0, ...texts.map((t) => Math.abs(Math.round(Number(t || 0) * 10 ** scale))));
        assert.equal(col.ints.BYTES_PER_ELEMENT, maxAbs <= 32767 ? 2 : 4, `max |scaled| ${maxAbs}`);
      }),
    );
  });

  it('takes the scale of the most fraction digits, rescaling the rows before in place', () => {
    const col = read(['12', '', '1009.3', '-0.25', '7.125']) as DecimalColumn;
    assert.equal(col.scale, 3);
    assert.deepEqual(Array.from(col.ints), [12_000, -2147483648, 1_009_300, -250, 7_125]);
    assert.deepEqual(Array.from(floatValues(col)), [12, Number.NaN, 1009.3, -0.25, 7.125]);
  });

  it('is 2 bytes a row while every scaled value fits 16 bits, 4 past it, where Float64 is 8 (the reason for it)', () => {
    const small = read(Array.from({ length: 5000 }, (_, i) => (i / 100).toFixed(2))) as DecimalColumn;
    assert.equal(small.ints.BYTES_PER_ELEMENT, 2);
    assert.equal(small.ints.length, 5000);
    const texts = Array.from({ length: 5000 }, (_, i) =>
      i === 4000 ? '1009.35' : i % 7 === 0 ? '' : (i / 100).toFixed(2),
    );
    const wide = read(texts) as DecimalColumn;
    assert.equal(wide.ints.BYTES_PER_ELEMENT, 4, 'widened at 100935');
    assert.deepEqual(Array.from(floatValues(wide)), expected(texts), 'rows before the widening kept, empties too');
  });

  it('widens at the 16-bit edge, on a value or on a rescale, keeping empty cells empty', () => {
    const width = (texts: string[]) => {
      const col = read(texts);
      assert.ok(isDecimal(col), texts.join(','));
      assert.deepEqual(Array.from(floatValues(col)), expected(texts), texts.join(','));
      return col.ints.BYTES_PER_ELEMENT;
    };
    assert.equal(width(['327.67', '', '-327.67', '0']), 2);
    assert.equal(width(['', '327.68']), 4);
    assert.equal(width(['', '-327.68', '']), 4, 'INT16_MIN is the empty cell, never a value');
    assert.equal(width(['-32767', '', '32767']), 2);
    assert.equal(width(['300', '', '0.01']), 2, 'rescaled to 30000: still fits');
    assert.equal(width(['400', '', '0.01']), 4, 'rescaled to 40000: widened first');
    assert.equal(width(['1', '', '40000', '', '0.5']), 4, 'widened, then rescaled');
  });

  it('turns to Float64 at the first value that does not fit, every value kept', () => {
    const cases: string[][] = [
      ['1.5', '2', '1e3'], // an exponent
      ['1.5', '123456789012.5'], // past Int32 once scaled
      ['0.5', '2147483.648'], // rescaling the column to 3 digits would overflow the 2147483.648
      ['1', '0.1234567891'], // more than 9 fraction digits
      ['2', '-0.0'], // negative zero is not an integer
      ['1', 'Infinity', ''],
    ];
    for (const texts of cases) {
      const col = read(texts);
      assert.ok(!isDecimal(col), texts.join(','));
      const got = Array.from(floatValues(col));
      const want = expected(texts);
      for (let i = 0; i < want.length; i++) {
        assert.ok(Object.is(got[i], want[i]), `${texts.join(',')} [${i}]: ${got[i]} vs ${want[i]}`);
      }
    }
  });

  it('counts and reads back as text across a turn to Float64 (demotion reads texts)', () => {
    const b = new NumberBuilder(true);
    for (let i = 0; i < 5000; i++) b.push(i % 3 === 0 ? '' : `${i}.5`);
    b.pushEmpty(2);
    assert.equal(b.length, 5002);
    assert.equal(b.texts()[1], '1.5');
    b.pushNumber(Math.PI);
    assert.equal(b.length, 5003);
    const texts = b.texts();
    assert.deepEqual([texts[0], texts[1], texts[5001], texts[5002]], ['', '1.5', '', String(Math.PI)]);
  });

  it('starts as Float64 without decimals (values that come as doubles) and for inferred columns reads "007" as not a number', () => {
    const b = new NumberBuilder();
    b.pushNumber(0.1);
    assert.ok(!isDecimal(b.finish({ name: 'v' })));
    const inferred = new InferredNumberBuilder();
    assert.ok(inferred.push('12.5'));
    assert.ok(isDecimal(inferred.finish({ name: 'v' })));
    assert.equal(inferred.push('007'), false);
  });
});
