// The registry of views (src/renderer/views/registry.ts) on real tables: an emulator result (every datasource,
// hourly, with coordinates), sql cells over it run by DuckDB (one datasource, no coordinates, a per-datasource
// aggregate, a one-row aggregate), and the two fixtures read from the service's own csv files. Each table gets
// exactly the tabs whose view applies (issue 30 item 8: Chart needs a time column and a metric; a one-row
// aggregate gets no Chart, Map or Collocation; Collocation needs two datasources; Map needs coordinates).
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { runCell } from '../../../../src/core/run/index.node';
import { SqlSession } from '../../../../src/core/sql/session.node';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import type { Table } from '../../../../src/core/table/table';
import { systemClock } from '../../../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../../../src/emulator';
import { summaryTable } from '../../../../src/renderer/model/aq-views';
import { identityRows } from '../../../../src/renderer/model/sort';
import { offeredTabs } from '../../../../src/renderer/model/tabs';
import { VIEWS } from '../../../../src/renderer/views/registry';

const FIXTURES = join(__dirname, '../../../fixtures');
const ALL = ['table', 'chart', 'summary', 'exceedances', 'profiles', 'calendar', 'trend', 'collocation', 'map'];
const without = (...names: string[]) => ALL.filter((n) => !names.includes(n));

describe('views: the registry lists each view once, in tab order', () => {
  it('names are unique lower-case ids, each with a title and a tooltip; Chart first, then the air-quality views', () => {
    const names = VIEWS.map((v) => v.name);
    assert.deepEqual(names, ALL.slice(1));
    assert.equal(new Set(names).size, names.length);
    for (const v of VIEWS) {
      assert.match(v.name, /^[a-z][a-z0-9-]*$/);
      assert.ok(v.title.length > 0 && v.tooltip.length > 10, v.name);
    }
  });
});

describe('views: which apply, on real tables', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let dir: string;
  let session: SqlSession;
  let run: (text: string) => Promise<Table>;
  before(async () => {
    emu = await startEmulator({ seed: 1, clock: '2026-11-20T12:00:30Z' });
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    dir = await mkdtemp(join(tmpdir(), 'measnb-views-'));
    session = new SqlSession();
    const now = new Date(emu.clock.now());
    run = async (text) =>
      (await runCell(text, { client, org: emu.org, now, sql: session, baseDir: dir, downloadDir: dir })).table;
    await run(
      'recent as pm\nallDatasources: true\noutputFrequency: hour\nstartTime: -1d\nmetricSelect: only pm2_5ConcMassNowcast* + no2Conc1HourMean\nqcAssessment: true',
    );
  });
  after(async () => {
    session?.dispose();
    await emu?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const offered = (table: Table) => offeredTabs(table, VIEWS);

  it('a recent query of every datasource (times, metrics, datasources, coordinates): every view', async () => {
    const pm = await run('sql\nSELECT * FROM pm');
    assert.ok(pm.rowCount > 100);
    assert.deepEqual(offered(pm), ALL);
  });

  it('one datasource: no Collocation (it needs a sensor and a reference)', async () => {
    const one = await run('sql\nSELECT * FROM pm WHERE datasourceId = (SELECT min(datasourceId) FROM pm)');
    assert.ok(one.rowCount >= 2);
    assert.deepEqual(offered(one), without('collocation'));
  });

  it('no coordinate columns, or coordinates all empty: no Map', async () => {
    const bare = await run('sql\nSELECT datasourceId, time, "pm2_5ConcMassNowcast.value" FROM pm');
    assert.deepEqual(offered(bare), without('map'));
    const empty = await run(
      'sql\nSELECT * EXCLUDE (locationLatitude, locationLongitude), CAST(NULL AS DOUBLE) AS locationLatitude, CAST(NULL AS DOUBLE) AS locationLongitude FROM pm',
    );
    assert.deepEqual(offered(empty), without('map'));
  });

  it('a per-datasource aggregate without times: the Summary only (nothing over time, nothing to map)', async () => {
    const agg = await run(
      'sql\nSELECT datasourceId, avg("pm2_5ConcMassNowcast.value") AS mean_pm FROM pm GROUP BY datasourceId',
    );
    assert.ok(agg.rowCount >= 2);
    assert.deepEqual(offered(agg), ['table', 'summary']);
  });

  it('a one-row aggregate (even with a time and coordinates, but no datasource to mark): the rows only', async () => {
    const agg = await run(
      'sql\nSELECT max(time) AS time, avg("pm2_5ConcMassNowcast.value") AS mean_pm, avg(locationLatitude) AS locationLatitude, avg(locationLongitude) AS locationLongitude FROM pm',
    );
    assert.equal(agg.rowCount, 1);
    assert.deepEqual(offered(agg), ['table']);
  });

  it("the service's minute csv-wide fixture (one datasource with its location, QC fields): all but Collocation", async () => {
    const t = await parseCsvWide(createReadStream(join(FIXTURES, 'real-minute-csv-wide-qc.csv')));
    assert.deepEqual(offered(t), without('collocation'));
  });

  it("the service's English-labelled hourly report (one node): all but Collocation", async () => {
    const t = await parseCsvWide(createReadStream(join(FIXTURES, 'public-node-report-hourly-english.csv')));
    assert.deepEqual(offered(t), without('collocation'));
  });

  it("a view's derived table (the Summary's) offers no view: no Chart ending in 'No time column to chart'", async () => {
    const pm = await run('sql\nSELECT * FROM pm');
    const summary = summaryTable(pm, identityRows(pm.rowCount));
    assert.deepEqual(offeredTabs(summary, VIEWS, true), ['table']);
    // Even asked as a result of its own, it has nothing over time.
    assert.ok(!offered(summary).includes('chart'));
  });
});
