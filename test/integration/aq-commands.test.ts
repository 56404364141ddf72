// Air-quality commands in the real extension host: Apply PM2.5 Correction inserts a sql cell after the result's
// cell that runs and gives the formula's (or the fit's) numbers on every row; Regulatory Statistics computes over
// the whole named result with the SQL engine and opens a small table labelled indicative.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import * as vs from 'vscode';
import { correctValue, fitLinear } from '../../src/core/aq/corrections';
import { codeCell, MIME } from '../../src/core/notebook';
import type { StatisticsOutcome } from '../../src/core/sql/statistics.node';
import { writeParquet } from '../../src/core/table/parquet';
import { cellText, findColumn, floatValues, isNumeric, type Table } from '../../src/core/table/table';
import { decodeTable } from '../../src/core/table/wire';
import type { RunningEmulator } from '../../src/emulator/index';
import { APPLY_CORRECTION_COMMAND, REGULATORY_STATISTICS_COMMAND } from '../../src/extension/notebook/aq-commands';
import { api, type HostEmulator, openNotebook, runCell, startHostEmulator, stopHostEmulator } from './helpers';
import { QuickInputDriver } from './quick-input-driver';

const CONNECTION = 'AQ commands emulator';
const PM = 'pm2_5ConcMass1HourMean.raw';
const PM_VALUE = 'pm2_5ConcMass1HourMean.value';
const RH = 'relHumidAmbient1HourMean.value';

function table(cell: vscode.NotebookCell): Table {
  const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === MIME.table);
  if (!item) throw new Error('no table output');
  return decodeTable(item.data);
}

const numbers = (t: Table, name: string) => {
  const c = findColumn(t, name);
  assert.ok(c && isNumeric(c), `column ${name} in ${t.columns.map((x) => x.name)}`);
  return floatValues(c);
};
const texts = (t: Table, name: string) => {
  const c = findColumn(t, name);
  assert.ok(c, `column ${name}`);
  return Array.from({ length: t.rowCount }, (_, i) => cellText(c, i));
};

describe('air-quality commands: corrections and regulatory statistics', function () {
  this.timeout(180_000);
  let host: HostEmulator;
  let emu: RunningEmulator;
  let nb: vscode.NotebookDocument;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-aq-'));

  before(async () => {
    host = await startHostEmulator(CONNECTION, '2026-11-20T12:00:30Z');
    ({ emu } = host);
    nb = await openNotebook(path.join(scratch, 'aq.measnb'), {
      metadata: { connection: CONNECTION },
      cells: [
        codeCell(
          'recent as pm\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMass1HourMean + relHumidAmbient1HourMean\nstartTime: -2d',
        ),
      ],
    });
    assert.equal((await runCell(nb, 0)).success, true);
  });
  after(() => stopHostEmulator(host));

  it('Apply PM2.5 Correction inserts the EPA cell after the result; it runs and gives the formula on every row', async () => {
    const inserted = (await vs.commands.executeCommand(APPLY_CORRECTION_COMMAND, {
      cell: nb.cellAt(0),
      method: 'epa2021',
      pmColumn: PM,
      rhColumn: RH,
      datasources: [],
    })) as vscode.NotebookCell;
    assert.equal(inserted.index, 1);
    const text = inserted.document.getText();
    assert.match(text, /^sql as pm_epa2021\n-- Correction: EPA US-wide correction \(Barkjohn et al\. 2021\)/);
    assert.match(text, /doi:10\.5194\/amt-14-4617-2021/);
    assert.equal((await runCell(nb, 1)).success, true);
    const t = table(nb.cellAt(1));
    const [pm, rh, got] = [numbers(t, PM), numbers(t, RH), numbers(t, 'pm2_5ConcMass1HourMean_epa2021')];
    let checked = 0;
    for (let i = 0; i < t.rowCount; i++) {
      const want = correctValue('epa2021', pm[i], rh[i]);
      if (Number.isNaN(want)) assert.ok(Number.isNaN(got[i]));
      else {
        assert.ok(Math.abs(got[i] - want) < 1e-9, `row ${i}: ${got[i]} vs ${want}`);
        checked++;
      }
    }
    assert.ok(checked > 24, `${checked} rows checked`);
  });

  it('a collocation fit: coefficients over every paired hour of the result, applied to the sensor only', async () => {
    const ref = emu.facts.datasources.find((d) => d.sourceType === 'REFERENCE_SITE')?.datasourceId ?? '';
    const sensor = emu.facts.datasources.find((d) => d.sourceType === 'SERVICE_NODE')?.datasourceId ?? '';
    const inserted = (await vs.commands.executeCommand(APPLY_CORRECTION_COMMAND, {
      cell: nb.cellAt(0),
      method: 'fit',
      pmColumn: PM,
      datasources: [sensor],
      fit: { sensor, reference: ref, referenceColumn: PM_VALUE },
    })) as vscode.NotebookCell;
    // The expected fit, paired here from the result's rows by time (not by the command's SQL).
    const t = table(nb.cellAt(0));
    const [ids, times, raw, value] = [
      texts(t, 'datasourceId'),
      numbers(t, 'time'),
      numbers(t, PM),
      numbers(t, PM_VALUE),
    ];
    const refAt = new Map<number, number>();
    for (let i = 0; i < t.rowCount; i++) if (ids[i] === ref && !Number.isNaN(value[i])) refAt.set(times[i], value[i]);
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < t.rowCount; i++)
      if (ids[i] === sensor && !Number.isNaN(raw[i]) && refAt.has(times[i])) {
        x.push(raw[i]);
        y.push(refAt.get(times[i]) ?? Number.NaN);
      }
    const want = fitLinear(x, y);
    const coef = /^-- Coefficients: a = (\S+), b = (\S+) \(n = (\d+)\)$/m.exec(inserted.document.getText());
    assert.ok(coef, inserted.document.getText());
    assert.ok(
      Math.abs(Number(coef[1]) - want.a) < 1e-9 && Math.abs(Number(coef[2]) - want.b) < 1e-9,
      `${coef} vs ${JSON.stringify(want)}`,
    );
    assert.equal(Number(coef[3]), x.length);
    assert.equal((await runCell(nb, inserted.index)).success, true);
    const out = table(nb.cellAt(inserted.index));
    const [oids, oraw, fitted] = [
      texts(out, 'datasourceId'),
      numbers(out, PM),
      numbers(out, 'pm2_5ConcMass1HourMean_fit'),
    ];
    for (let i = 0; i < out.rowCount; i++) {
      if (oids[i] !== sensor || Number.isNaN(oraw[i])) assert.ok(Number.isNaN(fitted[i]), `row ${i}`);
      else assert.ok(Math.abs(fitted[i] - (want.a + want.b * oraw[i])) < 1e-9);
    }
  });

  it('Regulatory Statistics over the whole named result: a small table labelled indicative', async () => {
    const sensor = emu.facts.datasources.find((d) => d.sourceType === 'SERVICE_NODE')?.datasourceId ?? '';
    const out = (await vs.commands.executeCommand(REGULATORY_STATISTICS_COMMAND, {
      cell: nb.cellAt(0),
      metric: 'pm2_5ConcMass1HourMean',
      datasource: sensor,
      year: 2026,
      quarter: 4,
      timeZone: 'America/Denver',
    })) as StatisticsOutcome;
    assert.ok(out, 'the command returned its outcome');
    assert.equal(out.notes[0], 'indicative: sensor data, not a regulatory determination');
    assert.deepEqual([out.rows[0].period, out.rows[0].days], ['2026 Q4', 92]);
    // Two days of hours ending 2026-11-20 12:00Z: one whole Denver standard day at least, at most two.
    assert.ok(out.rows[0].validDays >= 1 && out.rows[0].validDays <= 2, String(out.rows[0].validDays));
    assert.equal(out.table.rowCount, 1);
  });

  it('Regulatory Statistics of a table file (Explorer menu): every row of the file, in the zone asked', async () => {
    // 2026 Q1 of one datasource: 90 days of 24 hourly values, day i's value i + 1; in UTC days.
    const start = Date.UTC(2026, 0, 1);
    const times = Array.from({ length: 90 * 24 }, (_, k) => start + k * 3_600_000);
    const file = path.join(scratch, 'q1.parquet');
    const t: Table = {
      rowCount: times.length,
      columns: [
        { kind: 'identifier', name: 'datasourceId', dict: ['D1'], codes: new Int32Array(times.length) },
        { kind: 'time', name: 'time', values: Float64Array.from(times) },
        {
          kind: 'number',
          name: 'no2Conc1HourMean.value',
          values: Float64Array.from(times, (_, k) => Math.floor(k / 24) + 1),
        },
      ],
    };
    fs.writeFileSync(file, writeParquet(t));
    const out = (await vs.commands.executeCommand(REGULATORY_STATISTICS_COMMAND, {
      file: vs.Uri.file(file),
      metric: 'no2Conc1HourMean',
      year: 2026,
      quarter: 1,
      timeZone: 'UTC',
    })) as StatisticsOutcome;
    assert.ok(out, 'the command returned its outcome');
    // 90 valid days; NO2: the 98th percentile of daily maxima, rank 2 (Appendix S Table 1): 89; none above 100 ppb.
    assert.deepEqual(
      [out.rows[0].validDays, out.rows[0].p98, out.rows[0].p98Rank, out.rows[0].daysAbove],
      [90, 89, 2, 0],
    );
  });
  it('Regulatory Statistics of a file of two datasources asks for one: the core reason in the pick, its own hint', async () => {
    const start = Date.UTC(2026, 0, 1);
    const times = Array.from({ length: 2 * 24 }, (_, k) => start + Math.floor(k / 2) * 3_600_000);
    const file = path.join(scratch, 'two.parquet');
    const t: Table = {
      rowCount: times.length,
      columns: [
        {
          kind: 'identifier',
          name: 'datasourceId',
          dict: ['D1', 'D2'],
          codes: Int32Array.from(times, (_, k) => k % 2),
        },
        { kind: 'time', name: 'time', values: Float64Array.from(times) },
        {
          kind: 'number',
          name: 'pm2_5ConcMass1HourMean.value',
          values: Float64Array.from(times, (_, k) => 1 + (k % 2)),
        },
      ],
    };
    fs.writeFileSync(file, writeParquet(t));
    const driver = new QuickInputDriver(await api());
    try {
      const running = vs.commands.executeCommand(REGULATORY_STATISTICS_COMMAND, {
        file: vs.Uri.file(file),
        metric: 'pm2_5ConcMass1HourMean',
        year: 2026,
        quarter: 1,
        timeZone: 'UTC',
      }) as Thenable<StatisticsOutcome | undefined>;
      const qp = await driver.pick('D2');
      assert.equal(qp.placeholder, 'Statistics are of one datasource: this data has 2 (D1, D2). Pick one.');
      const out = await running;
      assert.ok(out, 'the command returned its outcome');
      assert.equal(out.datasource, 'D2');
      assert.equal(out.rows[0].meanOfDailyMeans, 2);
    } finally {
      driver.dispose();
    }
  });
  it('Regulatory Statistics of a Parquet report (startOfPeriod as ISO text): its years and days read as instants', async () => {
    // 2026 Q1 hourly, as a parquet-wide report holds its times: text such as 2026-01-01T00:00:00Z.
    const n = 90 * 24;
    const iso = (k: number) => `${new Date(Date.UTC(2026, 0, 1) + k * 3_600_000).toISOString().slice(0, 19)}Z`;
    const file = path.join(scratch, 'report.parquet');
    const t: Table = {
      rowCount: n,
      columns: [
        {
          kind: 'text',
          name: 'startOfPeriod',
          dict: Array.from({ length: n }, (_, k) => iso(k)),
          codes: Int32Array.from({ length: n }, (_, k) => k),
        },
        { kind: 'number', name: 'pm2_5ConcMass1HourMean.value', values: new Float64Array(n).fill(4) },
      ],
    };
    fs.writeFileSync(file, writeParquet(t));
    const out = (await vs.commands.executeCommand(REGULATORY_STATISTICS_COMMAND, {
      file: vs.Uri.file(file),
      metric: 'pm2_5ConcMass1HourMean',
      year: 2026,
      quarter: 1,
      timeZone: 'UTC',
    })) as StatisticsOutcome | undefined;
    assert.ok(out, 'the command returned its outcome (no error on the text times)');
    assert.deepEqual([out.rows[0].validDays, out.rows[0].meanOfDailyMeans], [90, 4]);
  });
});
