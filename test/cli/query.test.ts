import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_KEY_HEADER, PATHS } from '../../src/core/api/paths';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { datasourcesTable } from '../../src/core/run/index.node';
import { tableToCsv } from '../../src/core/table/csv-export';
import { readParquet } from '../../src/core/table/parquet';
import { inTimeOrder } from '../../src/core/table/table-rows';
import { systemClock } from '../../src/core/time/clock';
import { ManualClock, type RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const NOW = Date.parse('2026-11-20T12:00:30Z');

describe('measnb query (built CLI against the emulator)', function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let client: MeasurementsClient;
  let dir: string;
  let conn: Connection;
  let ds: string[];

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ clock: new ManualClock(NOW), seed: 5 }));
    client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    ds = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
  });
  after(() => stopCliEmulator(emu, dir));

  const q = (cell: string, ...extra: string[]) =>
    runCli(['query', '-e', cell, ...conn.args, ...extra], { env: conn.env });
  const recentCsvCell = () =>
    `recent\ndatasourceIds: ${ds.join(', ')}\noutputFrequency: hour\nstartTime: 2026-11-20T06:00:00Z\nformat: csv-wide`;

  it('datasources, piped: prints exactly the CSV of the table', async () => {
    const r = await q('datasources');
    assert.equal(r.code, 0, r.stderr);
    const expected = tableToCsv(datasourcesTable(await client.listDatasources(emu.org)));
    assert.equal(r.stdout.toString('utf8'), expected);
  });

  it('a csv-wide recent query piped: the service bytes, unchanged', async () => {
    const r = await q(recentCsvCell());
    assert.equal(r.code, 0, r.stderr);
    const res = await fetch(emu.url + PATHS.recentQuery, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [API_KEY_HEADER]: emu.apiKey },
      body: JSON.stringify({
        org: emu.org,
        datasourceIds: ds,
        outputFrequency: 'hour',
        format: 'csv-wide',
        startTime: '2026-11-20T06:00:00Z',
      }),
    });
    const body = Buffer.from(await res.arrayBuffer());
    assert.ok(body.length > 500);
    assert.ok(r.stdout.equals(body), 'stdout bytes equal the service body');
    assert.equal(r.stderr, '', 'nothing but data when piped and all is well');
  });

  it('a json-long recent query piped: the CSV of the pivoted table', async () => {
    const cell = `recent\ndatasourceIds: ${ds[0]}\nstartTime: 2026-11-20T11:30:00Z\nqcFlags: true`;
    const r = await q(cell, '--csv');
    assert.equal(r.code, 0, r.stderr);
    const { table } = await client.recentQuery({
      org: emu.org,
      datasourceIds: [ds[0]],
      startTime: '2026-11-20T11:30:00Z',
      qcFlags: true,
    });
    // The reply's rows in the one row order of time series: oldest first (table-rows ROW_ORDER).
    assert.equal(r.stdout.toString(), tableToCsv(inTimeOrder(table)));
    assert.ok(table.rowCount >= 29, 'minute rows since 11:30');
  });

  it('reads the cell from a file', async () => {
    const file = join(dir, 'cell.measq');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, `# a comment\n${recentCsvCell()}\n`));
    const r = await runCli(['query', file, ...conn.args], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout.toString(), /^datasourceId,sourceId,sourceType,outputFrequency,startOfPeriod,endOfPeriod/);
  });

  it('--table prints a fitted table with the row count', async () => {
    const r = await q(
      `recent\ndatasourceIds: ${ds[0]}\noutputFrequency: hour\nstartTime: 2026-11-20T09:00:00Z`,
      '--table',
    );
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.toString().trimEnd().split('\n');
    assert.match(lines[0], /^datasourceId +time +/);
    assert.match(lines[1], /^─+ +─+/);
    // The service sends newest first; tables show time series oldest first whatever the verb (ROW_ORDER).
    assert.match(lines[2], new RegExp(`^${ds[0]} +2026-11-20T09:00:00.000Z`), 'oldest first');
    assert.match(lines[4], new RegExp(`^${ds[0]} +2026-11-20T11:00:00.000Z`));
    assert.equal(lines.length, 2 + 3 + 1, 'header, rule, three hours, the count');
    assert.match(
      lines[lines.length - 1],
      /^\(3 rows; \d+ more columns not shown; use --csv or --out for everything\)$/,
    );
  });

  it('--out x.csv and --out x.parquet write the result files', async () => {
    const cell = `recent\ndatasourceIds: ${ds[0]}\noutputFrequency: hour\nstartTime: 2026-11-20T06:00:00Z`;
    const csvPath = join(dir, 'r.csv');
    const parquetPath = join(dir, 'r.parquet');
    const a = await q(cell, '--out', csvPath);
    const b = await q(cell, '--out', parquetPath);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(a.stdout.length, 0, 'data went to the file');
    assert.match(a.stderr, /^Wrote 6 rows × \d+ columns to .*r\.csv\n$/);
    const reply = await client.recentQuery({
      org: emu.org,
      datasourceIds: [ds[0]],
      outputFrequency: 'hour',
      startTime: '2026-11-20T06:00:00Z',
    });
    const table = inTimeOrder(reply.table);
    assert.equal(await readFile(csvPath, 'utf8'), tableToCsv(table));
    const back = await readParquet(await readFile(parquetPath));
    assert.equal(back.rowCount, table.rowCount);
    assert.deepEqual(
      back.columns.map((c) => c.name),
      table.columns.map((c) => c.name),
    );
    assert.equal(tableToCsv(back), tableToCsv(table));
    const raw = join(dir, 'raw.csv');
    const c = await q(recentCsvCell(), '--out', raw);
    assert.equal(c.code, 0, c.stderr);
    assert.match(await readFile(raw, 'utf8'), /^datasourceId,sourceId/);
    const bad = await q(cell, '--out', join(dir, 'r.xlsx'));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /must end in \.csv or \.parquet/);
  });

  it('an invalid cell: exit 3, one compiler-style line per error, nothing sent', async () => {
    // A closed port: had anything been sent, this would be a network error (exit 7).
    const r = await runCli(
      [
        'query',
        '-e',
        'recent\nallDatasources: true\noutputFrequncy: hour\nformat: parquet',
        '--base-url',
        'http://127.0.0.1:9',
      ],
      { env: { MEASUREMENTS_API_KEY: 'k' } },
    );
    assert.equal(r.code, 3);
    assert.equal(r.stdout.length, 0);
    assert.equal(
      r.stderr,
      [
        "measnb: -e:3:1: error: Unknown key 'outputFrequncy'; did you mean 'outputFrequency'?",
        "measnb: -e:4:9: error: 'parquet' is not a valid format. Allowed: json-long, csv-wide",
        '',
      ].join('\n'),
    );
  });

  it('a wrong key: exit 4, one line, and the key is never printed', async () => {
    const r = await runCli(['query', '-e', 'datasources', ...conn.args], {
      env: { MEASUREMENTS_API_KEY: 'emu_wrong_key_0123456789' },
    });
    assert.equal(r.code, 4);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
    assert.match(r.stderr, /^measnb: Access denied \(403 Forbidden\)/);
    assert.ok(!r.stderr.includes('emu_wrong_key_0123456789'));
  });

  it('an unreachable service: exit 7 with a clear line', async () => {
    const r = await runCli(['query', '-e', 'datasources', '--base-url', 'http://127.0.0.1:9', '--org', 'o']);
    assert.equal(r.code, 7);
    assert.match(r.stderr, /^measnb: Could not reach http:\/\/127\.0\.0\.1:9 .*ECONNREFUSED/);
  });

  it('usage errors exit 2: no service, both a file and -e, unknown flags', async () => {
    const none = await runCli(['query', '-e', 'datasources'], { env: { MEASUREMENTS_BASE_URL: undefined } });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No service given: use --base-url <url> \(or set MEASUREMENTS_BASE_URL\)/);
    const both = await runCli(['query', 'x.measq', '-e', 'datasources', '--emulator']);
    assert.equal(both.code, 2);
    const flag = await runCli(['query', '--api-key', 'secret']);
    assert.equal(flag.code, 2, 'there is no key flag');
    assert.match(flag.stderr, /unknown option '--api-key'/);
    const help = await runCli(['query', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout.toString(), /--base-url <url>/);
  });

  it('takes the service and org from MEASUREMENTS_BASE_URL and MEASUREMENTS_ORG', async () => {
    const r = await runCli(['query', '-e', 'datasources'], {
      env: { MEASUREMENTS_BASE_URL: emu.url, MEASUREMENTS_ORG: emu.org, MEASUREMENTS_API_KEY: emu.apiKey },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString(), tableToCsv(datasourcesTable(await client.listDatasources(emu.org))));
  });

  it('--emulator runs against an in-process emulator', async () => {
    const r = await runCli(['query', '-e', 'datasources', '--emulator']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout.toString(),
      /^datasourceId,name,group,tags,sourceType,currentSourceId,currentSubscriptionId\n/,
    );
  });
});
