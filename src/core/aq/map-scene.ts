// The Map's drawing as data, in pixels: one scene that the Map view paints on its canvas and its image writes as SVG
// (core/notebook/export/svg-map.ts), so both show the same thing. The offline context (no tiles, no network): the
// Natural Earth 1:110m countries (world-atlas) at world scale; from region scale the 1:50m coastline and country
// borders, state / province boundaries and populated places (generated into ./map-data by scripts/map-data.mjs).
// Lines outside the view are skipped and points closer than a pixel merged, so a city view or an SVG stays small.

import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import admin1Data from './map-data/admin1-10m.json';
import land50Data from './map-data/land-50m.json';
import placesData from './map-data/places.json';
import {
  ADMIN1_MIN_SCALE,
  antimeridianRings,
  type Box,
  clusterMarkers,
  decodeLines,
  degreeText,
  graticule,
  placeLabels,
  placePlaces,
  placeRankLimit,
  scaleBar,
  type ViewBox,
} from './map-geometry';

type LonLat = [number, number];
export type XY = [number, number];

/** A line with its bounds, so a view skips it without looking at its points. */
interface Line {
  points: LonLat[];
  west: number;
  east: number;
  south: number;
  north: number;
}

function bounded(points: LonLat[]): Line {
  const lons = points.map(([lon]) => lon);
  const lats = points.map(([, lat]) => lat);
  return {
    points,
    west: Math.min(...lons),
    east: Math.max(...lons),
    south: Math.min(...lats),
    north: Math.max(...lats),
  };
}

const memo = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
};

/** Country outlines (1:110m) as rings of [lon, lat], antimeridian-safe (antimeridianRings). */
const outline110 = memo(() => {
  const topo = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
  const rings: Line[] = [];
  for (const f of feature(topo, topo.objects.countries).features) {
    const g = f.geometry;
    if (!g) continue;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const polygon of polygons)
      for (const ring of polygon as LonLat[][]) rings.push(...antimeridianRings(ring).map(bounded));
  }
  return rings;
});

const land50 = memo(() => ({
  rings: decodeLines(land50Data.rings).flatMap((r) => antimeridianRings(r).map(bounded)),
  borders: decodeLines(land50Data.borders).map(bounded),
}));

const admin1 = memo(() => decodeLines(admin1Data.lines).map(bounded));

interface Place {
  name: string;
  lon: number;
  lat: number;
  /** 1 (a capital or ≥ 5 M people) … 6 (≥ 50,000): scripts/map-data.mjs. */
  rank: number;
}

/** The populated places, the most important first. */
export const mapPlaces = memo((): Place[] => {
  const names = placesData.names.split('\n');
  const [xy] = decodeLines([placesData.coordinates]);
  return names.map((name, i) => ({ name, lon: xy[i][0], lat: xy[i][1], rank: Number(placesData.ranks[i]) }));
});

/** From this scale (pixels per degree of longitude) the Map draws the 1:50m coast and borders, and admin-1. */
export const FINE_MIN_SCALE = ADMIN1_MIN_SCALE;

/** Equirectangular with the centre latitude's aspect (good for a city or a region), and its inverse. */
export function projection(view: ViewBox, width: number, height: number) {
  const k = Math.cos((view.lat * Math.PI) / 180);
  return {
    project: (lon: number, lat: number): XY => [
      width / 2 + (lon - view.lon) * view.scale,
      height / 2 - ((lat - view.lat) * view.scale) / k,
    ],
    unproject: (x: number, y: number): LonLat => [
      view.lon + (x - width / 2) / view.scale,
      view.lat - ((y - height / 2) * k) / view.scale,
    ],
  };
}

type Projection = ReturnType<typeof projection>;

/** The lines that reach into the view, projected, with points within a pixel of the last kept merged. */
function projectLines(lines: readonly Line[], p: Projection, width: number, height: number): XY[][] {
  const [west, north] = p.unproject(0, 0);
  const [east, south] = p.unproject(width, height);
  const out: XY[][] = [];
  for (const line of lines) {
    if (line.east < west || line.west > east || line.north < south || line.south > north) continue;
    const xy: XY[] = [];
    for (const [lon, lat] of line.points) {
      const q = p.project(lon, lat);
      const last = xy[xy.length - 1];
      if (!last || Math.abs(q[0] - last[0]) >= 1 || Math.abs(q[1] - last[1]) >= 1) xy.push(q);
    }
    if (xy.length > 1) out.push(xy);
  }
  return out;
}

export interface MapSpot<T> {
  x: number;
  y: number;
  items: T[];
  /** Its datasources' names (spotLabel); drawn at `label` when that fits. */
  text: string;
  label?: Box;
}

export interface MapScene<T> {
  width: number;
  height: number;
  /** Whether the 1:50m context is drawn (region and city scale). */
  fine: boolean;
  /** Land to fill and outline: countries (1:110m) or the coast (1:50m). */
  land: XY[][];
  /** Lines between countries (1:50m; at 1:110m the countries' own rings draw them). */
  borders: XY[][];
  admin1: XY[][];
  graticule: { lons: Array<{ x: number; text: string }>; lats: Array<{ y: number; text: string }> };
  spots: MapSpot<T>[];
  places: Array<{ x: number; y: number; name: string; label: Box }>;
  scale: { x0: number; x1: number; y: number; text: string };
}

interface SceneInput<T> {
  view: ViewBox;
  width: number;
  height: number;
  /** One per datasource: where it is now. */
  marks: ReadonlyArray<{ lon: number; lat: number; item: T }>;
  /** A spot's label from its datasources. */
  text: (items: T[]) => string;
  /** The width (px) of a text at a font size (px). */
  measure: (text: string, size: number) => number;
}

function graticuleOf(p: Projection, width: number, height: number): MapScene<unknown>['graticule'] {
  const [west, north] = p.unproject(0, 0);
  const [east, south] = p.unproject(width, height);
  const lons = graticule(west, east, Math.max(3, Math.round(width / 140)));
  const lats = graticule(south, north, Math.max(3, Math.round(height / 110)), 90);
  const step = Math.min(lons.step, lats.step);
  return {
    lons: lons.values.map((lon) => ({ x: p.project(lon, 0)[0], text: degreeText(lon, step, 'lon') })),
    lats: lats.values.map((lat) => ({ y: p.project(0, lat)[1], text: degreeText(lat, step, 'lat') })),
  };
}

/** Places of the ranks this scale shows, inside the canvas, named where they fit clear of `taken`. */
function placesOf(
  p: Projection,
  view: ViewBox,
  width: number,
  height: number,
  taken: Box[],
  measure: SceneInput<unknown>['measure'],
) {
  const limit = placeRankLimit(view.scale);
  const candidates: Array<{ x: number; y: number; w: number; name: string }> = [];
  for (const place of mapPlaces()) {
    if (place.rank > limit) break;
    const [x, y] = p.project(place.lon, place.lat);
    if (x >= 0 && y >= 0 && x <= width && y <= height)
      candidates.push({ x, y, w: measure(place.name, 10), name: place.name });
  }
  return placePlaces(candidates, taken, width, height).map(({ index, label }) => ({ ...candidates[index], label }));
}

/** The scene of a view: context by scale, markers gathered by spot, labels then places placed without overlap. */
export function mapScene<T>(input: SceneInput<T>): MapScene<T> {
  const { view, width, height } = input;
  const p = projection(view, width, height);
  const fine = view.scale >= FINE_MIN_SCALE;
  const clusters = clusterMarkers(input.marks.map((m) => ({ ...m, ...xyOf(p.project(m.lon, m.lat)) })));
  const texts = clusters.map((c) => input.text(c.items));
  const taken: Box[] = [];
  const bar = scaleBar(view);
  const x1 = width - 14;
  const scale = { x0: x1 - bar.px, x1, y: height - 14, text: bar.text };
  const labels = placeLabels(
    clusters.map((c, i) => ({ x: c.x, y: c.y, reach: c.items.length > 1 ? 16 : 12, w: input.measure(texts[i], 11) })),
    width,
    height,
    13,
    taken,
  );
  taken.push({ x: scale.x0 - 4, y: scale.y - 18, w: bar.px + 8, h: 22 });
  return {
    width,
    height,
    fine,
    land: projectLines(fine ? land50().rings : outline110(), p, width, height),
    borders: fine ? projectLines(land50().borders, p, width, height) : [],
    admin1: fine ? projectLines(admin1(), p, width, height) : [],
    graticule: graticuleOf(p, width, height),
    spots: clusters.map((c, i) => ({ ...c, text: texts[i], label: labels[i] })),
    places: placesOf(p, view, width, height, taken, input.measure),
    scale,
  };
}

const xyOf = ([x, y]: XY) => ({ x, y });
