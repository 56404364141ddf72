// One line style (colour and dash) per datasource, the same in every chart, view and export of a result:
// each id hashes (FNV-1a) to a preferred colour; ids are placed in sorted order, a taken style moves to the
// next free one (solid lines first, then the dashed variants), so up to LINE_COLOURS.length lines are solid
// and distinct, and up to LINE_STYLE_COUNT lines differ by colour or dash. The colours are blues, cyans, teals
// and blue-greys only: never the QC-invalid red nor an AQI band's hue (green, yellow, orange, red, purple,
// maroon: core/aq/aqi.ts), so a line neither reads as "invalid" nor vanishes on a band behind it.

/** Mid-lightness blues, cyans and teals (hues 170°–240°) and two blue-greys: readable on light and dark themes. */
export const LINE_COLOURS = [
  '#1f77b4',
  '#17becf',
  '#3f51b5',
  '#00897b',
  '#64b5f6',
  '#546e7a',
  '#0097a7',
  '#7986cb',
  '#4db6ac',
  '#90a4ae',
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
