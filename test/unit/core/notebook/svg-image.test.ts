// The SVG drawing of a chart: the one builder behind the notebook's HTML export and the renderer's "Save image…"
// (PNG is rasterised from it). Well-formed XML (parsed strictly by sax), with a title, the unit, a legend entry per
// line and the data's time range; every text from the data escaped. And the host's check of an image's bytes.
import assert from 'node:assert/strict';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { svgChart } from '../../../../src/core/notebook/export/svg-chart';
import { timeRangeText } from '../../../../src/core/notebook/export/svg-plot';
import { imageProblem, MAX_IMAGE_BYTES } from '../../../../src/core/notebook/renderer-protocol';
import type { Column, Table } from '../../../../src/core/table/table';
import { allElements, parseXml, type XmlElement } from '../../../support/core/xml';

const HOSTILE = `<script>alert("&'")</script>`;
const T0 = Date.UTC(2026, 10, 25, 0, 0, 0);
const HOUR = 3_600_000;

/** Three datasources (one named as hostile text), hourly PM2.5 for 4 hours from T0. */
function pmTable(): Table {
  const ids = ['D1', 'D2', HOSTILE];
  const n = 12;
  const codes = Int32Array.from({ length: n }, (_, r) => r % 3);
  const time = Float64Array.from({ length: n }, (_, r) => T0 + Math.floor(r / 3) * HOUR);
  const pm = Float64Array.from({ length: n }, (_, r) => 5 + r);
  const columns: Column[] = [
    { name: 'datasourceId', kind: 'identifier', dict: ids, codes },
    { name: 'time', kind: 'time', values: time },
    {
      name: 'pm2_5ConcMassIndividual.value',
      kind: 'number',
      values: pm,
      metric: parseCanonicalLabel('pm2_5ConcMassIndividual.value'),
    },
  ];
  return { columns, rowCount: n };
}

const texts = (svg: XmlElement) =>
  allElements(svg)
    .filter((e) => e.name === 'text' || e.name === 'title')
    .map((e) => e.text);

describe('the SVG image of a chart (export and Save image…)', () => {
  it('is well-formed XML with a title, the unit, a legend entry per line and the time range', () => {
    const chart = svgChart(pmTable());
    assert.ok(chart);
    const svg = parseXml(chart.svg);
    assert.equal(svg.name, 'svg');
    assert.equal(svg.attributes.xmlns, 'http://www.w3.org/2000/svg');
    assert.ok(Number(svg.attributes.width) > 0 && Number(svg.attributes.height) > 0, 'a size for the PNG');
    const all = texts(svg);
    assert.ok(all.includes('pm2_5ConcMassIndividual.value'), 'the title names the metric');
    assert.ok(all.includes('µg/m³'), 'the unit on the value axis (core/aq/metric-info)');
    // The first and last hours of the data, in UTC: T0 and T0 + 3 h.
    assert.ok(all.includes('2026-11-25 00:00 – 2026-11-25 03:00 UTC'), `the time range in: ${all.join(' | ')}`);
    const legend = allElements(svg).filter((e) => e.name === 'g');
    assert.deepEqual(
      legend.map((g) => g.children.find((c) => c.name === 'title')?.text).sort(),
      ['D1', 'D2', HOSTILE].sort(),
      'one legend entry per datasource',
    );
  });

  it('escapes every text from the data: a datasource named <script>… is text, never an element', () => {
    const chart = svgChart(pmTable());
    assert.ok(chart);
    assert.ok(!chart.svg.includes('<script'), 'no markup from the data');
    const svg = parseXml(chart.svg);
    assert.ok(!allElements(svg).some((e) => e.name === 'script'));
    assert.ok(texts(svg).includes(HOSTILE), 'the name reads back as written');
  });

  it('the time range is the data’s first and last time, ISO 8601 in UTC', () => {
    assert.equal(timeRangeText(T0, T0 + 26 * HOUR + 30 * 60_000), '2026-11-25 00:00 – 2026-11-26 02:30 UTC');
  });
});

describe('the host’s check of an image it is sent to save', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const enc = (s: string) => new TextEncoder().encode(s);

  it('accepts a PNG (its 8-byte signature, PNG spec §5.2) and an SVG document', () => {
    assert.equal(imageProblem('png', png), undefined);
    assert.equal(imageProblem('svg', enc('<svg xmlns="http://www.w3.org/2000/svg"></svg>')), undefined);
    assert.equal(imageProblem('svg', enc('<?xml version="1.0"?>\n<svg/>')), undefined);
  });

  it('refuses other bytes, other formats and images over the bound', () => {
    assert.equal(imageProblem('png', enc('<svg/>')), 'not a PNG image');
    assert.equal(imageProblem('svg', png), 'not an SVG image');
    assert.equal(imageProblem('svg', enc('<html><script>')), 'not an SVG image');
    assert.match(imageProblem('exe', png) ?? '', /unknown image format/);
    assert.match(imageProblem('png', new Uint8Array(MAX_IMAGE_BYTES + 1)) ?? '', /over 32 MiB/);
  });
});
