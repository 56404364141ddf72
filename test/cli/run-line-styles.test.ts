import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatasourceInfo } from '../../src/core/api/types';
import { resultDatasourceInfo } from '../../src/core/aq/datasource-names';
import { lineStyles } from '../../src/core/aq/line-styles';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { codeCell, MIME, type Notebook, parseNotebook, serializeNotebook } from '../../src/core/notebook';
import { decodeTable } from '../../src/core/table/wire';
import { systemClock } from '../../src/core/time/clock';
import type { RunningEmulator } from '../../src/emulator';
import type { FaultRule } from '../../src/emulator/faults';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

/** The datasourceStyles an output of the saved notebook carries (ResultInfo), if any. */
const stylesOf = (nb: Notebook, cell: number) =>
  (nb.cells[cell].outputs[0].metadata?.measnb as { datasourceStyles?: Record<string, number> } | undefined)
    ?.datasourceStyles;

describe('measnb run: line styles over the connection’s datasources (as the extension’s outputs)', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  /** Requests for the datasource list (GET /v2/datasources) since the last reset. */
  let listRequests = 0;
  let list: DatasourceInfo[];
  let lone: string;
  let nbPath: string;

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({
      control: true,
      onRequest: ({ method, path }) => {
        if (method === 'GET' && path.split('?')[0] === '/v2/datasources') listRequests++;
      },
    }));
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    list = (await client.listDatasources(emu.org)).datasources;
    const all = list.map((d) => d.datasourceId);
    // A datasource whose style alone (its output's own list) differs from its style among all of them.
    const full = lineStyles(all);
    lone = all.find((id) => lineStyles([id]).get(id)?.colour !== full.get(id)?.colour) ?? '';
    assert.ok(lone, 'a datasource that changes colour alone');
    nbPath = join(dir, 'styles.measnb');
    const cell = (ids: string) => codeCell(`recent\ndatasourceIds: ${ids}\noutputFrequency: hour\nstartTime: -6h`);
    const nb: Notebook = { metadata: { org: emu.org }, cells: [cell(all.join(', ')), cell(lone)] };
    await writeFile(nbPath, serializeNotebook(nb));
  });
  after(() => stopCliEmulator(emu, dir));

  async function faults(rules: FaultRule[]): Promise<void> {
    const res = await fetch(`${emu.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ rules }) });
    assert.equal(res.status, 200, await res.text());
  }

  async function run(name: string): Promise<{ code: number | null; stderr: string; nb: Notebook }> {
    const out = join(dir, `${name}.measnb`);
    listRequests = 0;
    const r = await runCli(['run', nbPath, '--out', out, ...conn.args], { env: conn.env });
    return { code: r.code, stderr: r.stderr, nb: parseNotebook(await readFile(out, 'utf8')) };
  }

  /** What the extension's controller puts in an output of this cell (resultDatasourceInfo over the whole list). */
  function extensionStyles(nb: Notebook, cell: number): Record<string, number> | undefined {
    const table = decodeTable(nb.cells[cell].outputs[0].items.find((i) => i.mime === MIME.table)!.data);
    const ids = table.columns.find((c) => c.name === 'datasourceId') as { dict: string[] };
    return resultDatasourceInfo(list, ids.dict, true).datasourceStyles;
  }

  it('a datasource has the same slot in every output, the one the extension assigns; the list asked for once', async () => {
    const { code, stderr, nb } = await run('executed');
    assert.equal(code, 0, stderr);
    assert.equal(listRequests, 1, 'one request for the datasource list for the whole run');
    const [all, alone] = [stylesOf(nb, 0), stylesOf(nb, 1)];
    assert.ok(all && alone, 'both outputs carry datasourceStyles');
    assert.deepEqual(all, extensionStyles(nb, 0));
    assert.deepEqual(alone, extensionStyles(nb, 1));
    assert.deepEqual(Object.keys(alone), [lone]);
    assert.equal(alone[lone], all[lone], 'the same slot alone as among all');
    assert.ok(Object.keys(all).length > 1);
  });

  it('a failed list request does not fail the run: a warning on stderr, each output by its own list', async () => {
    await faults([{ kind: 'error', endpoint: 'datasources', status: 403 }]);
    try {
      const { code, stderr, nb } = await run('no-list');
      assert.equal(code, 0, stderr);
      assert.equal(listRequests, 1, 'asked once, not again for the second cell');
      assert.match(
        stderr,
        /measnb: the connection's datasource list could not be read \(.*\): each output's datasources/,
      );
      assert.equal(stylesOf(nb, 0), undefined);
      assert.equal(stylesOf(nb, 1), undefined);
      assert.equal(nb.cells[1].execution?.success, true);
    } finally {
      await faults([]);
    }
  });
});
