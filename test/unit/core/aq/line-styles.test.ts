import assert from 'node:assert/strict';
import { AQI_CATEGORIES } from '../../../../src/core/aq/aqi';
import { idHash, LINE_COLOURS, LINE_STYLE_COUNT, lineStyles } from '../../../../src/core/aq/line-styles';

/** Hue in degrees and saturation (HSL) of #rrggbb. */
function hueSat(hex: string): [number, number] {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  const l = (max + min) / 2;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  if (d === 0) return [0, 0];
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [(h * 60 + 360) % 360, s];
}
const hueGap = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));
const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `D${(i * 7919).toString(36).toUpperCase().padStart(7, 'X')}`);

describe('line styles: one per datasource', () => {
  it('FNV-1a 32-bit, as published (draft-eastlake-fnv test vectors: "" → 0x811c9dc5, "a" → 0xe40c292c, "foobar" → 0xbf9cf968)', () => {
    assert.equal(idHash(''), 0x811c9dc5);
    assert.equal(idHash('a'), 0xe40c292c);
    assert.equal(idHash('foobar'), 0xbf9cf968);
  });

  it('never the QC-invalid red nor an AQI band hue: every colour ≥ 40° from each band colour (or grey)', () => {
    const avoid = [...AQI_CATEGORIES.map((c) => c.colour), '#f14c4c'];
    for (const c of LINE_COLOURS) {
      const [h, s] = hueSat(c);
      if (s < 0.25) continue; // a blue-grey: no hue to confuse
      for (const a of avoid) assert.ok(hueGap(h, hueSat(a)[0]) >= 40, `${c} (${h.toFixed(0)}°) vs ${a}`);
    }
  });

  it('15 to 18 datasources get distinct styles, solid lines for the first ten', () => {
    for (const n of [10, 15, 18]) {
      const styles = lineStyles(ids(n));
      const keys = new Set([...styles.values()].map((s) => `${s.colour} ${s.dash.join(',')}`));
      assert.equal(keys.size, n, `${n} lines, ${n} styles`);
      if (n === 10) assert.ok([...styles.values()].every((s) => s.dash.length === 0));
    }
    assert.ok(LINE_STYLE_COUNT >= 18);
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
