// A band's fill with an alpha from any colour the palette or the theme gives (hex, rgb, hsl): never an invalid
// string (an hsl() with "33" appended drew a white band in Profiles beyond the 6 theme colours).
import assert from 'node:assert/strict';
import { parseColour, withAlpha } from '../../../../src/renderer/model/colour';

describe('renderer colour: withAlpha', () => {
  it('hex forms: #rgb, #rgba, #rrggbb, #rrggbbaa', () => {
    assert.equal(withAlpha('#3794ff', 0.2), 'rgba(55, 148, 255, 0.2)');
    assert.equal(withAlpha('#f00', 0.5), 'rgba(255, 0, 0, 0.5)');
    assert.equal(withAlpha('#f00c', 0.5), 'rgba(255, 0, 0, 0.5)');
    assert.equal(withAlpha('#3794FF80', 0.2), 'rgba(55, 148, 255, 0.2)');
  });

  it('rgb() and rgba(), comma or space syntax', () => {
    assert.deepEqual(parseColour('rgb(1, 2, 3)'), [1, 2, 3]);
    assert.deepEqual(parseColour('rgba(10,20,30,0.4)'), [10, 20, 30]);
    assert.deepEqual(parseColour('rgb(10 20 30 / 50%)'), [10, 20, 30]);
  });

  it('hsl() as the palette makes it past 6 lines: hsl(137.5 65% 55%) -> rgb(66, 215, 98)', () => {
    // Hand-checked: C = (1 − |2·0.55 − 1|)·0.65 = 0.585; H' = 137.5/60 = 2.2917, X = C·(1 − |H' mod 2 − 1|) = 0.1706;
    // m = 0.55 − 0.2925 = 0.2575; (R, G, B) = (m + 0, m + C, m + X)·255 = (65.7, 214.9, 109.2) rounded (66, 215, 109).
    assert.deepEqual(parseColour('hsl(137.5 65% 55%)'), [66, 215, 109]);
    assert.equal(withAlpha('hsl(137.5 65% 55%)', 0.2), 'rgba(66, 215, 109, 0.2)');
    assert.deepEqual(parseColour('hsla(0, 100%, 50%, 0.3)'), [255, 0, 0]);
    assert.deepEqual(parseColour('hsl(240deg 100% 50%)'), [0, 0, 255]);
  });

  it('anything else: a neutral grey, never an invalid colour', () => {
    assert.equal(withAlpha('transparent', 0.2), 'rgba(128, 128, 128, 0.2)');
    assert.equal(withAlpha('#12345', 0.2), 'rgba(128, 128, 128, 0.2)');
    assert.equal(withAlpha('var(--x)', 0.2), 'rgba(128, 128, 128, 0.2)');
  });
});
