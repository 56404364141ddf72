import assert from 'node:assert/strict';
import { AQI_CATEGORIES } from '../../../../src/core/aq/aqi';
import { colourDifference, contrastRatio, hexToLab } from '../../../../src/core/aq/colour-difference';
import { idHash, LINE_COLOURS, LINE_STYLE_COUNT, lineStyles } from '../../../../src/core/aq/line-styles';

/** CIELAB hue angle (degrees) and chroma. */
function hueChroma(hex: string): [number, number] {
  const [, a, b] = hexToLab(hex);
  return [((Math.atan2(b, a) * 180) / Math.PI + 360) % 360, Math.hypot(a, b)];
}
/** The QC-invalid marks' colour: --vscode-errorForeground of Dark+ (the fallback), Dark/Light Modern, Light+, HC. */
const ERROR_REDS = ['#f14c4c', '#f85149', '#a1260d', '#f48771', '#b5200d'];
const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `D${(i * 7919).toString(36).toUpperCase().padStart(7, 'X')}`);

describe('line styles: one per datasource', () => {
  it('FNV-1a 32-bit, as published (draft-eastlake-fnv test vectors: "" → 0x811c9dc5, "a" → 0xe40c292c, "foobar" → 0xbf9cf968)', () => {
    assert.equal(idHash(''), 0x811c9dc5);
    assert.equal(idHash('a'), 0xe40c292c);
    assert.equal(idHash('foobar'), 0xbf9cf968);
  });

  it('at least 15 line colours, every pair at least 15 ΔE00 (CIEDE2000) apart', () => {
    assert.ok(LINE_COLOURS.length >= 15);
    for (let i = 0; i < LINE_COLOURS.length; i++)
      for (let j = i + 1; j < LINE_COLOURS.length; j++) {
        const d = colourDifference(LINE_COLOURS[i], LINE_COLOURS[j]);
        assert.ok(d >= 15, `${LINE_COLOURS[i]} vs ${LINE_COLOURS[j]}: ΔE00 ${d.toFixed(1)}`);
      }
  });

  it('never the QC-invalid red nor an AQI band hue: every colour ≥ 20 ΔE00 from each, and no green or purple', () => {
    const avoid = [...AQI_CATEGORIES.map((c) => c.colour), ...ERROR_REDS];
    assert.equal(avoid.length, 11, 'six bands, five theme reds');
    for (const c of LINE_COLOURS) {
      for (const a of avoid) {
        const d = colourDifference(c, a);
        assert.ok(d >= 20, `${c} vs ${a}: ΔE00 ${d.toFixed(1)}`);
      }
      // Green (Good's #00e400 is at 136°) and purple (Very Unhealthy's #8f3f97 at 327°) as families: a dark
      // green is far from #00e400 but would still read as "Good" and sink into its band.
      const [h, chroma] = hueChroma(c);
      assert.ok(!(h > 110 && h < 180 && chroma > 12), `${c} is a green (${h.toFixed(0)}°, C ${chroma.toFixed(0)})`);
      assert.ok(!(h > 300 && h < 340 && chroma > 25), `${c} is a purple (${h.toFixed(0)}°, C ${chroma.toFixed(0)})`);
    }
  });

  it('every colour readable on the light and the dark themes: contrast ≥ 3:1 (WCAG 1.4.11) on #ffffff, #1f1f1f and #000000', () => {
    for (const c of LINE_COLOURS)
      for (const bg of ['#ffffff', '#1f1f1f', '#000000']) {
        const r = contrastRatio(c, bg);
        assert.ok(r >= 3, `${c} on ${bg}: ${r.toFixed(2)}:1`);
      }
  });

  it('15 to 45 datasources get distinct styles, solid lines for the first 15', () => {
    for (const n of [15, 18, 45]) {
      const styles = lineStyles(ids(n));
      const keys = new Set([...styles.values()].map((s) => `${s.colour} ${s.dash.join(',')}`));
      assert.equal(keys.size, n, `${n} lines, ${n} styles`);
      if (n === 15) assert.ok([...styles.values()].every((s) => s.dash.length === 0));
    }
    assert.equal(LINE_STYLE_COUNT, 45);
  });

  it('a datasource keeps its style when others are left out or the order changes', () => {
    const all = ids(15);
    const full = lineStyles(all);
    const again = lineStyles([...all].reverse());
    for (const id of all) assert.deepEqual(again.get(id), full.get(id));
    // Alone, each datasource takes its hash's colour, solid.
    for (const id of all.slice(0, 5))
      assert.equal(lineStyles([id]).get(id)!.colour, LINE_COLOURS[idHash(id) % LINE_COLOURS.length]);
  });
});
