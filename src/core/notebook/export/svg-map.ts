// The Map view's image: the scene the view paints (core/aq/map-scene.ts) as a standalone SVG: land and borders,
// state / province boundaries, the graticule with its degrees, populated places, each datasource's marker in its
// latest AQI category's colour with the category's letters (never colour alone; a spot shared by several split
// into slices), their names, the scale bar, the title, the metric, the data's time range and a key.
import { AQI_CATEGORIES, type AqiCategory } from '../../aq/aqi';
import type { MapScene, MapSpot, XY } from '../../aq/map-scene';
import { escapeXml } from './escape';
import { timeRangeText } from './svg-plot';

interface MapImage {
  title: string;
  /** What the markers say: the metric and its unit, or that it has no category. */
  subtitle: string;
  timeRange?: [number, number];
}

/** Where the map's context comes from (GeoNames' CC BY licence asks for the credit where its places are shown). */
export const MAP_CREDIT = 'Map: Natural Earth; places © GeoNames (CC BY)';

const TOP = 46;
const KEY_H = 40;
const INK = '#222';
const MUTED = '#777';
const r1 = (v: number) => Math.round(v * 10) / 10;

function path(lines: readonly XY[][], close: boolean): string {
  return lines.map((l) => `M${l.map(([x, y]) => `${r1(x)} ${r1(y)}`).join('L')}${close ? 'Z' : ''}`).join('');
}

const text = (x: number, y: number, body: string, attrs = '') =>
  `<text x="${r1(x)}" y="${r1(y)}"${attrs}>${escapeXml(body)}</text>`;

/** One spot: a disc in the category's colour with its letters, or slices of one for datasources sharing it. */
function spotMarks(s: MapSpot<{ category?: AqiCategory }>): string[] {
  const n = s.items.length;
  const r = n > 1 ? 12 : 9;
  const out: string[] = [];
  s.items.forEach((p, i) => {
    const a0 = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const a1 = a0 + (2 * Math.PI) / n;
    const fill = p.category?.colour ?? 'none';
    const at = (a: number) => `${r1(s.x + Math.cos(a) * r)} ${r1(s.y + Math.sin(a) * r)}`;
    out.push(
      n > 1
        ? `<path d="M${r1(s.x)} ${r1(s.y)}L${at(a0)}A${r} ${r} 0 0 1 ${at(a1)}Z" fill="${fill}" stroke="${INK}" stroke-width="1.5"/>`
        : `<circle cx="${r1(s.x)}" cy="${r1(s.y)}" r="${r}" fill="${fill}" stroke="${INK}" stroke-width="1.5"/>`,
    );
    if (!p.category) return;
    const mid = (a0 + a1) / 2;
    const [lx, ly] = n > 1 ? [s.x + Math.cos(mid) * r * 0.55, s.y + Math.sin(mid) * r * 0.55] : [s.x, s.y];
    const size = n > 2 || p.category.abbr.length > 1 ? 7 : n > 1 ? 9 : 10;
    out.push(
      text(
        lx,
        ly + size / 3,
        p.category.abbr,
        ` font-size="${size}" font-weight="600" text-anchor="middle" fill="${p.category.textColour}"`,
      ),
    );
  });
  if (n > 1) out.push(`<circle cx="${r1(s.x)}" cy="${r1(s.y)}" r="${r + 3}" fill="none" stroke="${INK}"/>`);
  if (s.label) out.push(text(s.label.x, s.label.y + 10, s.text, ` fill="${INK}"`));
  return out;
}

function mapBody(scene: MapScene<{ category?: AqiCategory }>): string[] {
  const { width, height, graticule: g, scale } = scene;
  const grid = [
    ...g.lons.map(({ x }) => `M${r1(x)} 0V${height}`),
    ...g.lats.map(({ y }) => `M0 ${r1(y)}H${width}`),
  ].join('');
  return [
    `<path d="${path(scene.land, true)}" fill="#ececec" fill-rule="evenodd" stroke="${MUTED}"/>`,
    `<path d="${path(scene.borders, false)}" fill="none" stroke="${MUTED}"/>`,
    `<path d="${path(scene.admin1, false)}" fill="none" stroke="${MUTED}" stroke-dasharray="6 3"/>`,
    `<path d="${grid}" fill="none" stroke="${MUTED}" stroke-opacity="0.35" stroke-dasharray="2 4"/>`,
    ...g.lons.map(({ x, text: t }) => text(x + 3, height - 4, t, ` font-size="10" fill="${MUTED}"`)),
    ...g.lats.map(({ y, text: t }) => text(4, y - 3, t, ` font-size="10" fill="${MUTED}"`)),
    ...scene.places.map(
      (p) =>
        `<circle cx="${r1(p.x)}" cy="${r1(p.y)}" r="2.5" fill="none" stroke="${MUTED}"/>${text(p.label.x, p.label.y + 9, p.name, ` font-size="10" font-style="italic" fill="${MUTED}"`)}`,
    ),
    ...scene.spots.flatMap(spotMarks),
    `<path d="M${r1(scale.x0)} ${scale.y - 5}V${scale.y}H${r1(scale.x1)}V${scale.y - 5}" fill="none" stroke="${INK}" stroke-width="2"/>`,
    text((scale.x0 + scale.x1) / 2, scale.y - 4, scale.text, ` text-anchor="middle" fill="${INK}"`),
  ];
}

/** The key: each category's colour with its letters and name, and the marks without a category and shared spots. */
function mapKey(y: number): string[] {
  const out: string[] = [];
  let x = 12;
  const item = (fill: string, ink: string, letters: string, name: string) => {
    out.push(
      `<rect x="${x}" y="${y - 11}" width="24" height="15" fill="${fill}" stroke="#bbb"/>${text(x + 12, y, letters, ` font-size="9" text-anchor="middle" fill="${ink}"`)}${text(x + 28, y, name)}`,
    );
    x += 36 + name.length * 6;
  };
  for (const c of AQI_CATEGORIES) item(c.colour, c.textColour, c.abbr, c.name);
  x = 12;
  y += 20;
  item('#fff', INK, '', 'no category');
  item('#fff', INK, '2', 'split: datasources at one spot');
  out.push(text(x + 12, y, MAP_CREDIT, ` font-size="9" fill="${MUTED}"`));
  return out;
}

/** The map with its title, what the markers say, the data's time range and the key, on a white page. */
export function svgMap(scene: MapScene<{ category?: AqiCategory }>, o: MapImage): string {
  const width = scene.width;
  const height = TOP + scene.height + KEY_H + 12;
  const range = o.timeRange ? `data ${timeRangeText(...o.timeRange)}` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(o.title)}" font-family="sans-serif" font-size="11" style="background:#fff">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    text(12, 16, o.title, ' font-weight="bold"'),
    text(12, 34, o.subtitle),
    range ? text(width - 12, 34, range, ' text-anchor="end" class="time-range"') : '',
    `<clipPath id="map-clip"><rect width="${width}" height="${scene.height}"/></clipPath>`,
    `<g transform="translate(0 ${TOP})" clip-path="url(#map-clip)">`,
    `<rect width="${width}" height="${scene.height}" fill="#fff" stroke="#bbb"/>`,
    ...mapBody(scene),
    '</g>',
    ...mapKey(TOP + scene.height + 24),
    '</svg>',
  ].join('\n');
}
