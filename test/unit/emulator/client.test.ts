// The project's client (src/core/api/client.node.ts) against the emulator: what works here must work for users.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MeasurementsClient } from '../../../src/core/api/client.node';
import { isMeasurementsError, type MeasurementsError } from '../../../src/core/api/errors';
import { cellText, columnByName } from '../../../src/core/table/table';
import { startTestEmulator, type TestEmulator } from './support';

async function rejection(p: Promise<unknown>): Promise<MeasurementsError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isMeasurementsError(e), `expected a MeasurementsError, got ${e}`);
    return e as MeasurementsError;
  }
  assert.fail('expected the call to fail');
}

describe('emulator with the project client', () => {
  let emu: TestEmulator;
  let client: MeasurementsClient;
  let dir: string;
  beforeEach(async () => {
    emu = await startTestEmulator();
    client = new MeasurementsClient({ baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    dir = mkdtempSync(path.join(tmpdir(), 'emu-client-'));
  });
  afterEach(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ping, listDatasources and getDatasource', async () => {
    assert.equal((await client.ping()).status, 200);
    const list = await client.listDatasources(emu.org);
    assert.equal(list.datasources.length, 19);
    const one = await client.getDatasource(emu.org, list.datasources[0].datasourceId);
    assert.equal(one.datasourceId, list.datasources[0].datasourceId);
  });

  it('recentQuery in both formats gives the same table values', async () => {
    const ds = emu.facts.datasources[0].datasourceId;
    const req = {
      org: emu.org,
      datasourceIds: [ds],
      outputFrequency: 'hour' as const,
      metricSelect: 'only pm2_5ConcMassNowcast',
    };
    const csv = await client.recentQuery({ ...req, format: 'csv-wide' });
    const json = await client.recentQuery(req);
    // The default 24 hours: every hour containing measurements at or after now - 24 h (the first one partly).
    assert.equal(csv.table.rowCount, 24);
    assert.equal(json.table.rowCount, 24);
    const csvCol = columnByName(csv.table, 'pm2_5ConcMassNowcast');
    assert.ok(csvCol, 'csv-wide column');
    assert.ok(json.body && json.body.data.length === 24);
    assert.equal(Number(cellText(csvCol, 0)), json.body.data[0].value);
  });

  it('follows with continuation tokens; expired and forged tokens are token-rejected', async () => {
    const first = await client.recentQuery({
      org: emu.org,
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      replyWithContinuationToken: true,
    });
    assert.ok(first.continuationToken);
    await emu.advance('5m');
    const next = await client.continueQuery({ org: emu.org, continuationToken: first.continuationToken });
    assert.ok(next.table.rowCount > 0 && next.continuationToken);
    const forged = await rejection(
      client.continueQuery({ org: emu.org, continuationToken: `${next.continuationToken}x` }),
    );
    assert.equal(forged.code, 'token-rejected');
    await emu.advance('25h');
    const expired = await rejection(
      client.continueQuery({ org: emu.org, continuationToken: next.continuationToken as string }),
    );
    assert.equal(expired.code, 'token-rejected');
    assert.match(expired.message + (expired.serverMessage ?? ''), /expired/);
  });

  it('creates a report, sees it succeed, and downloads its file without the key', async () => {
    const record = await client.createReport({
      org: emu.org,
      report: 'datasource-measurements',
      datasourceIds: [emu.facts.datasources[0].datasourceId],
      outputFrequency: 'hour',
      startTime: '2026-11-20T00:00:00Z',
      endTime: '2026-11-20T06:00:00Z',
    });
    assert.equal(record.reportStatus, 'in-progress');
    await emu.advance('6s');
    const done = await client.getReport(record.reportId);
    assert.equal(done.reportStatus, 'succeeded');
    const file = path.join(dir, 'part.csv');
    await client.downloadReportFile(done.urls[0], file);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith('datasourceId,'));
    assert.equal(text.trim().split('\n').length, 7);
  });

  it('maps the emulator errors to the typed client errors', async () => {
    const wrongKey = new MeasurementsClient({ baseUrl: emu.url, apiKey: 'nope', retry: false });
    assert.equal((await rejection(wrongKey.listDatasources(emu.org))).code, 'forbidden');
    assert.equal((await rejection(client.listDatasources(emu.secondOrg.org))).code, 'forbidden');
    assert.equal((await rejection(client.getReport('no-such-report'))).code, 'not-found');
    const bad = await rejection(client.recentQuery({ org: emu.org, datasourceIds: ['DNOSUCH1'] }));
    assert.equal(bad.code, 'bad-request');
    assert.match(bad.message + (bad.serverMessage ?? ''), /datasourceIds/);
  });

  it('quota-exceeded after 30 reports, with Retry-After up to the next UTC midnight', async () => {
    const req = {
      org: emu.org,
      report: 'datasource-measurements' as const,
      allDatasources: true,
      outputFrequency: 'day' as const,
      startTime: '2026-11-18',
      endTime: '2026-11-19',
    };
    for (let i = 0; i < 30; i++) await client.createReport(req);
    const refused = await rejection(client.createReport(req));
    assert.equal(refused.code, 'quota-exceeded');
    // The emulator's clock says 10:30 UTC: 13.5 hours to its midnight. (resetAt is the client's own
    // estimate from the wall clock, which a frozen emulator clock does not follow.)
    assert.equal(refused.retryAfterSeconds, 13.5 * 3600);
    assert.ok(refused.resetAt instanceof Date);
  });
});
