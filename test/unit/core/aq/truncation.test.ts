// EPA truncation of concentrations (EPA-454/B-24-002, Technical Assistance Document for the Reporting of Daily
// Air Quality, 2024: "truncate" PM2.5 to 0.1 µg/m³, PM10 and NO2 to integers; AirNow's NowCast to 0.1 µg/m³).
// Truncation drops digits: toward zero, on the decimal value as written.
import assert from 'node:assert/strict';
import { nowcast, truncateTo, usEpaAqi } from '../../../../src/core/aq/aqi';

/** The next double above / below (via the bits). */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const b = new Float64Array([x]);
  const i = new BigInt64Array(b.buffer);
  i[0] += x > 0 ? 1n : -1n;
  return b[0];
}
function nextDown(x: number): number {
  return -nextUp(-x);
}

// Expected values computed with Python's decimal module on the shortest round-trip text of each double
// (`float(Decimal(repr(x)).quantize(Decimal(1).scaleb(-d), rounding=ROUND_DOWN))`, Python 3; repr is the same
// shortest text as JavaScript's String(x)).
const CASES: Array<[x: number, decimals: number, expected: number]> = [
  [-1.23, 1, -1.2],
  [9.0999999999, 1, 9.0],
  [9.1, 1, 9.1],
  [0.3, 1, 0.3],
  [0.1 + 0.2, 1, 0.3],
  [35.45, 1, 35.4],
  [-35.45, 1, -35.4],
  [54.99, 0, 54],
  [-54.99, 0, -54],
  [1e-7, 1, 0],
  [123456.789, 2, 123456.78],
  [1.5e21, 1, 1.5e21],
  [-2.675, 2, -2.67],
  [2.675, 2, 2.67],
  [8.6530612, 1, 8.6],
  [100, 1, 100],
  [0.29999999999999993, 1, 0.2],
  [1.005, 2, 1.0],
  [4.35, 1, 4.3],
];

/** The oracle: cut the digits of the shortest text (sign apart), as a person reading the number would. */
function cutText(x: number, decimals: number): number {
  const shortest = String(Math.abs(x));
  if (shortest.includes('e')) return Number.NaN; // the cases below stay in plain notation
  const [whole, fraction = ''] = shortest.split('.');
  const cut = Number(`${whole}.${fraction.slice(0, decimals) || '0'}`);
  return x < 0 && cut !== 0 ? -cut : cut;
}

/** A small seeded generator (mulberry32), so a failure is reproducible. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('core aq: EPA truncation toward zero, of the decimal as written', () => {
  it('equals cutting the shortest text on 40,000 values: random, and one ulp either side of k/10^d', () => {
    const next = random(28);
    for (let i = 0; i < 10_000; i++) {
      const d = Math.floor(next() * 4);
      const x = (next() - 0.2) * 10 ** Math.floor(next() * 7 - 1);
      const edge = Math.round(x * 10 ** d) / 10 ** d;
      for (const v of [x, edge, nextUp(edge), nextDown(edge)]) {
        const expected = cutText(v, d);
        if (!Number.isNaN(expected)) assert.equal(truncateTo(v, d), expected, `truncateTo(${v}, ${d})`);
      }
    }
  });

  it('matches Python decimal ROUND_DOWN on the shortest text for 19 cases (negatives, binary edges, exponents)', () => {
    for (const [x, d, expected] of CASES) assert.equal(truncateTo(x, d), expected, `truncateTo(${x}, ${d})`);
  });

  it('truncates negatives toward zero: −1.23 → −1.2 (not −1.3)', () => {
    assert.equal(truncateTo(-1.23, 1), -1.2);
  });

  it('9.0999999999 → 9.0 (no 1e-9 allowance); 9.1 (the double nearest 9.1) stays 9.1', () => {
    assert.equal(truncateTo(9.0999999999, 1), 9);
    assert.equal(truncateTo(9.1, 1), 9.1);
    assert.equal(truncateTo(9.000000001, 1), 9);
  });

  it('never −0: −0.05 and −0 truncate to +0; NaN and infinities pass through', () => {
    assert.ok(Object.is(truncateTo(-0.05, 1), 0));
    assert.ok(Object.is(truncateTo(-0, 1), 0));
    assert.ok(Number.isNaN(truncateTo(Number.NaN, 1)));
    assert.equal(truncateTo(Number.NEGATIVE_INFINITY, 1), Number.NEGATIVE_INFINITY);
  });

  it('a NowCast around −0.05 µg/m³ (all hours −0.05) shows 0.0, not −0.1 or −0.0', () => {
    const v = nowcast(new Array(12).fill(-0.05));
    assert.ok(Object.is(v, 0), `got ${v}`);
  });

  it('the AQI of PM2.5 9.0999999999 truncates to 9.0 → AQI 50 (Good), not 9.1 → 51', () => {
    assert.equal(usEpaAqi('pm2_5', 9.0999999999), 50);
    assert.equal(usEpaAqi('pm2_5', 9.1), 51);
  });
});
