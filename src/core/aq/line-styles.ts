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
// A datasource keeps its style across the results of a connection: the host places the connection's whole
// datasource list and tells each output its datasources' slots (connectionStyleSlots, ResultInfo.datasourceStyles).
import { isUsableId } from '../api/datasources';

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

/** The style at a slot: slot % colours is the colour, slot / colours the dash. */
function styleAt(slot: number): LineStyle {
  const colours = LINE_COLOURS.length;
  return { colour: LINE_COLOURS[slot % colours], dash: LINE_DASHES[Math.floor(slot / colours)] };
}

/** Each of `sorted` (sorted, unique) into a free slot from its hashed colour: solid first, then dashed. */
function place(sorted: readonly string[], taken: Uint8Array, out: Map<string, number>): void {
  const colours = LINE_COLOURS.length;
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
    out.set(sorted[k], slot);
  }
}

/**
 * Slots (0 … LINE_STYLE_COUNT - 1) the host gives each datasource of a result from its connection's whole
 * datasource list (ResultInfo.datasourceStyles), so that a datasource has one style in every result of it.
 */
export type StyleSlots = ReadonlyMap<string, number>;

/**
 * The style of each id. Give every id of the result (not only the lines drawn), so that hiding a line or
 * charting another metric of the same result keeps the others' styles. With `known` (the connection's slots),
 * an id keeps its slot there (the first in sorted order when two share one); the others take free slots as
 * without it. Beyond LINE_STYLE_COUNT ids styles repeat.
 */
export function lineStyles(ids: Iterable<string>, known?: StyleSlots): Map<string, LineStyle> {
  const sorted = [...new Set(ids)].sort();
  const taken = new Uint8Array(LINE_STYLE_COUNT);
  const slots = new Map<string, number>();
  const rest: string[] = [];
  for (const id of sorted) {
    const slot = known?.get(id);
    if (slot === undefined || taken[slot]) rest.push(id);
    else {
      taken[slot] = 1;
      slots.set(id, slot);
    }
  }
  place(rest, taken, slots);
  return new Map(sorted.map((id) => [id, styleAt(slots.get(id)!)]));
}

/** At most this many ids in a result's style slots (as its datasource names, core/aq/datasource-names). */
const MAX_STYLED_IDS = 5000;

/**
 * The slot of each of `ids` (a result's datasources) as the connection's whole datasource list `all` places them
 * (sorted, every id): the same datasource has the same slot in every result of the connection, whichever others it
 * shows. Only ids of `all` and of the result, at most MAX_STYLED_IDS.
 */
export function connectionStyleSlots(all: Iterable<string>, ids: Iterable<string>): Record<string, number> {
  const slots = new Map<string, number>();
  place([...new Set(all)].sort(), new Uint8Array(LINE_STYLE_COUNT), slots);
  const out: Array<[string, number]> = [];
  for (const id of new Set(ids)) {
    const slot = slots.get(id);
    if (slot !== undefined && out.length < MAX_STYLED_IDS) out.push([id, slot]);
  }
  // fromEntries: an id "__proto__" is an own key like any other.
  return Object.fromEntries(out);
}

/**
 * Style slots read from an output's metadata (a saved notebook is hostile input): an object of at most
 * MAX_STYLED_IDS ids of the service's shape, each an integer slot; anything else is undefined (styles as
 * without it).
 */
export function styleSlotsOf(value: unknown): StyleSlots | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length > MAX_STYLED_IDS) return undefined;
  const ok = ([id, slot]: [string, unknown]) =>
    isUsableId(id) && typeof slot === 'number' && Number.isInteger(slot) && slot >= 0 && slot < LINE_STYLE_COUNT;
  return entries.every(ok) ? new Map(entries as Array<[string, number]>) : undefined;
}
