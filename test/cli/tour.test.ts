// The tour (examples/tour.measnb) teaches QC first: its QC cell must really show an invalid datasource,
// the one its markdown names, reading far above its neighbours, and the v2026-11-10 cell must show that
// datasource clean. Run through the built CLI against the emulator, so a change of the emulator's data
// (ids, which datasource carries out-of-bounds values) that makes the tour's text untrue fails here.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIME, parseNotebook } from '../../src/core/notebook';
import { cellText, findColumn, isNumeric, numberAt, type Table } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import type { RunningEmulator } from '../../src/emulator';
import { type Connection, ROOT, runCli, startCliEmulator, stopCliEmulator } from './support';

const METRIC = 'pm2_5ConcMassNowcast';

/** Per datasource: its values of the metric and whether any row is QC-invalid. */
function byDatasource(table: Table): Map<string, { values: number[]; invalid: number }> {
  const ids = findColumn(table, 'datasourceId');
  const value = findColumn(table, `${METRIC}.value`);
  const qc = findColumn(table, `${METRIC}.qcAssessment`);
  assert.ok(ids && value && isNumeric(value) && qc, `columns datasourceId, ${METRIC}.value and .qcAssessment`);
  const out = new Map<string, { values: number[]; invalid: number }>();
  for (let r = 0; r < table.rowCount; r++) {
    const id = cellText(ids, r);
    const entry = out.get(id) ?? { values: [], invalid: 0 };
    if (!Number.isNaN(numberAt(value, r))) entry.values.push(numberAt(value, r));
    if (cellText(qc, r) === 'invalid') entry.invalid++;
    out.set(id, entry);
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('examples/tour.measnb: the QC lesson holds against the emulator', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ reportDelayMs: 500 }));
  });
  after(() => stopCliEmulator(emu, dir));

  it('the QC cell shows the datasource its markdown names as invalid and far above its neighbours; v2026-11-10 fixes it', async () => {
    const out = join(dir, 'tour-run.measnb');
    const r = await runCli(['run', 'examples/tour.measnb', '--out', out, ...conn.args], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
    const source = parseNotebook(await readFile(join(ROOT, 'examples/tour.measnb'), 'utf8'));
    const nb = parseNotebook(await readFile(out, 'utf8'));

    const qcAt = source.cells.findIndex(
      (c) => c.kind === 'code' && /^qcAssessment: true$/m.test(c.source) && !/dataVersion/.test(c.source),
    );
    const fixAt = source.cells.findIndex((c) => c.kind === 'code' && /^dataVersion: v2026-11-10$/m.test(c.source));
    assert.ok(qcAt > 0 && fixAt > qcAt, 'a QC cell, then the same query with dataVersion v2026-11-10');
    const lesson = source.cells[qcAt - 1];
    assert.equal(lesson.kind, 'markup', 'the QC cell is introduced by markdown');
    assert.match(lesson.source, /QC\.I\.OOB\.001/);
    const named = [...lesson.source.matchAll(/\*\*(D[0-9A-Z]{7})\*\*/g)].map((m) => m[1]);
    assert.equal(named.length, 1, 'the markdown names one datasource in bold');
    const [bad] = named;

    const tableOf = (i: number) => {
      const item = nb.cells[i].outputs.at(-1)?.items.find((x) => x.mime === MIME.table);
      assert.ok(item, `cell ${i + 1} has a table`);
      return decodeTable(item.data);
    };
    const legacy = byDatasource(tableOf(qcAt));
    assert.ok(legacy.size >= 3, `three datasources (got ${[...legacy.keys()].join(', ')})`);
    const flagged = [...legacy].filter(([, v]) => v.invalid > 0).map(([id]) => id);
    assert.deepEqual(flagged, [bad], 'only the named datasource is QC-invalid');
    const neighbours = [...legacy].filter(([id]) => id !== bad).flatMap(([, v]) => v.values);
    const badMean = mean(legacy.get(bad)!.values);
    assert.ok(
      badMean > 3 * Math.max(...neighbours),
      `${bad} reads far above its neighbours (${badMean.toFixed(1)} vs at most ${Math.max(...neighbours)})`,
    );
    // The level depends on the hour the data is generated for; the markdown's round figure stays close.
    const said = Number(/near (\d+) µg\/m³/.exec(lesson.source)?.[1]);
    assert.ok(
      Math.abs(said - badMean) <= 10,
      `the markdown says what it reads (near ${said}; it reads ${badMean.toFixed(1)})`,
    );

    const fixed = byDatasource(tableOf(fixAt));
    assert.deepEqual(
      [...fixed].filter(([, v]) => v.invalid > 0).map(([id]) => id),
      [],
      'no invalid value with v2026-11-10',
    );
    assert.ok(
      mean(fixed.get(bad)!.values) < 2 * Math.max(...neighbours),
      `${bad} reads like its neighbours with v2026-11-10`,
    );
  });
});
