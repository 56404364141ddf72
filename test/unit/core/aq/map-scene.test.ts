// The Map's scene (what the view paints and its image writes): the offline context chosen by scale (1:110m countries
// for the world; the 1:50m coast and borders and every country's admin-1 lines from region scale), populated places
// by rank as the view zooms, and places never over a datasource's marker, its label or another place.
import assert from 'node:assert/strict';
import { fitView, placePlaces, placeRankLimit, type ViewBox } from '../../../../src/core/aq/map-geometry';
import { FINE_MIN_SCALE, type MapScene, mapPlaces, mapScene } from '../../../../src/core/aq/map-scene';

const W = 760;
const H = 420;
const measure = (text: string, size: number) => text.length * size * 0.6;

function scene(view: ViewBox, marks: Array<{ lon: number; lat: number; item: string }> = []): MapScene<string> {
  return mapScene({ view, width: W, height: H, marks, text: (items) => items.join(' + '), measure });
}

type Box = { x: number; y: number; w: number; h: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Whether (x, y) is inside the rings by the even-odd rule (as the view and the image fill them). */
function inside(rings: ReadonlyArray<ReadonlyArray<[number, number]>>, x: number, y: number): boolean {
  let odd = false;
  for (const r of rings)
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i];
      const [xj, yj] = r[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
  return odd;
}

// San Francisco Bay: the view the Map fits to sensors around the bay (about 1.3° across, a metropolitan area).
const BAY: ViewBox = { lon: -122.25, lat: 37.75, scale: 600 };
// Mid-bay between San Francisco and Oakland (37.80°N, 122.36°W, under the Bay Bridge): water.
const MID_BAY: [number, number] = [-122.36, 37.8];

describe('map scene', () => {
  it('at city scale the coast is the 1:50m one: San Francisco Bay is water (1:110m draws it as land)', () => {
    const city = scene(BAY);
    assert.ok(city.fine && BAY.scale >= FINE_MIN_SCALE);
    const [x, y] = [W / 2 + (MID_BAY[0] - BAY.lon) * BAY.scale, 0];
    const k = Math.cos((BAY.lat * Math.PI) / 180);
    const py = H / 2 - ((MID_BAY[1] - BAY.lat) * BAY.scale) / k + y;
    assert.equal(inside(city.land, x, py), false, 'mid-bay is water at 1:50m');
    // Oakland's downtown (37.805°N, 122.27°W) is land.
    assert.equal(
      inside(city.land, W / 2 + (-122.27 - BAY.lon) * BAY.scale, H / 2 - ((37.805 - BAY.lat) * BAY.scale) / k),
      true,
    );
    // The same view drawn at the 1:110m outline (a regional scale just below the threshold, re-projected) fills the bay.
    const coarse = scene({ ...BAY, scale: FINE_MIN_SCALE - 1 });
    assert.equal(coarse.fine, false);
    const s = FINE_MIN_SCALE - 1;
    assert.equal(
      inside(coarse.land, W / 2 + (MID_BAY[0] - BAY.lon) * s, H / 2 - ((MID_BAY[1] - BAY.lat) * s) / k),
      true,
    );
    assert.equal(coarse.admin1.length, 0, 'no admin-1 at world and continent scale');
  });

  it('admin-1 and country borders at region scale (California / Nevada line in a view of the US West)', () => {
    const west = scene({ lon: -119, lat: 38, scale: 40 });
    assert.ok(west.admin1.length > 0, 'state lines');
    assert.ok(west.borders.length === 0 || west.borders.every((l) => l.length > 1));
    // A view of Europe: the 1:50m country borders.
    const europe = scene({ lon: 10, lat: 48, scale: 40 });
    assert.ok(europe.borders.length > 5, `borders ${europe.borders.length}`);
  });

  it('admin-1 for every country at region scale: the state lines of Germany, India and China', () => {
    // Views of each country's middle at region scale (40 px a degree, about 19° across): Germany's 16 Länder,
    // India's states, China's provinces (Natural Earth 1:10m admin-1), none below region scale.
    for (const [name, lon, lat] of [
      ['Germany', 10.5, 51],
      ['India', 79, 22],
      ['China', 110, 33],
    ] as const) {
      const region = scene({ lon, lat, scale: 40 });
      assert.ok(region.admin1.length >= 10, `${name}: ${region.admin1.length} admin-1 lines`);
      assert.equal(scene({ lon, lat, scale: FINE_MIN_SCALE - 1 }).admin1.length, 0, `${name} below region scale`);
    }
  });

  it('places by rank: none for the world, the largest for a continent, towns at city scale', () => {
    assert.equal(placeRankLimit(2), 0);
    assert.equal(placeRankLimit(600), 6);
    for (let s = 1; s < 2000; s *= 1.5)
      assert.ok(placeRankLimit(s * 1.5) >= placeRankLimit(s), 'more places as it zooms in');
    assert.equal(scene(fitView([], W, H)).places.length, 0, 'the world view names no place');
    const us = scene({ lon: -98, lat: 39, scale: 12 });
    // A name may be two places (Vancouver, BC and WA): the most important one.
    const ranks = new Map<string, number>();
    for (const p of mapPlaces()) ranks.set(p.name, Math.min(p.rank, ranks.get(p.name) ?? 9));
    assert.ok(us.places.length > 0);
    for (const p of us.places)
      assert.ok((ranks.get(p.name) ?? 9) <= placeRankLimit(12), `${p.name} drawn at a continent's scale`);
    const bay = scene(BAY).places.map((p) => p.name);
    // GeoNames: San Francisco 805,235 people (rank 3), Oakland 390,724 (4), Berkeley 112,580 (5): all named.
    for (const town of ['San Francisco', 'Oakland', 'Berkeley']) assert.ok(bay.includes(town), `${town} in ${bay}`);
    assert.ok(!scene({ ...BAY, scale: 120 }).places.some((p) => p.name === 'Berkeley'), 'Berkeley only closer in');
  });

  it('places never cover a datasource marker, its label, another place or the scale bar', () => {
    // Twelve datasources around the bay (a grid 0.1° apart), labelled with long names.
    const marks = Array.from({ length: 12 }, (_, i) => ({
      lon: -122.5 + (i % 4) * 0.12,
      lat: 37.7 + Math.floor(i / 4) * 0.1,
      item: `sensor ${i} at a long-named place`,
    }));
    const s = scene(BAY, marks);
    assert.ok(s.places.length > 0, 'some places still fit');
    const markers = s.spots.map((c) => ({ x: c.x - 12, y: c.y - 12, w: 24, h: 24 }));
    const labels = s.spots.flatMap((c) => (c.label ? [c.label] : []));
    assert.ok(labels.length > 0);
    const bar = { x: s.scale.x0, y: s.scale.y - 5, w: s.scale.x1 - s.scale.x0, h: 5 };
    const placeBoxes = s.places.flatMap((p) => [{ x: p.x - 3, y: p.y - 3, w: 6, h: 6 }, p.label]);
    for (const p of placeBoxes) {
      for (const m of [...markers, ...labels, bar])
        assert.ok(!overlaps(p, m), `place ${JSON.stringify(p)} over ${JSON.stringify(m)}`);
      assert.ok(p.x >= 0 && p.y >= 0 && p.x + p.w <= W && p.y + p.h <= H, 'inside the canvas');
    }
    for (const [i, a] of s.places.entries())
      for (const b of s.places.slice(i + 1)) assert.ok(!overlaps(a.label, b.label), `${a.name} / ${b.name}`);
  });

  it('placePlaces keeps the first place of a crowded spot and drops one whose dot or name cannot fit', () => {
    const taken: Box[] = [{ x: 90, y: 90, w: 20, h: 20 }];
    const kept = placePlaces(
      [
        { x: 100, y: 100, w: 30 }, // under a marker: dropped
        { x: 200, y: 100, w: 30 }, // free: kept, named right of its dot
        { x: 204, y: 100, w: 30 }, // its dot on the place before: dropped
        { x: 300, y: 100, w: 30 }, // free
      ],
      taken,
      400,
      300,
    );
    assert.deepEqual(
      kept.map((k) => k.index),
      [1, 3],
    );
    assert.deepEqual(kept[0].label, { x: 205, y: 94, w: 30, h: 12 });
    assert.equal(placePlaces([{ x: 10, y: 10, w: 30 }], [], 400, 300, 0).length, 0, 'at most max');
  });
});
