// The Map's geometry, without a canvas (the Map view and its SVG image use it): the view fitted to the markers
// (with a minimum extent), the graticule step, the scale bar, markers at one spot gathered (a sensor at its
// reference site), labels placed without overlap, and which populated places a scale shows.

import { distanceKm } from './evaluation';

export interface ViewBox {
  /** Centre. */
  lon: number;
  lat: number;
  /** Pixels per degree of longitude. */
  scale: number;
}

/** The smallest extent (degrees) the fitted view shows around its markers: about 30 km, a city and around. */
export const MIN_SPAN_DEG = 0.3;

/** The view that shows every location with a margin (and at least MIN_SPAN_DEG), in a width × height canvas. */
export function fitView(
  locations: ReadonlyArray<{ lat: number; lon: number }>,
  width: number,
  height: number,
  minSpan = MIN_SPAN_DEG,
): ViewBox {
  let minLon = 180;
  let maxLon = -180;
  let minLat = 90;
  let maxLat = -90;
  for (const t of locations) {
    minLon = Math.min(minLon, t.lon);
    maxLon = Math.max(maxLon, t.lon);
    minLat = Math.min(minLat, t.lat);
    maxLat = Math.max(maxLat, t.lat);
  }
  if (minLon > maxLon) return { lon: 0, lat: 20, scale: width / 360 };
  const lat = (minLat + maxLat) / 2;
  const kx = Math.cos((lat * Math.PI) / 180);
  const spanLon = Math.max(minSpan / Math.max(kx, 0.1), (maxLon - minLon) * 1.3);
  const spanLat = Math.max(minSpan, (maxLat - minLat) * 1.3);
  const scale = Math.min(width / spanLon, height / (spanLat / kx));
  return { lon: (minLon + maxLon) / 2, lat, scale };
}

/** A "nice" step (1, 2 or 5 × 10^k) at or above `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/**
 * Graticule lines (degrees) in [from, to] at a nice step giving about `count` lines, none past ±`bound`
 * (90 for latitudes: a view zoomed out past a pole labels no 100°N).
 */
export function graticule(from: number, to: number, count = 6, bound = Infinity): { step: number; values: number[] } {
  const step = niceStep((to - from) / count);
  const values: number[] = [];
  const first = Math.ceil(Math.max(from, -bound) / step) * step;
  const last = Math.min(to, bound);
  for (let v = first; v <= last + 1e-9 && values.length < 100; v += step)
    values.push(Number((Math.round(v / step) * step).toPrecision(12)));
  return { step, values };
}

type LonLat = [number, number];

/**
 * A ring of the world outline as rings safe to draw with straight lines on the plane: a ring that crosses
 * the antimeridian (Fiji, the east of Russia) has its longitudes made continuous (179 → 181, not → -179, which
 * drew a line across the whole map), and is drawn again 360° over on the side it spills into; a ring around
 * a pole (Antarctica) is closed along that pole.
 */
export function antimeridianRings(ring: ReadonlyArray<readonly [number, number]>): LonLat[][] {
  if (ring.length === 0) return [];
  const out: LonLat[] = [[ring[0][0], ring[0][1]]];
  let shift = 0;
  for (let i = 1; i < ring.length; i++) {
    const d = ring[i][0] - ring[i - 1][0];
    if (d > 180) shift -= 360;
    else if (d < -180) shift += 360;
    out.push([ring[i][0] + shift, ring[i][1]]);
  }
  if (shift !== 0) {
    const pole = out.reduce((sum, [, lat]) => sum + lat, 0) < 0 ? -90 : 90;
    out.push([out[out.length - 1][0], pole], [out[0][0], pole]);
  }
  const lons = out.map(([lon]) => lon);
  const copies = [out];
  if (Math.min(...lons) < -180) copies.push(out.map(([lon, lat]): LonLat => [lon + 360, lat]));
  if (Math.max(...lons) > 180) copies.push(out.map(([lon, lat]): LonLat => [lon - 360, lat]));
  return copies;
}

/** A degree value as text with the hemisphere: 41.9°N, 12.5°E (longitudes within ±180); decimals as the step needs. */
export function degreeText(value: number, step: number, axis: 'lat' | 'lon'): string {
  // A view panned over the antimeridian goes on past ±180: 190°E is 170°W.
  const v = axis === 'lon' && Math.abs(value) > 180 ? value - 360 * Math.round(value / 360) : value;
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  const hemi = axis === 'lat' ? (v > 0 ? 'N' : v < 0 ? 'S' : '') : v > 0 ? 'E' : v < 0 ? 'W' : '';
  return `${Math.abs(v).toFixed(decimals)}°${hemi}`;
}

/**
 * The scale bar: a nice distance (km) of at most `maxPx` pixels at the view's centre latitude, and its length.
 * Kilometres per pixel are the great-circle distance (core's haversine) across `maxPx` pixels along that
 * latitude, so the bar shrinks with cos(latitude) as the map's east-west scale does.
 */
export function scaleBar(view: ViewBox, maxPx = 120): { km: number; px: number; text: string } {
  const kmPerPx = distanceKm({ lat: view.lat, lon: 0 }, { lat: view.lat, lon: maxPx / view.scale }) / maxPx;
  let km = niceStep((maxPx * kmPerPx) / 2);
  if (km / kmPerPx > maxPx) km /= 2;
  const text = km >= 1 ? `${km.toLocaleString('en-US')} km` : `${Math.round(km * 1000)} m`;
  return { km, px: km / kmPerPx, text };
}

/** Markers within `radius` pixels of an earlier one join its cluster (a sensor at its reference site). */
export function clusterMarkers<T>(marks: ReadonlyArray<{ x: number; y: number; item: T }>, radius = 4) {
  const out: Array<{ x: number; y: number; items: T[] }> = [];
  for (const m of marks) {
    const near = out.find((c) => (c.x - m.x) ** 2 + (c.y - m.y) ** 2 <= radius * radius);
    if (near) near.items.push(m.item);
    else out.push({ x: m.x, y: m.y, items: [m.item] });
  }
  return out;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** A label's spots around a point (radius `reach`): right of it, left, above, below. */
function labelSpots(m: { x: number; y: number; reach: number; w: number }, h: number, sides = 4): Box[] {
  const off = m.reach + 2;
  return [
    { x: m.x + off, y: m.y - h / 2, w: m.w, h },
    { x: m.x - off - m.w, y: m.y - h / 2, w: m.w, h },
    { x: m.x - m.w / 2, y: m.y - off - h, w: m.w, h },
    { x: m.x - m.w / 2, y: m.y + off, w: m.w, h },
  ].slice(0, sides);
}

/** The first box that stays inside the width × height canvas and overlaps none taken. */
function firstFree(choices: Box[], taken: readonly Box[], width: number, height: number): Box | undefined {
  const inside = (b: Box) => b.x >= 0 && b.y >= 0 && b.x + b.w <= width && b.y + b.h <= height;
  return choices.find((b) => inside(b) && !taken.some((t) => overlaps(b, t)));
}

const markBox = (m: { x: number; y: number; reach: number }): Box => ({
  x: m.x - m.reach,
  y: m.y - m.reach,
  w: 2 * m.reach,
  h: 2 * m.reach,
});

/**
 * Greedy label placement: each marker (centre x, y, radius `reach`) in order gets its label (`w` wide, `h` tall)
 * right of it, else left, else above, else below — the first spot that overlaps no marker, no label placed
 * before it and stays inside the width × height canvas; else none (the hover names it). O(n²) in the markers,
 * which are clusters of datasources (tens), not rows. `taken` gets the markers and the labels placed.
 */
export function placeLabels(
  marks: ReadonlyArray<{ x: number; y: number; reach: number; w: number }>,
  width: number,
  height: number,
  h = 13,
  taken: Box[] = [],
): Array<Box | undefined> {
  taken.push(...marks.map(markBox));
  return marks.map((m) => {
    const free = firstFree(labelSpots(m, h), taken, width, height);
    if (free) taken.push(free);
    return free;
  });
}

/**
 * Populated places around the datasources' markers and labels (`taken`, from placeLabels): in order (the most
 * important first), a place is drawn only when its dot and its name (right of it, else left) both fit clear of
 * everything taken before, so a place never covers a datasource, its label or another place. Returns the index
 * of each place kept with its label's box; at most `max`.
 */
export function placePlaces(
  places: ReadonlyArray<{ x: number; y: number; w: number }>,
  taken: Box[],
  width: number,
  height: number,
  max = 40,
  h = 12,
): Array<{ index: number; label: Box }> {
  const kept: Array<{ index: number; label: Box }> = [];
  for (let i = 0; i < places.length && kept.length < max; i++) {
    const dot = markBox({ ...places[i], reach: 3 });
    if (taken.some((t) => overlaps(dot, t))) continue;
    const label = firstFree(labelSpots({ ...places[i], reach: 3 }, h, 2), taken, width, height);
    if (!label) continue;
    taken.push(dot, label);
    kept.push({ index: i, label });
  }
  return kept;
}

/**
 * The least important rank of populated place (scripts/map-data.mjs: 1 a capital or ≥ 5 M people … 6 ≥ 50,000)
 * a view of `scale` pixels per degree of longitude draws: fewer places as it zooms out; none below 4 (the world);
 * all from 600 (a metropolitan area, about 1.3° across 760 px).
 */
export function placeRankLimit(scale: number): number {
  return [4, 12, 40, 100, 250, 600].filter((s) => scale >= s).length;
}

/** A spot's label: its datasources' names where known (else their ids), joined with " + ". */
export function spotLabel(ids: readonly string[], names?: ReadonlyMap<string, string>): string {
  return ids.map((id) => names?.get(id) || id).join(' + ');
}

/** The view scale (pixels per degree of longitude) from which the Map draws state / province boundaries. */
export const ADMIN1_MIN_SCALE = 20;

/**
 * Integers from the map assets' text (scripts/map-data.mjs `polyline`, the polyline algorithm): 5 bits a
 * character from "?" (63), 0x20 set on all but a number's last character, then zig-zag (even ≥ 0, odd < 0).
 */
export function decodeValues(text: string): number[] {
  const out: number[] = [];
  let [n, shift] = [0, 0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) - 63;
    n |= (c & 0x1f) << shift;
    shift += 5;
    if (c >= 0x20) continue;
    out.push(n & 1 ? ~(n >>> 1) : n >>> 1);
    [n, shift] = [0, 0];
  }
  return out;
}

/**
 * Polylines of [lon, lat] from the generated assets' encoding (scripts/map-data.mjs): each line is integers in
 * hundredths of a degree (decodeValues), the first point absolute, the others as differences from the one before.
 */
export function decodeLines(lines: readonly string[]): LonLat[][] {
  return lines.map((text) => {
    const line = decodeValues(text);
    const out: LonLat[] = [];
    let lon = 0;
    let lat = 0;
    for (let i = 0; i + 1 < line.length; i += 2) {
      lon += line[i];
      lat += line[i + 1];
      out.push([lon / 100, lat / 100]);
    }
    return out;
  });
}
