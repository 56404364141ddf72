import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { codeCell, itemText, MIME, markdownCell, parseNotebook, serializeNotebook } from '../../src/core/notebook';
import { tableToCsv } from '../../src/core/table/csv-export';
import { readParquet } from '../../src/core/table/parquet';
import { decodeTable } from '../../src/core/table/wire';
import type { RunningEmulator } from '../../src/emulator';
import { type Connection, ROOT, runCli, startCliEmulator, stopCliEmulator } from './support';

describe('measnb run (built CLI against the emulator)', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ reportDelayMs: 1000 }));
  });
  after(() => stopCliEmulator(emu, dir));

  it('the quickstart runs with --emulator, as the README says', async () => {
    const r = await runCli(['run', 'examples/quickstart.measnb', '--emulator', '--emulator-report-delay', '1s']);
    assert.equal(r.code, 0, r.stderr);
    for (const cell of [
      'cell 2 (datasources)',
      'cell 3 (recent)',
      'cell 4 (follow every 5m)',
      'cell 5 (report datasource-measurements)',
    ]) {
      assert.match(r.stderr, new RegExp(`${cell.replace(/[()]/g, '\\$&')}: `));
    }
    const before = await readFile(join(ROOT, 'examples/quickstart.measnb'), 'utf8');
    assert.ok(!before.includes('"execution"'), 'without --out the notebook is left as it was');
  });

  it('--out writes every cell output in the notebook format, with table and CSV items', async () => {
    const out = join(dir, 'executed.measnb');
    const r = await runCli(['run', 'examples/quickstart.measnb', '--out', out, ...conn.args], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
    const source = parseNotebook(await readFile(join(ROOT, 'examples/quickstart.measnb'), 'utf8'));
    const nb = parseNotebook(await readFile(out, 'utf8'));
    assert.deepEqual(
      nb.cells.map((c) => c.source),
      source.cells.map((c) => c.source),
      'sources unchanged',
    );
    assert.deepEqual(nb.metadata, source.metadata);
    assert.equal(nb.cells[0].outputs.length, 0, 'markdown has no output');
    for (const cell of nb.cells.slice(1)) {
      assert.equal(cell.execution?.success, true);
      const output = cell.outputs[cell.outputs.length - 1];
      const table = decodeTable(output.items.find((i) => i.mime === MIME.table)!.data);
      const csv = itemText(output.items.find((i) => i.mime === MIME.csv)!);
      assert.equal(csv, tableToCsv(table));
      assert.equal(cell.outputs.length, 1);
      assert.equal(output.metadata?.rowCount, table.rowCount);
      assert.match(
        String((output.metadata?.measnb as { title?: string } | undefined)?.title),
        /^(datasources|recent|follow|report datasource-measurements) · .*\d+ (new )?rows/,
      );
      assert.ok(table.rowCount > 0);
    }
    const text = await readFile(out, 'utf8');
    assert.ok(!text.includes(emu.apiKey), 'no key in the file');
    assert.ok(!/continuationToken|"token"/.test(text), 'no continuation token in the file');
    // Report files land beside the executed notebook.
    const report = nb.cells[4].outputs.at(-1)!;
    assert.ok(existsSync(join(dir, String(report.metadata?.fullResultPath))));
  });

  it('outputs over --output-limit keep a summary and point to the full result beside --out', async () => {
    const nbPath = join(dir, 'big.measnb');
    await writeFile(
      nbPath,
      serializeNotebook({
        metadata: { org: emu.org },
        cells: [codeCell('recent\nallDatasources: true\nstartTime: -2h\nformat: csv-wide')],
      }),
    );
    const out = join(dir, 'out', 'big-run.measnb');
    const r = await runCli(['run', nbPath, '--out', out, '--output-limit', '20000', ...conn.args], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
    const nb = parseNotebook(await readFile(out, 'utf8'));
    const output = nb.cells[0].outputs[0];
    assert.equal(output.metadata?.truncated, true);
    assert.equal(output.metadata?.fullResultPath, 'big-run.results/cell-1.parquet');
    const full = await readParquet(await readFile(join(dir, 'out', 'big-run.results/cell-1.parquet')));
    assert.equal(full.rowCount, output.metadata?.rowCount);
    assert.ok(full.rowCount > 100);
    assert.match(
      itemText(output.items[0]),
      /rows × \d+ columns .* The full result is in big-run\.results\/cell-1\.parquet\./,
    );
  });

  it('a failing cell: non-zero exit naming the cell, an error output, later cells not run', async () => {
    const nbPath = join(dir, 'broken.measnb');
    await writeFile(
      nbPath,
      serializeNotebook({
        metadata: {},
        cells: [
          markdownCell('# broken'),
          codeCell('datasources'),
          codeCell('recent\ndatasourceIds: X\noutputFrequency: hourly'),
          codeCell('datasources'),
        ],
      }),
    );
    const out = join(dir, 'broken-run.measnb');
    const r = await runCli(['run', nbPath, '--out', out, ...conn.args], { env: conn.env });
    assert.equal(r.code, 3);
    assert.match(
      r.stderr,
      /measnb: cell 3 \(recent\) failed:\n {2}.*broken\.measnb#3:3:18: error: 'hourly' is not a valid outputFrequency/,
    );
    const nb = parseNotebook(await readFile(out, 'utf8'));
    assert.equal(nb.cells[1].execution?.success, true);
    assert.equal(nb.cells[2].execution?.success, false);
    const err = JSON.parse(itemText(nb.cells[2].outputs[0].items[0]));
    assert.equal(nb.cells[2].outputs[0].items[0].mime, MIME.error);
    assert.match(err.message, /'hourly' is not a valid outputFrequency/);
    assert.equal(nb.cells[3].execution, undefined, 'not run after the failure');

    const going = await runCli(['run', nbPath, '--keep-going', ...conn.args], { env: conn.env });
    assert.equal(going.code, 3);
    assert.match(going.stderr, /cell 4 \(datasources\): \d+ rows/);
  });

  it('a notebook nested 5,000 levels deep: exit 3 with one clear line, and no request is sent', async () => {
    const deep = join(dir, 'deep.measnb');
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    await writeFile(deep, `{"measnb":1,"metadata":{"x":${nested}},"cells":[{"source":["datasources"]}]}`);
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const r = await runCli(['run', deep, '--base-url', `http://127.0.0.1:${port}`, '--org', 'o'], {
        env: { MEASUREMENTS_API_KEY: 'k' },
      });
      assert.equal(r.code, 3, r.stderr);
      assert.equal(
        r.stderr,
        `measnb: ${deep}: not a valid .measnb file: metadata.x.a: objects and arrays are nested more than 64 levels deep (the limit is 64)\n`,
      );
      assert.equal(requests, 0, 'nothing was sent');
    } finally {
      server.close();
    }
  });

  it('a file that is not a notebook: exit 3 with a clear line', async () => {
    const bad = join(dir, 'bad.measnb');
    await writeFile(bad, '{"cells": {}}');
    const r = await runCli(['run', bad, ...conn.args], { env: conn.env });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /bad\.measnb: not a valid \.measnb file: cells: expected an array of cells/);
  });
});
