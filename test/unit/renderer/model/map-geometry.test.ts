// The Map's geometry: the view fitted to the markers with a minimum extent, graticule steps and labels, the
// scale bar, and datasources at one spot gathered into one marker (a sensor at its reference site).
import assert from 'node:assert/strict';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { locationColumns } from '../../../../src/renderer/model/aq-views';
import {
  antimeridianRings,
  clusterMarkers,
  degreeText,
  fitView,
  graticule,
  MIN_SPAN_DEG,
  niceStep,
  scaleBar,
} from '../../../../src/renderer/model/map-geometry';

describe('renderer map geometry', () => {
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

  it('a result offers the Map only with locationLatitude and locationLongitude number columns', () => {
    const num = (name: string) => ({ name, kind: 'number' as const, values: Float64Array.of(1) });
    assert.equal(locationColumns({ rowCount: 1, columns: [num('avg_pm')] }), undefined);
    assert.equal(locationColumns({ rowCount: 1, columns: [num('locationLatitude')] }), undefined);
    const located = locationColumns({ rowCount: 1, columns: [num('locationLatitude'), num('locationLongitude')] });
    assert.equal(located?.lon.name, 'locationLongitude');
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

  it('the scale bar: a nice distance no longer than its room, true at the centre latitude', () => {
    // At 60°N one degree of longitude is 111.32 · 0.5 = 55.66 km; at 100 px per degree, 0.5566 km per px.
    const bar = scaleBar({ lon: 0, lat: 60, scale: 100 }, 120);
    assert.equal(bar.km, 50);
    assert.ok(Math.abs(bar.px - 50 / 0.5566) < 1e-6);
    assert.equal(bar.text, '50 km');
    assert.equal(scaleBar({ lon: 0, lat: 0, scale: 100_000 }, 120).text, '100 m'); // 0.0011 km per px: 100 m is 90 px
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
