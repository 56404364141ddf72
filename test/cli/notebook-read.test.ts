// Every measnb command reads a .measnb file with the core's one reader, as the extension does: a UTF-8 byte
// order mark is skipped (it opens in the extension, so it runs here), outputs of foreign types are dropped.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codeCell, itemText, MIME, markdownCell, parseNotebook, serializeNotebook } from '../../src/core/notebook';
import type { RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const BOM = '\ufeff';

describe('measnb: reading notebook files (built CLI)', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator());
  });
  after(() => stopCliEmulator(emu, dir));

  const withBom = async (name: string, cells: Parameters<typeof serializeNotebook>[0]['cells']) => {
    const file = join(dir, name);
    await writeFile(file, BOM + serializeNotebook({ metadata: {}, cells }));
    return file;
  };

  it('run, query and export accept a notebook saved with a UTF-8 byte order mark', async () => {
    const file = await withBom('bom.measnb', [markdownCell('# With a BOM'), codeCell('datasources')]);
    const out = join(dir, 'bom-out.measnb');
    const run = await runCli(['run', file, '--out', out, ...conn.args], { env: conn.env });
    assert.equal(run.code, 0, run.stderr);
    const ran = parseNotebook(await readFile(out, 'utf8'));
    assert.equal(ran.cells[1].execution?.success, true);
    assert.ok(ran.cells[1].outputs[0].items.some((i) => i.mime === MIME.table));

    const query = await runCli(['query', file, '--csv', ...conn.args], { env: conn.env });
    assert.equal(query.code, 0, query.stderr);
    assert.match(query.stdout.toString('utf8'), /^datasourceId,/);

    const exported = join(dir, 'bom.md');
    const exp = await runCli(['export', file, '--to', 'md', '--out', exported]);
    assert.equal(exp.code, 0, exp.stderr);
    assert.match(await readFile(exported, 'utf8'), /^# With a BOM/);
  });

  it('export writes no script output of the file read: it is dropped with a note', async () => {
    const file = join(dir, 'script.measnb');
    const text = serializeNotebook({
      metadata: {},
      cells: [{ ...codeCell('datasources'), outputs: [{ items: [{ mime: MIME.text, data: new Uint8Array() }] }] }],
    }).replace('"text/plain"', '"text/html"');
    await writeFile(file, text);
    const exported = join(dir, 'script.html');
    const exp = await runCli(['export', file, '--to', 'html', '--out', exported]);
    assert.equal(exp.code, 0, exp.stderr);
    assert.match(await readFile(exported, 'utf8'), /1 output item\(s\) of type text\/html were dropped/);
    const nb = parseNotebook(text);
    assert.match(itemText(nb.cells[0].outputs[0].items[0]), /were dropped/);
  });
});
