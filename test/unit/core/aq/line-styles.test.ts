import assert from 'node:assert/strict';
import { AQI_CATEGORIES } from '../../../../src/core/aq/aqi';
import { colourDifference, contrastRatio, hexToLab } from '../../../../src/core/aq/colour-difference';
import {
  connectionStyleSlots,
  idHash,
  LINE_COLOURS,
  LINE_STYLE_COUNT,
  lineStyles,
  styleSlotsOf,
} from '../../../../src/core/aq/line-styles';
import { DEFAULT_SEED } from '../../../../src/emulator/index';
import { buildWorld, DEMO_ORG } from '../../../../src/emulator/world';

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

  describe("across results: the connection's whole datasource list (ResultInfo.datasourceStyles)", () => {
    // The emulator's 20 datasources of its demo org (default seed; ids do not depend on the anchor).
    const all = buildWorld(DEFAULT_SEED, Date.UTC(2026, 0, 1), 20)
      .orgs.get(DEMO_ORG)!
      .datasources.map((d) => d.id);
    const key = (s: { colour: string; dash: readonly number[] } | undefined) => `${s?.colour} ${s?.dash.join(',')}`;
    const slotsFor = (ids: readonly string[]) => styleSlotsOf(connectionStyleSlots(all, ids));

    it('a datasource has the same style alone, in any subset and in the whole list (without the slots many do not)', () => {
      assert.equal(all.length, 20);
      const full = lineStyles(all, slotsFor(all));
      assert.equal(new Set([...full.values()].map(key)).size, 20, 'all 20 distinct');
      const subsets = [
        ...all.map((id) => [id]),
        all.slice(0, 7),
        all.slice(5, 17).reverse(),
        all.filter((_, i) => i % 3),
      ];
      for (const ids of subsets) {
        const styles = lineStyles(ids, slotsFor(ids));
        for (const id of ids) assert.equal(key(styles.get(id)), key(full.get(id)), `${id} in [${ids.join(', ')}]`);
      }
      // The result's own list alone places a lone datasource on its hashed colour, solid: what moved before.
      const moved = all.filter((id) => key(lineStyles([id]).get(id)) !== key(full.get(id)));
      assert.ok(
        moved.length >= 5,
        `${moved.length} of 20 change style alone without the slots (12 with the default seed)`,
      );
    });

    it('ids not in the connection take free styles, the known keep theirs; no slots is as before', () => {
      const ids = [all[0], all[1], 'SQLONLY1', 'SQLONLY2'];
      const slots = slotsFor(ids)!;
      assert.deepEqual([...slots.keys()].sort(), [all[0], all[1]].sort(), 'only ids of the connection and result');
      const styles = lineStyles(ids, slots);
      const full = lineStyles(all, slotsFor(all));
      for (const id of [all[0], all[1]]) assert.equal(key(styles.get(id)), key(full.get(id)));
      assert.equal(new Set([...styles.values()].map(key)).size, 4, 'four distinct styles');
      assert.deepEqual(lineStyles(ids, undefined), lineStyles(ids));
      assert.deepEqual(lineStyles(ids, new Map()), lineStyles(ids));
    });

    it('more datasources than styles: the first in sorted order keeps a shared slot, the other moves', () => {
      const big = ids(60);
      const slots = styleSlotsOf(connectionStyleSlots(big, big))!;
      const [a, b] = [...big]
        .sort()
        .filter((id, _, arr) => arr.some((o) => o !== id && slots.get(o) === slots.get(id)));
      assert.ok(a && b, 'two ids share a slot among 60');
      const both = lineStyles([a, b], slots);
      assert.notEqual(key(both.get(a)), key(both.get(b)), 'a result never draws two lines alike');
    });

    it('slots read from a notebook file are checked: a bad object is ignored as a whole', () => {
      const good = { [all[0]]: 3, [all[1]]: 44 };
      assert.deepEqual(styleSlotsOf(good), new Map(Object.entries(good)));
      // "__proto__" is a key like any other (fromEntries), and a usable id.
      const proto = connectionStyleSlots(['__proto__', 'A'], ['__proto__']);
      assert.ok(Object.hasOwn(proto, '__proto__'));
      assert.equal(styleSlotsOf(proto)?.get('__proto__'), idHash('__proto__') % LINE_COLOURS.length);
      for (const bad of [
        null,
        'x',
        [1, 2],
        { A: 45 },
        { A: -1 },
        { A: 1.5 },
        { A: '3' },
        { 'has space': 1 },
        { '': 1 },
        { ['x'.repeat(201)]: 1 },
        { 'A\u0007': 1 },
        Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`D${i}`, 0])),
      ])
        assert.equal(styleSlotsOf(bad), undefined, JSON.stringify(bad)?.slice(0, 60));
      // A bad one falls back: styles as from the result's own list.
      assert.deepEqual(lineStyles([all[0]], styleSlotsOf({ [all[0]]: 99 })), lineStyles([all[0]]));
    });
  });
});
