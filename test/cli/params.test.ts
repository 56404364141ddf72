import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codeCell, MIME, parseNotebook, serializeNotebook } from '../../src/core/notebook';
import { cellText } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import type { RunningEmulator } from '../../src/emulator';
import { type Connection, ROOT, runCli, startCliEmulator, stopCliEmulator } from './support';

const EXAMPLE = join(ROOT, 'examples/monthly-report.measnb');

describe('measnb run --param and --export (built CLI against the emulator)', function () {
  this.timeout(180_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  let requests: { method: string; path: string }[] = [];

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({
      reportDelayMs: 500,
      onRequest: (r) => {
        requests.push(r);
      },
    }));
  });
  beforeEach(() => {
    requests = [];
  });
  after(() => stopCliEmulator(emu, dir));

  const run = (args: string[]) => runCli(['run', ...args, ...conn.args], { env: conn.env });

  it('--param values replace the defaults in query and sql cells; the outputs name the values used', async () => {
    const site = emu.facts.datasources[1].datasourceId;
    const out = join(dir, 'monthly.measnb');
    const r = await run([
      EXAMPLE,
      '--param',
      `site=${site}`,
      '--param',
      'start=-3d',
      '--param',
      'threshold=0',
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const created = requests.filter((q) => q.method === 'POST' && q.path.includes('report'));
    assert.equal(created.length, 1, JSON.stringify(requests));
    const nb = parseNotebook(await readFile(out, 'utf8'));
    const notes = (i: number) =>
      (nb.cells[i].outputs[0].metadata?.measnb as { notes: string[] } | undefined)?.notes ?? [];
    assert.match(
      notes(2)[0],
      new RegExp(`^parameters: site=${site}, frequency=hour, start=-3d \\(.*Z\\), end=today \\(`),
    );
    assert.deepEqual(notes(3)[0], 'parameters: threshold=0');
    const table = (i: number) => decodeTable(nb.cells[i].outputs[0].items.find((x) => x.mime === MIME.table)!.data);
    const report = table(2);
    const ids = report.columns.find((c) => c.name === 'datasourceId')!;
    assert.deepEqual(new Set(Array.from({ length: report.rowCount }, (_, row) => cellText(ids, row))), new Set([site]));
    // start=-3d .. end=today holds two whole UTC days whatever the hour the test runs (with -2d, from 23:00 UTC
    // on, the report held one day). threshold=0: every measured hour is over it (bound as a DOUBLE: > 0 compares numbers).
    const daily = table(3);
    const over = daily.columns.find((c) => c.name === 'hoursOver')!;
    assert.ok(
      daily.rowCount >= 2 &&
        Array.from({ length: daily.rowCount }, (_, row) => Number(cellText(over, row))).every((n) => n > 0),
    );
    // The params cell's own output: each parameter, its type, the value used and its default.
    const params = table(1);
    assert.deepEqual(
      Array.from({ length: params.rowCount }, (_, row) => params.columns.map((c) => cellText(c, row))).find(
        (x) => x[0] === 'site',
      ),
      ['site', 'text', site, 'DFV2F2UA'],
    );
  });

  for (const [why, args, message] of [
    [
      'an unknown parameter name',
      ['--param', 'sitee=DABC1234'],
      /Unknown parameter 'sitee' \(declared: site, start, end, frequency, threshold\)/,
    ],
    [
      'a value that is not of its type',
      ['--param', 'threshold=high'],
      /Bad value for number parameter 'threshold': 'high' is not a number/,
    ],
    ['a time that is no time', ['--param', 'start=last-month'], /Bad value for time parameter 'start'/],
    [
      'a value with a newline',
      ['--param', 'site=DABC1234\nallDatasources: true'],
      /one line without control characters/,
    ],
  ] as const) {
    it(`${why}: exit 3 before any request`, async () => {
      const r = await run([EXAMPLE, ...args]);
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, message);
      assert.deepEqual(requests, [], 'no request reached the emulator');
    });
  }

  it('a cell naming a parameter the notebook does not declare, or of the wrong type: exit 3 before any request', async () => {
    const file = join(dir, 'undeclared.measnb');
    const cells = [
      codeCell('datasources'),
      codeCell('params\nsite: DABC1234\nn: 3'),
      codeCell('recent\ndatasourceIds: {{sitee}}'),
    ];
    await writeFile(file, serializeNotebook({ metadata: {}, cells }));
    const r = await run([file]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /undeclared\.measnb#3:2:16: error: Unknown parameter 'sitee'; did you mean 'site'\?/);
    cells[2] = codeCell('recent\ndatasourceIds: A\nstartTime: {{n}}');
    await writeFile(file, serializeNotebook({ metadata: {}, cells }));
    const typed = await run([file]);
    assert.equal(typed.code, 3, typed.stderr);
    assert.match(typed.stderr, /'n' is a number parameter; startTime takes a time value/);
    cells[2] = codeCell('sql\nSELECT $nope');
    await writeFile(file, serializeNotebook({ metadata: {}, cells }));
    const sql = await run([file]);
    assert.equal(sql.code, 3, sql.stderr);
    assert.match(sql.stderr, /Unknown parameter '\$nope'/);
    assert.deepEqual(requests, [], 'no request reached the emulator');
  });

  it('--param without = is a usage error (exit 2)', async () => {
    const r = await run([EXAMPLE, '--param', 'site']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--param name=value/);
  });

  it('--export writes the executed notebook as HTML (.md, .ipynb) in the same command', async () => {
    const html = join(dir, 'report.html');
    const r = await run([EXAMPLE, '--param', 'site=DFV2F2UA', '--export', html]);
    assert.equal(r.code, 0, r.stderr);
    const text = await readFile(html, 'utf8');
    assert.match(text, /parameters: site=DFV2F2UA, frequency=hour/);
    assert.match(text, /meanPm25/);
    assert.ok(!/<script/i.test(text));
    const ipynb = join(dir, 'report.ipynb');
    assert.equal((await run([EXAMPLE, '--export', ipynb])).code, 0);
    const nb = JSON.parse(await readFile(ipynb, 'utf8'));
    assert.equal(nb.nbformat, 4);
    const bad = await run([EXAMPLE, '--export', join(dir, 'report.pdf')]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.deepEqual(
      requests.filter((q) => q.method === 'POST' && q.path.includes('report')).length,
      2,
      'the bad --export sent nothing',
    );
  });
});
