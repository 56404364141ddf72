// One line style (colour and dash) per datasource, the same in every chart, view and export of a result:
// each id hashes (FNV-1a) to a preferred colour; ids are placed in sorted order, a taken style moves to the
// next free one (solid lines first, then the dashed variants), so up to LINE_COLOURS.length lines are solid
// and distinct, and up to LINE_STYLE_COUNT lines differ by colour or dash.
// The palette's rules, checked by test/unit/core/aq/line-styles.test.ts with core/aq/colour-difference:
// - every pair of colours is at least 15 CIEDE2000 units apart (told apart at a glance, also as thin lines);
// - every colour is at least 20 ΔE00 from each AQI band colour (core/aq/aqi.ts) and each theme's error red
//   (the QC-invalid marks), and none is a green or a purple (CIELAB hue 110°-180° at chroma > 12, 300°-340° at
//   chroma > 25): a line neither reads as "invalid" or as a band nor vanishes on a band behind it;
// - every colour has a contrast of at least 3:1 (WCAG non-text) on white and on the dark themes' #1f1f1f, so
//   one palette serves the light, dark and high-contrast themes and the exports.
// Chosen by a max-min search over the sRGB colours that keep these rules: blues, teals, browns, olives, pinks
// and greys.

/** Fifteen line colours (see the rules above). */
export const LINE_COLOURS = [
  '#3c69b4',
  '#0f96ff',
  '#8787ff',
  '#1e96b4',
  '#007878',
  '#1ea596',
  '#96785a',
  '#b48700',
  '#78690f',
  '#87960f',
  '#ff00c3',
  '#b47896',
  '#696969',
  '#8787a5',
  '#879687',
] as const;

/** Dash patterns (px on, px off) beyond the solid lines: [] is solid. */
const LINE_DASHES: ReadonlyArray<readonly number[]> = [[], [6, 3], [2, 3]];

export const LINE_STYLE_COUNT = LINE_COLOURS.length * LINE_DASHES.length;

export interface LineStyle {
  colour: string;
  /** On/off lengths in px; empty for a solid line. */
  dash: readonly number[];
}

/** FNV-1a (32 bit) of the id's UTF-16 code units: stable across runs and platforms. */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The style of each id. Give every id of the result (not only the lines drawn), so that hiding a line or
 * charting another metric of the same result keeps the others' styles. Beyond LINE_STYLE_COUNT ids styles repeat.
 */
export function lineStyles(ids: Iterable<string>): Map<string, LineStyle> {
  const sorted = [...new Set(ids)].sort();
  const colours = LINE_COLOURS.length;
  const taken = new Uint8Array(LINE_STYLE_COUNT);
  const out = new Map<string, LineStyle>();
  for (let k = 0; k < sorted.length; k++) {
    const preferred = idHash(sorted[k]) % colours;
    let slot = -1;
    for (let probe = 0; probe < LINE_STYLE_COUNT && slot < 0; probe++) {
      const dash = Math.floor(probe / colours);
      const s = dash * colours + ((preferred + probe) % colours);
      if (!taken[s]) slot = s;
    }
    if (slot < 0) slot = (preferred + k) % LINE_STYLE_COUNT;
    taken[slot] = 1;
    out.set(sorted[k], { colour: LINE_COLOURS[slot % colours], dash: LINE_DASHES[Math.floor(slot / colours)] });
  }
  return out;
}
