import assert from 'node:assert/strict';
import { ciede2000, contrastRatio, hexToLab } from '../../../../src/core/aq/colour-difference';

// Sharma, Wu and Dalal 2005, "The CIEDE2000 color-difference formula: implementation notes, supplementary test
// data, and mathematical observations", Color Res. Appl. 30(1) 21-30, Table 1: the 34 pairs
// [L1, a1, b1, L2, a2, b2, ΔE00], ΔE00 given to 4 decimals (the same data as scikit-image's
// ciede2000_test_data.txt). They exercise the hue wrap-around, neutral colours and the blue rotation term.
const SHARMA_2005: ReadonlyArray<readonly number[]> = [
  [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
  [50, 3.1571, -77.2803, 50, 0, -82.7485, 2.8615],
  [50, 2.8361, -74.02, 50, 0, -82.7485, 3.4412],
  [50, -1.3802, -84.2814, 50, 0, -82.7485, 1],
  [50, -1.1848, -84.8006, 50, 0, -82.7485, 1],
  [50, -0.9009, -85.5211, 50, 0, -82.7485, 1],
  [50, 0, 0, 50, -1, 2, 2.3669],
  [50, -1, 2, 50, 0, 0, 2.3669],
  [50, 2.49, -0.001, 50, -2.49, 0.0009, 7.1792],
  [50, 2.49, -0.001, 50, -2.49, 0.001, 7.1792],
  [50, 2.49, -0.001, 50, -2.49, 0.0011, 7.2195],
  [50, 2.49, -0.001, 50, -2.49, 0.0012, 7.2195],
  [50, -0.001, 2.49, 50, 0.0009, -2.49, 4.8045],
  [50, -0.001, 2.49, 50, 0.001, -2.49, 4.8045],
  [50, -0.001, 2.49, 50, 0.0011, -2.49, 4.7461],
  [50, 2.5, 0, 50, 0, -2.5, 4.3065],
  [50, 2.5, 0, 73, 25, -18, 27.1492],
  [50, 2.5, 0, 61, -5, 29, 22.8977],
  [50, 2.5, 0, 56, -27, -3, 31.903],
  [50, 2.5, 0, 58, 24, 15, 19.4535],
  [50, 2.5, 0, 50, 3.1736, 0.5854, 1],
  [50, 2.5, 0, 50, 3.2972, 0, 1],
  [50, 2.5, 0, 50, 1.8634, 0.5757, 1],
  [50, 2.5, 0, 50, 3.2592, 0.335, 1],
  [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
  [63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.263],
  [61.2901, 3.7196, -5.3901, 61.4292, 2.248, -4.962, 1.8731],
  [35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645],
  [22.7233, 20.0904, -46.694, 23.0331, 14.973, -42.5619, 2.0373],
  [36.4612, 47.858, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146],
  [90.8027, -2.0831, 1.441, 91.1528, -1.6435, 0.0447, 1.4441],
  [90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381],
  [6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377],
  [2.0776, 0.0795, -1.135, 0.9033, -0.0636, -0.5514, 0.9082],
];

describe('colour difference: CIELAB, CIEDE2000, WCAG contrast', () => {
  it('CIEDE2000 on the 34 test pairs of Sharma, Wu and Dalal 2005 (Table 1), to their 4 decimals, both ways round', () => {
    for (const [L1, a1, b1, L2, a2, b2, want] of SHARMA_2005) {
      for (const got of [ciede2000([L1, a1, b1], [L2, a2, b2]), ciede2000([L2, a2, b2], [L1, a1, b1])])
        assert.ok(Math.abs(got - want) < 5e-5, `(${L1}, ${a1}, ${b1}) vs (${L2}, ${a2}, ${b2}): ${got}, table ${want}`);
    }
    assert.equal(ciede2000([50, 2.5, 0], [50, 2.5, 0]), 0);
  });

  it("sRGB to CIELAB (D65): #ff0000 is (53.2408, 80.0925, 67.2032) as published (e.g. by Lindbloom's calculator: 53.24, 80.09, 67.20), greys neutral (numpy on the same formulas)", () => {
    const close = (got: readonly number[], want: number[]) => {
      for (let i = 0; i < 3; i++) assert.ok(Math.abs(got[i] - want[i]) < 1e-3, `${got} vs ${want}`);
    };
    close(hexToLab('#ff0000'), [53.2408, 80.0925, 67.2032]);
    close(hexToLab('#777777'), [50.0344, 0, 0]);
    close(hexToLab('#ffffff'), [100, 0, 0]);
    assert.throws(() => hexToLab('red'), /not a #rrggbb colour/);
  });

  it('WCAG 2.1 contrast ratio: black on white 21:1, #777777 on white 4.48:1, symmetric', () => {
    assert.ok(Math.abs(contrastRatio('#000000', '#ffffff') - 21) < 1e-5);
    assert.equal(contrastRatio('#ffffff', '#000000'), contrastRatio('#000000', '#ffffff'));
    assert.equal(contrastRatio('#777777', '#777777'), 1);
    // (1.05) / (0.18447 + 0.05): WebAIM's contrast checker gives 4.48:1 for #777777 on #ffffff.
    assert.ok(Math.abs(contrastRatio('#777777', '#ffffff') - 4.478) < 1e-3);
  });
});
