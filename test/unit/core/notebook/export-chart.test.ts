import assert from 'node:assert/strict';
import { resultDatasourceInfo } from '../../../../src/core/aq/datasource-names';
import { lineStyles } from '../../../../src/core/aq/line-styles';
import { metricUnit } from '../../../../src/core/aq/metric-info';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { codeCell, type Notebook } from '../../../../src/core/notebook';
import { exportNotebook } from '../../../../src/core/notebook/export';
import { svgChart } from '../../../../src/core/notebook/export/svg-chart';
import { niceTicks, timeTicks } from '../../../../src/core/notebook/export/svg-plot';
import { parseNotebook, serializeNotebook } from '../../../../src/core/notebook/file-format';
import { resultOutput, runCell } from '../../../../src/core/run/index.node';
import { tableOutput } from '../../../../src/core/run/outputs';
import { cellText, type NumericColumn, numberAt, type Table } from '../../../../src/core/table/table';
import { systemClock } from '../../../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../../../src/emulator';
import { hourlyMetrics } from '../../../support/core/metric-table';

/** Datasources with a value of the column: the lines its chart has. */
function withValues(table: Table, name: string): number {
  const col = table.columns.find((c) => c.name === name) as NumericColumn;
  const ids = table.columns.find((c) => c.name === 'datasourceId')!;
  const seen = new Set<string>();
  for (let r = 0; r < table.rowCount; r++) if (!Number.isNaN(numberAt(col, r))) seen.add(cellText(ids, r));
  return seen.size;
}

/** The legend entries of an exported chart (each a <g> with the line's full name). */
const legendNames = (svg: string) => [...svg.matchAll(/<g><title>([^<]*)<\/title>/g)].map((m) => m[1]);

describe('notebook export: the chart the output showed', () => {
  let emu: RunningEmulator;
  let table: Table;
  let source: string;
  let result: Awaited<ReturnType<typeof runCell>>;
  let no2: string;

  before(async () => {
    emu = await startEmulator({ seed: 4, clock: '2026-11-20T12:00:30Z' });
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const ids = emu.facts.datasources
      .slice(0, 15)
      .map((d) => d.datasourceId)
      .join(', ');
    source = `recent\ndatasourceIds: ${ids}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast + no2Conc1HourMean\nstartTime: -24h`;
    result = await runCell(source, { client, org: emu.org, now: new Date(emu.clock.now()) });
    table = result.table;
    no2 = table.columns.find((c) => c.name.startsWith('no2Conc1HourMean') && c.kind === 'number')!.name;
  });
  after(() => emu.close());

  it('draws the metric chosen in the output (cell metadata `chart`), a line per datasource with values, each in the legend', () => {
    const lines = withValues(table, no2);
    assert.ok(lines > 8, `more lines than the old export's 8: ${lines}`);
    const nb: Notebook = {
      metadata: {},
      cells: [{ ...codeCell(source, [resultOutput(result)]), metadata: { chart: { metric: no2 } } }],
    };
    const html = exportNotebook(nb, 'html');
    const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>'));
    assert.match(svg, new RegExp(`aria-label="${no2.replace('.', '\\.')}"`), 'the chosen metric, not the first');
    assert.equal((svg.match(/<path d="M/g) ?? []).length, lines, 'every line');
    assert.equal(new Set(legendNames(svg)).size, lines, 'a legend entry per line');
    const unit = metricUnit(table.columns.find((c) => c.name === no2)!.metric);
    assert.ok(unit, 'the catalogue knows the unit');
    assert.ok(svg.includes(`>${unit}</text>`), 'the unit on the value axis');
    assert.match(
      html,
      new RegExp(`no2Conc1HourMean[^<]* \\[${unit}\\], lines by datasourceId: ${lines} of ${lines} lines drawn\\.`),
    );
    const timeLabels = [...svg.matchAll(/>(\d\d:\d\d)<\/text>/g)].map((m) => m[1]);
    assert.ok(timeLabels.length >= 4, `time ticks in 24-hour ISO form: ${timeLabels}`);
    assert.match(svg, />2026-11-(19|20)<\/text>/, 'the date under the first tick of a day');
    assert.doesNotMatch(svg, /\b(AM|PM)\b|\d+\/\d+\/\d+/, 'no 12-hour or US dates');
    const valueTicks = [...svg.matchAll(/text-anchor="end">(-?[\d.]+)<\/text>/g)];
    assert.ok(valueTicks.length >= 3, 'value ticks between min and max');
  });

  it('without a choice it draws the chart the renderer opens on: the first metric, lines by datasource', () => {
    const chart = svgChart(table)!;
    assert.match(chart.svg, /aria-label="pm2_5ConcMassNowcast/);
    assert.equal(
      new Set(legendNames(chart.svg)).size,
      withValues(table, table.columns.find((c) => c.name.startsWith('pm2_5ConcMassNowcast'))!.name),
    );
    const one = svgChart(table, { metric: no2, linesBy: '' })!;
    assert.equal((one.svg.match(/<path d="M/g) ?? []).length, 1, '"(one line)"');
  });

  it('a datasource keeps its line style whichever metric is charted', () => {
    const style = (svg: string, id: string) =>
      new RegExp(`<g><title>${id}</title><line [^>]*stroke="(#[0-9a-f]+)"([^>]*)/>`).exec(svg)?.slice(1).join('');
    const a = svgChart(table)!.svg;
    const b = svgChart(table, { metric: no2 })!.svg;
    const both = legendNames(a).filter((id) => legendNames(b).includes(id));
    assert.ok(both.length >= 5, String(both.length));
    for (const id of both) assert.equal(style(a, id), style(b, id), id);
  });

  it("a datasource has the output's colour in every chart of the notebook (ResultInfo.datasourceStyles); bad ones fall back", async () => {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const list = (await client.listDatasources(emu.org)).datasources;
    const all = list.map((d) => d.datasourceId);
    // One whose style alone (the result's own list) differs from its style among all of them.
    const full = lineStyles(all);
    const lone = all.find((id) => lineStyles([id]).get(id)!.colour !== full.get(id)!.colour)!;
    assert.ok(lone, 'a datasource that changes colour alone without the connection list');
    const cell = (ids: string[], info?: Record<string, unknown>) => {
      const src = `recent\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast\nstartTime: -24h`;
      return runCell(src, { client, org: emu.org, now: new Date(emu.clock.now()) }).then((r) => {
        const out = resultOutput(r);
        const ds = r.table.columns.find((c) => c.name === 'datasourceId') as { dict: string[] };
        const measnb = { ...(out.metadata?.measnb as object), ...(info ?? resultDatasourceInfo(list, ds.dict, true)) };
        return codeCell(src, [{ ...out, metadata: { ...out.metadata, measnb } }]);
      });
    };
    const strokeOf = (html: string, id: string, n: number) =>
      [...html.matchAll(new RegExp(`<g><title>${id}</title><line [^>]*stroke="(#[0-9a-f]+)"`, 'g'))][n]?.[1];
    // Saved and read back as a .measnb file (the slots are hostile input there), then exported.
    const nb = parseNotebook(serializeNotebook({ metadata: {}, cells: [await cell(all), await cell([lone])] }));
    const html = exportNotebook(nb, 'html');
    assert.equal(strokeOf(html, lone, 0), full.get(lone)!.colour, 'its colour among all');
    assert.equal(strokeOf(html, lone, 1), full.get(lone)!.colour, 'the same colour alone');
    // The Markdown export's data images are the same drawings.
    const images = [...exportNotebook(nb, 'md').matchAll(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/g)];
    const md = images.map((m) => Buffer.from(m[1], 'base64').toString('utf8')).join('\n');
    assert.equal(strokeOf(md, lone, 1), full.get(lone)!.colour, 'the same colour alone in the Markdown export');
    const bad: Notebook = { metadata: {}, cells: [await cell([lone], { datasourceStyles: { [lone]: 'red' } })] };
    assert.equal(strokeOf(exportNotebook(bad, 'html'), lone, 0), lineStyles([lone]).get(lone)!.colour, 'bad: own list');
  });
});

describe('notebook export: several metrics, resampling and the zone of the chart the output showed', () => {
  const PM = 'pm2_5ConcMassNowcast.value';
  const NO2 = 'no2Conc1HourMean.value';
  const T0 = Date.UTC(2026, 10, 25);
  /** One datasource, hourly PM2.5 NowCast and NO2 for 72 hours from 2026-11-25T00:00Z. */
  const table = () => hourlyMetrics(T0, ['D1'], 72, { [PM]: (r) => 5 + (r % 12), [NO2]: (r) => 20 + (r % 7) });
  const denver = { name: 'America/Denver', dayBoundary: 'clock' as const };
  const notebook = (chart: unknown): Notebook => ({
    metadata: { timeZone: 'America/Denver' },
    cells: [{ ...codeCell('recent', [tableOutput(table(), { info: { timeZone: denver } })]), metadata: { chart } }],
  });
  const svgOf = (html: string) => html.slice(html.indexOf('<svg'), html.indexOf('</svg>') + 6);

  it('HTML: the `also` metrics in their panels, daily means per local day of the output’s zone, the zone on the axis', () => {
    const html = exportNotebook(notebook({ metric: PM, also: [NO2], resample: 'day' }), 'html');
    const svg = svgOf(html);
    const titles = [...svg.matchAll(/class="panel-title"[^>]*>([^<]*)</g)].map((m) => m[1]);
    assert.deepEqual(titles, [`${PM} [µg/m³]`, `${NO2} [ppb]`], 'a panel per metric, each with its unit');
    // 72 hours from 2026-11-25T00:00Z span 4 local days in America/Denver (Python zoneinfo): 4 daily means a line.
    const points = [...svg.matchAll(/<path d="([^"]*)"/g)].map((m) => (m[1].match(/[ML]/g) ?? []).length);
    assert.deepEqual(points, [4, 4]);
    assert.match(svg, />day starting \(America\/Denver\), data </);
    assert.match(svg, /2026-11-24 00:00 – 2026-11-27 00:00/);
    assert.match(html, new RegExp(`${NO2.replace('.', '\\.')} \\[ppb\\], lines by datasourceId: 1 of 1 lines drawn`));
  });

  it('HTML: left/right axes when the cell’s choice says so', () => {
    const svg = svgOf(exportNotebook(notebook({ metric: PM, also: [NO2], twoAxes: true }), 'html'));
    assert.doesNotMatch(svg, /class="panel-title"/);
    assert.match(svg, /rotate\(90\)" text-anchor="middle">ppb</);
  });

  it('Markdown: the same chart as an SVG data image, with its notes', () => {
    const md = exportNotebook(notebook({ metric: PM, also: [NO2], resample: 'day' }), 'md');
    const m = /!\[chart\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/.exec(md);
    assert.ok(m, 'a data image');
    const svg = Buffer.from(m[1], 'base64').toString('utf8');
    const html = svgOf(exportNotebook(notebook({ metric: PM, also: [NO2], resample: 'day' }), 'html'));
    assert.equal(svg, html, 'the drawing the HTML export has');
    assert.match(md, /_pm2_5ConcMassNowcast\.value \\\[µg\/m³\\\], lines by datasourceId: 1 of 1 lines drawn\._/);
  });
});

describe('svg plot ticks', () => {
  it('value ticks step by 1, 2, 2.5 or 5 × 10^k and cover the range', () => {
    // Worked by hand: span 37.2 / 5 = 7.44 → step 10; 0.013 / 5 = 0.0026 → 0.005.
    assert.deepEqual(niceTicks(3.1, 40.3), { ticks: [0, 10, 20, 30, 40, 50], step: 10 });
    assert.deepEqual(niceTicks(0.002, 0.015).ticks, [0, 0.005, 0.01, 0.015]);
  });

  it('time ticks fall on whole UTC hours or days', () => {
    const h = 3_600_000;
    const t0 = Date.UTC(2026, 10, 19, 12, 17);
    const ticks = timeTicks(t0, t0 + 24 * h);
    assert.ok(ticks.length <= 8 && ticks.length >= 4);
    for (const t of ticks) assert.equal(t % (3 * h), 0, 'every 3 hours on the hour');
    assert.equal(timeTicks(t0, t0 + 30 * 24 * h)[0] % (24 * h), 0, 'days start at 00:00 UTC');
  });
});
