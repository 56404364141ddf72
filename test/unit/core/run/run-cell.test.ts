import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CellError } from '../../../../src/core/api/errors';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { parseCell } from '../../../../src/core/query';
import { type RunProgress, runCell } from '../../../../src/core/run/index.node';
import { cellText, findColumn } from '../../../../src/core/table/table';
import { ROW_ORDER, timeColumn } from '../../../../src/core/table/table-rows';
import { systemClock } from '../../../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../../../src/emulator';

describe('runCell against the emulator', () => {
  let emu: RunningEmulator;
  let client: MeasurementsClient;
  let dir: string;
  before(async () => {
    // A flowing clock from a fixed instant (midday), and runs resolve relative times on it: the windows
    // (-1d .. today, -30m) never depend on the date or hour the suite runs at.
    emu = await startEmulator({ seed: 3, reportDelayMs: 1500, clock: '2026-11-20T12:00:30Z' });
    client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    dir = await mkdtemp(join(tmpdir(), 'measnb-run-'));
  });
  after(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });
  const ds = () => emu.facts.datasources[0].datasourceId;
  const now = () => new Date(emu.clock.now());

  it('datasources: lists the org as a table', async () => {
    const r = await runCell('datasources', { client, org: emu.org, now: now() });
    const list = await client.listDatasources(emu.org);
    assert.ok(list.datasources.length > 0);
    assert.equal(r.table.rowCount, list.datasources.length);
    const id = findColumn(r.table, 'datasourceId')!;
    const name = findColumn(r.table, 'name')!;
    assert.equal(cellText(id, 0), list.datasources[0].datasourceId);
    assert.equal(cellText(name, 0), list.datasources[0].orgAnnotations.name);
  });

  for (const format of ['csv-wide', 'json-long']) {
    it(`recent (${format}): resolves, sends, and returns the table`, async () => {
      const r = await runCell(
        `recent\ndatasourceIds: ${ds()}\noutputFrequency: hour\nstartTime: -6h\nformat: ${format}`,
        { client, org: emu.org, now: now() },
      );
      assert.equal(r.verb, 'recent');
      assert.ok(r.table.rowCount >= 5 && r.table.rowCount <= 7, String(r.table.rowCount));
      assert.match(r.summary, /^\d+ rows × \d+ columns$/);
      assert.equal(r.rowOrder, 'oldest first', 'the caption says the order');
      assert.ok(findColumn(r.table, format === 'csv-wide' ? 'startOfPeriod' : 'time'));
    });
  }

  it('recent comes newest first from the service and is shown oldest first, as report and follow are', async () => {
    const ids = emu.facts.datasources.slice(0, 3).map((d) => d.datasourceId);
    const r = await runCell(`recent\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: hour\nstartTime: -6h`, {
      client,
      org: emu.org,
      now: now(),
    });
    const t = timeColumn(r.table)!.values;
    assert.ok(r.table.rowCount >= 12, String(r.table.rowCount));
    for (let i = 1; i < r.table.rowCount; i++) assert.ok(t[i] >= t[i - 1], `row ${i} is not older than row ${i - 1}`);
    assert.ok(t[r.table.rowCount - 1] > t[0]);
    assert.equal(r.rowOrder, ROW_ORDER);
  });

  it('parse once: a cell the caller parsed keeps its warnings in the result, as its text would', async () => {
    // A pattern that matches no metric: a warning, and the cell is sent.
    const text = `recent\ndatasourceIds: ${ds()}\noutputFrequency: hour\nstartTime: -2h\nmetricSelect: default + zzz*`;
    const fromText = await runCell(text, { client, org: emu.org, now: now(), service: 'real' });
    assert.equal(fromText.warnings.length, 1);
    const parsed = parseCell(text, { now: now(), service: 'real' });
    assert.ok(parsed.cell);
    const fromParsed = await runCell(parsed.cell, { client, org: emu.org, now: now(), warnings: parsed.diagnostics });
    assert.deepEqual(fromParsed.warnings, fromText.warnings);
  });

  it('refuses an invalid cell before sending anything, naming line and column', async () => {
    await assert.rejects(
      runCell('recent\ndatasourceIds: A\noutputFrequency: hourly', { client, org: emu.org, now: now() }),
      (e: unknown) => e instanceof CellError && /^line 3, column 18: 'hourly'/.test(e.message),
    );
  });

  it('follow: a second run returns only new rows and carries the cursor', async () => {
    const cell = `follow\ndatasourceIds: ${ds()}\nstartTime: -30m`;
    const first = await runCell(cell, { client, org: emu.org, now: now() });
    assert.equal(first.followMode, 'start');
    const second = await runCell(cell, { client, org: emu.org, now: now(), followState: first.followState });
    assert.equal(second.followMode, 'continue');
    assert.ok(second.table.rowCount <= 1, 'at most the minute that just started');
  });

  it('report: creates, reports progress, downloads the files and loads them', async () => {
    const events: RunProgress[] = [];
    const r = await runCell(
      `report datasource-measurements\ndatasourceIds: ${ds()}\noutputFrequency: hour\nstartTime: -1d\nendTime: today`,
      { client, org: emu.org, now: now(), downloadDir: dir, onProgress: (p) => events.push(p) },
    );
    assert.equal(r.report?.record.reportStatus, 'succeeded');
    assert.ok(r.report?.files.length);
    for (const f of r.report?.files ?? []) assert.ok(existsSync(f), f);
    assert.ok(r.table.rowCount > 0);
    assert.ok(events.some((e) => e.kind === 'report-status' && e.status === 'in-progress' && e.nextCheckMs));
    assert.ok(events.some((e) => e.kind === 'report-status' && e.status === 'succeeded'));
  });
});
