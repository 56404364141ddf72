// The SVG drawing of a chart: the one builder behind the notebook's HTML export and the renderer's "Save image…"
// (PNG is rasterised from it). Well-formed XML (parsed strictly by sax), with a title, the unit, a legend entry per
// line and the data's time range; every text from the data escaped. And the host's check of an image's bytes.
import assert from 'node:assert/strict';
import { AQI_CATEGORIES, type AqiCategory } from '../../../../src/core/aq/aqi';
import { calendarYear } from '../../../../src/core/aq/calendar';
import { LINE_COLOURS } from '../../../../src/core/aq/line-styles';
import { mapScene } from '../../../../src/core/aq/map-scene';
import { trend } from '../../../../src/core/aq/trend';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { svgCalendar } from '../../../../src/core/notebook/export/svg-calendar';
import { svgChart } from '../../../../src/core/notebook/export/svg-chart';
import { MAP_CREDIT, svgMap } from '../../../../src/core/notebook/export/svg-map';
import { svgScatter, timeRangeText, wrapText } from '../../../../src/core/notebook/export/svg-plot';
import { svgProfiles } from '../../../../src/core/notebook/export/svg-profiles';
import { svgTrend } from '../../../../src/core/notebook/export/svg-trend';
import { imageProblem, MAX_IMAGE_BYTES } from '../../../../src/core/notebook/renderer-protocol';
import { MAX_CHART_LINES } from '../../../../src/core/table/chart-columns';
import type { Column, Table } from '../../../../src/core/table/table';
import { daysFromCivil } from '../../../../src/core/time/iso';
import { UTC, zoneOf } from '../../../../src/core/time/zone';
import { hourlyMetrics } from '../../../support/core/metric-table';
import { allElements, parseXml, type XmlElement } from '../../../support/core/xml';

const HOSTILE = `<script>alert("&'")</script>`;
const T0 = Date.UTC(2026, 10, 25, 0, 0, 0);
const HOUR = 3_600_000;

/** Three datasources (one named as hostile text; or `ids`), hourly PM2.5 for 4 hours from T0. */
function pmTable(ids = ['D1', 'D2', HOSTILE]): Table {
  const k = ids.length;
  const n = 4 * k;
  const codes = Int32Array.from({ length: n }, (_, r) => r % k);
  const time = Float64Array.from({ length: n }, (_, r) => T0 + Math.floor(r / k) * HOUR);
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
    .filter((e) => e.name === 'text' || e.name === 'tspan' || e.name === 'title')
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
    // The first and last hours of the data, in UTC (no zone given): T0 and T0 + 3 h; the zone named once, on the axis.
    assert.ok(all.includes('2026-11-25 00:00 – 2026-11-25 03:00'), `the time range in: ${all.join(' | ')}`);
    assert.ok(all.includes('hour starting (UTC), data '), 'the axis says what a time means and its zone');
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

  it('an image saved alone says which lines are not drawn (beyond MAX_CHART_LINES); the export prints it under it', () => {
    const ids = Array.from({ length: MAX_CHART_LINES + 2 }, (_, i) => `D${String(i).padStart(2, '0')}`);
    const alone = svgChart(pmTable(ids), undefined, { notesInside: true });
    assert.ok(alone);
    const note = `Not drawn (over ${MAX_CHART_LINES} lines): D40, D41.`;
    assert.deepEqual(alone.notes.slice(1), [note]);
    assert.ok(texts(parseXml(alone.svg)).includes(note), 'in the image');
    const exported = svgChart(pmTable(ids));
    assert.ok(exported && !texts(parseXml(exported.svg)).includes(note), 'the export prints its notes itself');
  });

  it('the time range is the data’s first and last time, ISO 8601 in UTC', () => {
    assert.equal(timeRangeText(T0, T0 + 26 * HOUR + 30 * 60_000), '2026-11-25 00:00 – 2026-11-26 02:30 UTC');
  });
});

const PM = 'pm2_5ConcMassNowcast.value';
const NO2 = 'no2Conc1HourMean.value';
const TEMP = 'temperatureAmbientIndividual.value';
/** Two datasources, hourly for `hours` hours from T0: PM2.5 NowCast (EPA bands), NO2 1-hour mean (bands), temperature. */
const threeMetrics = (hours: number) =>
  hourlyMetrics(T0, ['D1', 'D2'], hours, {
    [PM]: (r) => 5 + (r % 12),
    [NO2]: (r) => 20 + (r % 7),
    [TEMP]: (r) => -3 + (r % 5),
  });
const byClass = (svg: XmlElement, name: string, cls: string) =>
  allElements(svg).filter((e) => e.name === name && e.attributes.class === cls);
/** The points of each drawn line: its path's M and L commands. */
const pathPoints = (svg: XmlElement) =>
  allElements(svg)
    .filter((e) => e.name === 'path')
    .map((e) => (e.attributes.d.match(/[ML]/g) ?? []).length);

describe('the Chart image as the output shows it: zone, AQI bands, several metrics, resampling', () => {
  it('draws the time axis in the notebook’s zone, the zone named once on the axis', () => {
    const chart = svgChart(threeMetrics(24), { metric: PM }, { zone: zoneOf('America/Denver') });
    assert.ok(chart);
    const all = texts(parseXml(chart.svg));
    // T0 = 2026-11-25T00:00Z is 2026-11-24 17:00 in America/Denver (MST, UTC−7 after DST ended on 2026-11-01;
    // Python's zoneinfo: datetime(2026, 11, 25, tzinfo=UTC).astimezone(ZoneInfo('America/Denver'))).
    assert.ok(all.includes('2026-11-24 17:00 – 2026-11-25 16:00'), `the data’s range in the zone: ${all.join(' | ')}`);
    assert.ok(all.includes('hour starting (America/Denver), data '), 'the zone named on the axis');
    assert.equal(all.filter((t) => t.includes('America/Denver')).length, 1, 'and only there');
    assert.ok(!all.some((t) => /UTC/.test(t)), 'no UTC anywhere');
    // 24 hours: a tick every 3 hours of Denver's clock (18:00, 21:00, 00:00, …), the dates where they change.
    const times = all.filter((t) => /^\d\d:\d\d$/.test(t));
    assert.deepEqual(times, ['18:00', '21:00', '00:00', '03:00', '06:00', '09:00', '12:00', '15:00']);
    assert.ok(all.includes('2026-11-24') && all.includes('2026-11-25'), 'local dates under the ticks');
    const utc = texts(parseXml(svgChart(threeMetrics(24), { metric: PM })!.svg));
    assert.ok(utc.includes('hour starting (UTC), data ') && utc.includes('00:00'), 'UTC without a zone');
  });

  it('draws the AQI category bands behind a metric with EPA breakpoints, each with its name (never colour alone)', () => {
    const svg = parseXml(svgChart(threeMetrics(4), { metric: PM })!.svg);
    const bands = byClass(svg, 'rect', 'band');
    // Values 5–16 µg/m³ on an axis 0–20: EPA's 2024 PM2.5 breakpoints put Good at 0–9.0, Moderate at 9.1–35.4.
    const good = AQI_CATEGORIES[0];
    const moderate = AQI_CATEGORIES[1];
    assert.deepEqual(
      bands.map((b) => b.attributes.fill),
      [good.colour, moderate.colour],
      'the bands inside the value range',
    );
    assert.deepEqual(
      byClass(svg, 'text', 'band-label').map((t) => t.text),
      ['Good', 'Moderate'],
    );
    const key = allElements(svg).filter((e) => e.name === 'g' && e.attributes.class === 'band-key');
    assert.deepEqual(
      key.map((g) => g.children.find((c) => c.name === 'text')?.text),
      AQI_CATEGORIES.map((c) => c.name),
      'a key of every category by name',
    );
    assert.ok(texts(svg).includes('US EPA AQI:'));
    const plain = parseXml(svgChart(threeMetrics(4), { metric: TEMP })!.svg);
    assert.equal(byClass(plain, 'rect', 'band').length, 0, 'no bands for a temperature');
    assert.equal(byClass(plain, 'text', 'band-label').length, 0);
  });

  it('draws `also`: three stacked panels, each titled with its metric and unit, its own axis, the lines in each', () => {
    const chart = svgChart(threeMetrics(6), { metric: PM, also: [NO2, TEMP] });
    assert.ok(chart);
    const svg = parseXml(chart.svg);
    assert.deepEqual(
      byClass(svg, 'text', 'panel-title').map((t) => t.text),
      [`${PM} [µg/m³]`, `${NO2} [ppb]`, `${TEMP} [°C]`],
    );
    const all = texts(svg);
    for (const unit of ['µg/m³', 'ppb', '°C']) assert.ok(all.includes(unit), `${unit} on a value axis`);
    assert.equal(pathPoints(svg).length, 6, 'two lines in each of three panels');
    assert.equal(byClass(svg, 'rect', 'band').length > 0, true, 'bands behind the PM2.5 and NO2 panels');
    assert.equal(chart.notes.length, 3, 'a note per metric');
    assert.ok(chart.notes[2].startsWith(`${TEMP} [°C], lines by datasourceId: 2 of 2 lines drawn`));
  });

  it('draws two metrics on left/right axes when the choice says so: the second’s lines dotted and named', () => {
    const svg = parseXml(svgChart(threeMetrics(6), { metric: PM, also: [NO2], twoAxes: true })!.svg);
    assert.equal(byClass(svg, 'text', 'panel-title').length, 0, 'one panel');
    const right = allElements(svg).filter((e) => e.name === 'text' && e.attributes.transform?.includes('rotate(90)'));
    assert.deepEqual(
      right.map((t) => t.text),
      ['ppb'],
      'the right axis’ unit',
    );
    const legend = allElements(svg)
      .filter((e) => e.name === 'g' && !e.attributes.class)
      .map((g) => g.children.find((c) => c.name === 'title')?.text);
    assert.deepEqual(legend, ['D1', 'D2', `D1 · ${NO2}`, `D2 · ${NO2}`]);
    const dotted = allElements(svg).filter((e) => e.name === 'path' && e.attributes['stroke-dasharray'] === '2 3');
    assert.equal(dotted.length, 2);
  });

  it('resamples: daily means per local day of the zone (as many points as local days), hourly means per hour', () => {
    // 72 hours from 2026-11-25T00:00Z: 3 UTC days, 4 local days in America/Denver (2026-11-24 17:00 to
    // 2026-11-27 16:00; counted with Python's zoneinfo over the 72 instants).
    const table = threeMetrics(72);
    const denver = svgChart(table, { metric: PM, resample: 'day' }, { zone: zoneOf('America/Denver') });
    assert.deepEqual(pathPoints(parseXml(denver!.svg)), [4, 4], 'one point per local day, each line');
    const all = texts(parseXml(denver!.svg));
    assert.ok(all.includes(`${PM} (daily means)`), 'the title says they are means');
    assert.ok(all.includes('day starting (America/Denver), data '), 'days starting in the zone');
    assert.ok(all.includes('2026-11-24 00:00 – 2026-11-27 00:00'), 'the first and last local day');
    const tenDays = svgChart(threeMetrics(240), { metric: PM, resample: 'day' }, { zone: zoneOf('America/Denver') });
    const tenDayTexts = texts(parseXml(tenDays!.svg));
    assert.ok(!tenDayTexts.some((t) => /^\d\d:\d\d$/.test(t)), 'ticks on local midnights: their dates alone');
    assert.ok(tenDayTexts.includes('2026-11-27'), tenDayTexts.join(' | '));
    const last = allElements(parseXml(denver!.svg)).filter((e) => e.name === 'text' && e.text === '2026-11-27');
    assert.equal(last[0]?.attributes['text-anchor'], 'end', 'the last day’s label ends inside the drawing');
    const utc = svgChart(table, { metric: PM, resample: 'day' }, { zone: UTC });
    assert.deepEqual(pathPoints(parseXml(utc!.svg)), [3, 3], 'three UTC days');
    const hourly = svgChart(table, { metric: PM, resample: 'hour' }, { zone: zoneOf('America/Denver') });
    assert.deepEqual(pathPoints(parseXml(hourly!.svg)), [72, 72], 'hourly data stay hourly');
  });

  it('takes the line styles it is given (the renderer’s), else the result’s datasource styles', () => {
    const styles = new Map([['D1', { colour: '#123456', dash: [] }]]);
    const svg = svgChart(threeMetrics(4), { metric: PM }, { styles })!.svg;
    assert.match(svg, /<path d="M[^"]*" fill="none" stroke="#123456"/);
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

describe('the SVG images of the Trend and the Collocation scatter', () => {
  it('Trend: monthly means and the Theil–Sen line, the unit, a legend, the months’ range and the statistics', () => {
    // 24 monthly means rising exactly 0.1 a month from 2025-01 (month 660): Theil–Sen's slope is 1.2 a year
    // (every pairwise slope is 0.1 per month; Sen 1968, the median of pairwise slopes).
    const months = Array.from({ length: 24 }, (_, i) => ({ month: 660 + i, mean: 10 + 0.1 * i, n: 720 }));
    const result = trend(months);
    assert.ok(result.ok);
    assert.ok(Math.abs(result.fit.slope - 1.2) < 1e-9, `slope ${result.fit.slope}`);
    const notes = [`Slope ${result.fit.slope.toFixed(2)} µg/m³ per year ${'and a long explanation '.repeat(8)}`];
    const svg = parseXml(svgTrend(months, result, { title: `pm at ${HOSTILE}`, unit: 'µg/m³', notes }));
    const all = texts(svg);
    assert.ok(all.includes(`pm at ${HOSTILE}`), 'the title, escaped and read back');
    assert.ok(all.includes('µg/m³'), 'the unit');
    assert.ok(all.includes('2025-01-01 00:00 – 2026-12-01 00:00'), 'the first and last month');
    assert.ok(all.includes('time (UTC), data '), 'the zone, named once on the time axis');
    assert.ok(all.includes('monthly mean') && all.includes('Theil–Sen line'), 'the legend');
    assert.ok(
      all.some((t) => t.startsWith('Slope 1.20 µg/m³ per year')),
      'the statistics',
    );
    const paths = allElements(svg).filter((e) => e.name === 'path');
    assert.equal(paths.length, 2);
    assert.equal((paths[1].attributes.d.match(/[ML]/g) ?? []).length, 2, 'the trend line from first to last month');
  });

  it('Trend with too few months: the means and the reason, no line', () => {
    const months = Array.from({ length: 5 }, (_, i) => ({ month: 660 + i, mean: 10, n: 720 }));
    const result = trend(months);
    assert.ok(!result.ok);
    const svg = parseXml(svgTrend(months, result, { title: 't', unit: '', notes: [result.reason] }));
    assert.equal(allElements(svg).filter((e) => e.name === 'path').length, 1);
    assert.ok(texts(svg).includes(result.reason));
  });

  it('notes wrap at the drawing’s width, at spaces', () => {
    assert.deepEqual(wrapText('aa bb cc dd', 5), ['aa bb', 'cc dd']);
    assert.deepEqual(wrapText('averylongword b', 5), ['averylongword', 'b']);
  });

  it('Scatter: a key of the pairs, 1:1 and the fitted line, the pairs’ time range, labels escaped', () => {
    const svg = parseXml(
      svgScatter({
        title: 'pm: sensor vs reference',
        xLabel: `reference ${HOSTILE} [µg/m³]`,
        yLabel: 'sensor D1 [µg/m³]',
        x: [1, 2, 3],
        y: [3, 5, 7],
        fit: { slope: 2, intercept: 1 },
        times: [T0 + 2 * HOUR, T0, T0 + HOUR],
      }),
    );
    const all = texts(svg);
    for (const t of ['3 pairs', '1:1', 'fit y = 2·x + 1', '2026-11-25 00:00 – 2026-11-25 02:00 UTC'])
      assert.ok(all.includes(t), `${t} in ${all.join(' | ')}`);
    assert.ok(all.includes(`reference ${HOSTILE} [µg/m³]`));
    const circles = allElements(svg).filter((e) => e.name === 'circle');
    assert.equal(circles.length, 3 + 1, 'the points and the key’s');
    // The palette's home (core/aq/line-styles), by position as the Collocation view colours its points and line.
    assert.ok(
      circles.every((c) => c.attributes.fill === LINE_COLOURS[0]),
      'the points in the palette’s first colour',
    );
    const fit = allElements(svg).find((e) => e.name === 'line' && e.children.some((c) => c.text === 'fit'));
    assert.equal(fit?.attributes.stroke, LINE_COLOURS[1], 'the fitted line in its second');
  });
});

describe('the SVG image of the Calendar', () => {
  it('a year of month grids: each day its mean and category letters (not colour alone), invalid days marked, a key', () => {
    const d0 = daysFromCivil(2026, 1, 1);
    const days = [
      { day: d0, mean: 5, hours: 24, valid: true },
      // 40 µg/m³ over 24 hours: Unhealthy for Sensitive Groups (EPA 2024 PM2.5 breakpoints, 35.5–55.4).
      { day: d0 + 1, mean: 40, hours: 24, valid: true },
      { day: d0 + 2, mean: 12, hours: 10, valid: false },
    ];
    const months = calendarYear(days, 2026, 'pm2_5');
    const title = `pm2_5 at ${HOSTILE}, 2026`;
    const svg = parseXml(svgCalendar(months, { title, unit: 'µg/m³', zone: 'UTC', categorised: true }));
    const all = texts(svg);
    for (const t of [title, '5.0', 'G', '40.0', 'USG', '(12.0)', '10 h', 'January 2026', 'December 2026'])
      assert.ok(all.includes(t), `${t} in the drawing`);
    assert.ok(all.includes('2026-01-01 – 2026-01-03 (days in UTC)'), 'the days’ range and zone');
    assert.ok(all.includes('Daily means [µg/m³], valid with ≥ 18 of 24 hours'), 'the unit');
    for (const c of AQI_CATEGORIES) assert.ok(all.includes(c.name), `${c.name} in the key`);
    const usg = AQI_CATEGORIES.find((c) => c.abbr === 'USG')!;
    assert.ok(
      allElements(svg).some(
        (e) => e.name === 'rect' && e.attributes.fill === usg.colour && e.attributes.width === '30',
      ),
      'the day coloured by its category',
    );
  });
});

describe('the SVG image of the Profiles', () => {
  it('four panels: each line’s mean and band, the unit, a legend, the band and zone in words, the time range', () => {
    const line = (label: string, colour: string, k: number, n: number) => ({
      label,
      style: { colour, dash: [] },
      mean: Array.from({ length: n }, (_, i) => (i === 2 ? null : k + i)),
      high: Array.from({ length: n }, (_, i) => (i === 2 ? null : k + i + 1)),
      low: Array.from({ length: n }, (_, i) => (i === 2 ? null : k + i - 1)),
    });
    const panels = [168, 24, 12, 7].map((n, p) => ({
      title: `panel ${p}`,
      label: (x: number) => (x % 6 === 0 ? String(x) : ''),
      lines: [line('D1', '#1f77b4', 5, n), line(HOSTILE, '#17becf', 10, n)],
    }));
    const out = svgProfiles({
      title: 'pm: profiles',
      unit: 'µg/m³',
      subtitle: 'Hours, weekdays and months in UTC; band = interquartile range',
      timeRange: [T0, T0 + 3 * HOUR],
      panels,
    });
    const svg = parseXml(out);
    const all = texts(svg);
    for (const t of [
      'pm: profiles',
      'panel 0',
      'panel 3',
      'µg/m³',
      'D1',
      HOSTILE,
      '2026-11-25 00:00 – 2026-11-25 03:00 UTC',
    ])
      assert.ok(all.includes(t), `${t} in the drawing`);
    assert.ok(all.some((t) => t.startsWith('Hours, weekdays and months in UTC; band = interquartile range')));
    const paths = allElements(svg).filter((e) => e.name === 'path');
    assert.equal(paths.length, 8, 'a mean line per line and panel');
    assert.equal((paths[0].attributes.d.match(/M/g) ?? []).length, 2, 'a gap where a value is missing');
    assert.equal(allElements(svg).filter((e) => e.name === 'polygon').length, 16, 'the band both sides of the gap');
  });
});

describe('the SVG image of the Map', () => {
  // Three datasources at San Francisco Bay (the Map view's scene, core/aq/map-scene.ts): two at one spot (a
  // sensor at its reference site), one named as hostile text.
  const usg = AQI_CATEGORIES.find((c) => c.abbr === 'USG')!;
  const good = AQI_CATEGORIES[0];
  const marks: Array<{ lon: number; lat: number; item: { name: string; category?: AqiCategory } }> = [
    { lon: -122.27, lat: 37.8, item: { name: HOSTILE, category: usg } },
    { lon: -122.42, lat: 37.77, item: { name: 'SF ref', category: good } },
    { lon: -122.42, lat: 37.77, item: { name: 'SF sensor', category: undefined } },
  ];
  const scene = mapScene({
    view: { lon: -122.3, lat: 37.78, scale: 800 },
    width: 760,
    height: 420,
    marks,
    text: (items) => items.map((i) => i.name).join(' + '),
    measure: (text, size) => text.length * size * 0.6,
  });
  const svgText = svgMap(scene, {
    title: `Map of 3 datasources: ${HOSTILE}`,
    subtitle: 'Markers: the latest pm2_5 [µg/m³] as its US EPA AQI category',
    timeRange: [T0, T0 + 3 * HOUR],
  });

  it('well-formed: the land, the places, markers with their category letters (not colour alone), names, scale, key', () => {
    const svg = parseXml(svgText);
    const all = texts(svg);
    for (const t of [
      'USG',
      'G',
      HOSTILE,
      'SF ref + SF sensor',
      'Berkeley',
      'data 2026-11-25 00:00 – 2026-11-25 03:00 UTC',
    ])
      assert.ok(all.includes(t), `${t} in: ${all.join(' | ')}`);
    // Oakland and San Francisco are where the datasources are: their markers and names take the spot.
    assert.ok(!all.includes('Oakland') && !all.includes('San Francisco'), 'no place over a datasource');
    assert.ok(all.includes(scene.scale.text) && /\d+ k?m/.test(scene.scale.text), 'the scale bar');
    for (const c of AQI_CATEGORIES) assert.ok(all.includes(c.name), `${c.name} in the key`);
    assert.ok(all.includes(MAP_CREDIT), 'GeoNames credited (CC BY)');
    const els = allElements(svg);
    assert.ok(
      els.some((e) => e.name === 'circle' && e.attributes.fill === usg.colour),
      'the marker in its colour',
    );
    assert.equal(els.filter((e) => e.name === 'path' && e.attributes.d?.includes('A12 12')).length, 2, 'a split spot');
    const land = els.find((e) => e.name === 'path' && e.attributes.fill === '#ececec');
    assert.ok(land && land.attributes.d.length > 100, 'the 1:50m coast');
    assert.ok(svgText.length < 300_000, `a city map stays small: ${svgText.length}`);
  });

  it('escapes every text: a datasource named <script>… is text, never an element', () => {
    assert.ok(!svgText.includes('<script'), 'no markup from the data');
    const svg = parseXml(svgText);
    assert.ok(!allElements(svg).some((e) => e.name === 'script'));
    assert.ok(texts(svg).includes(`Map of 3 datasources: ${HOSTILE}`));
  });
});
