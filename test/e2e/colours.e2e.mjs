// A datasource's line colour is the same in every chart of a notebook (issue 30, item 7): four cells on the
// built-in Local emulator (every datasource; one of them alone; a sql cell over the first; a follow cell of it), each
// output's Chart opened and the legend marker of DCZZDK8X read (its colour and dash, as uPlot draws the line).
// Styles come from the connection's whole datasource list (ResultInfo.datasourceStyles, core/aq/line-styles):
// placed by each result's own list instead, DCZZDK8X (Node 9) alone takes its hashed colour (#0f96ff), which is
// another datasource's among all of them (checked: this test fails with the widget's styleSlots left out).
// Screenshots: .artifacts/screenshots/colours-<cell>.png (the output, clipped to the notebook).
import assert from 'node:assert/strict';
import {
  eventually,
  findTable,
  openNotebook,
  openView,
  outputShot,
  runAll,
  useWorkbench,
  writeNotebook,
} from './workbench.mjs';

const ID = 'DCZZDK8X';
const HOURLY = ['outputFrequency: hour', 'startTime: -24h', 'format: csv-wide'];
const CELLS = [
  ['recent as everything', 'allDatasources: true', 'metricSelect: only pm2_5ConcMassNowcast', ...HOURLY],
  ['recent', `datasourceIds: ${ID}`, 'metricSelect: only pm2_5ConcMassNowcast', 'qcAssessment: true', ...HOURLY],
  ['sql', `SELECT * EXCLUDE (sourceId) FROM everything WHERE datasourceId = '${ID}'`],
  [
    'follow',
    `datasourceIds: ${ID}`,
    'outputFrequency: hour',
    'metricSelect: only pm2_5ConcMassNowcast + pm2_5ConcMass1HourMean',
    'format: csv-wide',
  ],
];
/** Each cell's output by its headers (the outputs' order in the webview is not the cells'). */
const OUTPUTS = {
  all: { has: ['sourceId', 'pm2_5ConcMassNowcast'], hasNot: ['pm2_5ConcMass1HourMean'] },
  alone: { has: ['pm2_5ConcMassNowcast.qcAssessment'] },
  sql: { has: ['pm2_5ConcMassNowcast'], hasNot: ['sourceId'] },
  follow: { has: ['pm2_5ConcMass1HourMean'] },
};

/** The output's Chart opened: each legend line's label with its marker's colour and border style (the dash). */
async function chartLegend(page, table) {
  await openView(page, table, 'chart');
  const chart = table.locator(':scope > .mt-chart');
  await chart.locator('canvas').first().waitFor({ timeout: 30_000 });
  const rows = chart.locator('.u-legend .u-series');
  await eventually(async () => (await rows.count()) > 1, 'the chart legend', 100);
  const entries = await rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const m = tr.querySelector('th .u-marker');
      const style = m ? getComputedStyle(m) : undefined;
      return [tr.querySelector('th .u-label')?.textContent ?? '', `${style?.borderTopColor} ${style?.borderTopStyle}`];
    }),
  );
  return new Map(entries.slice(1).filter(([label]) => label !== 'QC-invalid'));
}

describe('e2e: one colour per datasource across the charts of a notebook', function () {
  this.timeout(600_000);
  let page;
  useWorkbench(async (p) => {
    page = p;
    await writeNotebook(page, 'colours.measnb', CELLS);
  });

  it(`${ID} has the same line colour among all datasources, alone, in a sql cell and in a follow cell`, async () => {
    await openNotebook(page, 'colours.measnb');
    await runAll(page);
    const seen = {};
    for (const [name, headers] of Object.entries(OUTPUTS)) {
      const { table } = await findTable(page, headers, `the ${name} output`);
      const legend = await chartLegend(page, table);
      seen[name] = legend.get(ID);
      console.log(
        `      ${name}: ${legend.size} lines, ${ID} ${seen[name]}: ${await outputShot(page, table, `colours-${name}`)}`,
      );
      if (name === 'all') assert.ok(legend.size >= 15, `every datasource a line: ${[...legend.keys()].join(', ')}`);
      else assert.deepEqual([...legend.keys()], [ID], `${name}: one line`);
    }
    assert.match(seen.all, /^rgb\(\d+, \d+, \d+\) (solid|dashed)$/);
    for (const name of ['alone', 'sql', 'follow']) assert.equal(seen[name], seen.all, `${ID} in the ${name} chart`);
  });
});
