import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { MalformedReplyError } from '../../../../src/core/api/errors';
import type { JsonLongBody } from '../../../../src/core/api/types';
import { tableToCsv } from '../../../../src/core/table/csv-export';
import { writeTableCsv } from '../../../../src/core/table/csv-export.node';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { pivotJsonLong } from '../../../../src/core/table/json-long';
import { readParquet, writeParquet } from '../../../../src/core/table/parquet';
import {
  type Column,
  cellText,
  columnByName,
  type DictColumn,
  type FlagsColumn,
  findColumn,
  isDecimal,
  type NumericColumn,
  numberAt,
  type Table,
} from '../../../../src/core/table/table';
import { decodeTable, encodeTable } from '../../../../src/core/table/wire';

const FIXTURE = join(__dirname, '../../../fixtures/public-node-report-hourly-english.csv');

function col(t: Table, name: string): Column {
  const c = findColumn(t, name);
  assert.ok(c, `column ${name}`);
  return c;
}
const cell = (t: Table, name: string, row: number) => cellText(col(t, name), row);

/** Every cell as text, for comparing tables. */
function cells(t: Table): string[][] {
  return t.columns.map((c) => Array.from({ length: t.rowCount }, (_, r) => cellText(c, r)));
}

describe('table: csv-wide', () => {
  let fixture: Table;
  before(async () => {
    fixture = await parseCsvWide(createReadStream(FIXTURE));
  });

  it('parses the real english node report (streamed) into 2904 rows with every column', () => {
    assert.equal(fixture.rowCount, 2904);
    assert.equal(fixture.columns.length, 86);
    assert.equal(cell(fixture, 'nodeId', 0), 'AQQCNWJ6');
    assert.equal(col(fixture, 'nodeId').kind, 'identifier');
    assert.equal(cell(fixture, 'Source Type', 0), 'CLARITY_NODE', 'unknown source types are kept as text');
    assert.equal(cell(fixture, 'startOfPeriod', 0), '2023-11-01T01:00:00.000Z');
    assert.equal(col(fixture, 'Start of Period').kind, 'time');
    assert.equal(numberAt(col(fixture, 'locationLatitude') as NumericColumn, 0), 37.7193391);
    assert.equal(cell(fixture, 'endOfPeriod', 2903), '2024-03-01T01:00:00.000Z');
  });

  it('maps english metric headers to canonical parts and kinds', () => {
    const value = col(fixture, 'PM 2.5 mass concentration, Nowcast value');
    assert.equal(value.canonical, 'pm2_5ConcMassNowcast.value');
    assert.deepEqual(value.metric, {
      quantity: 'pm2_5ConcMass',
      aggregation: 'Nowcast',
      index: undefined,
      field: 'value',
    });
    assert.equal(value.kind, 'number');
    assert.ok(
      isDecimal(value) && (value.ints instanceof Int16Array || value.ints instanceof Int32Array),
      'csv decimals held as scaled integers',
    );
    assert.equal(numberAt(value as NumericColumn, 0), 7.41);
    const aqi = col(fixture, 'pm2_5ConcMassNowcastUsEpaAqi.value');
    assert.equal(aqi.name, 'PM 2.5 mass concentration, Nowcast, UsEpaAqi value');
    assert.equal(cellText(aqi, 0), '31');
    const status = col(fixture, 'pm2_5ConcMassNowcast.status') as DictColumn;
    assert.equal(status.kind, 'status');
    assert.deepEqual(status.dict, ['calibrated-ready']);
    assert.ok(status.codes instanceof Int16Array, 'a small dictionary has Int16 codes');
    assert.ok(
      fixture.columns.every((c) => c.canonical),
      'every header of the fixture is understood',
    );
  });

  it('keeps empty cells empty (not 0, not "")', () => {
    const pressure = col(fixture, 'atmosphericPressure1HourMean.raw') as NumericColumn;
    assert.ok(Number.isNaN(numberAt(pressure, 0)));
    assert.equal(cellText(pressure, 0), '');
    const pmStatus = col(fixture, 'PM 10 mass concentration, 24-hour rolling mean status') as DictColumn;
    assert.equal(cell(fixture, 'PM 10 mass concentration, 24-hour rolling mean value', 0), '');
    assert.equal(pmStatus.dict[pmStatus.codes[0]], 'calibration-unknown');
  });

  it('reads by header in any order, keeps unknown columns, parses qcFlags JSON text', async () => {
    const csv = [
      'pm2_5ConcMassIndividual.qcFlags,pm2_5ConcMassIndividual.value,mystery,note,time,datasourceId,pm2_5ConcMassIndividual.qcAssessment,pm2_5ConcMass.value',
      '"[""QC.I.OOB.001"",""QC.I.OOB.002""]",1.5,7,"a, b",2026-11-01T10:00:00.000Z,D1,invalid,3',
      '[],,8,,2026-11-01T10:01:00.000Z,D2,valid,',
      ',2,,x,,D1,,4',
    ].join('\r\n');
    const t = await parseCsvWide(csv);
    assert.equal(t.rowCount, 3);
    const flags = col(t, 'pm2_5ConcMassIndividual.qcFlags') as FlagsColumn;
    assert.equal(flags.kind, 'qcFlags');
    assert.deepEqual(flags.dict[flags.codes[0]], ['QC.I.OOB.001', 'QC.I.OOB.002']);
    assert.deepEqual(flags.dict[flags.codes[1]], []);
    assert.equal(flags.codes[2], -1);
    assert.equal(col(t, 'pm2_5ConcMassIndividual.qcAssessment').kind, 'qcAssessment');
    assert.equal(col(t, 'mystery').kind, 'number', 'unknown all-numeric column becomes a number column');
    assert.equal(cell(t, 'mystery', 2), '');
    assert.equal(col(t, 'note').kind, 'text');
    assert.equal(cell(t, 'note', 0), 'a, b');
    assert.equal(cell(t, 'datasourceId', 1), 'D2');
    assert.equal(cell(t, 'time', 2), '');
    assert.equal(col(t, 'pm2_5ConcMass.value').kind, 'number', 'legacy label: value is still a number');
    assert.equal(col(t, 'pm2_5ConcMass.value').metric, undefined, 'legacy label is not split');
  });

  it('keeps ids that look numeric as text in unknown columns', async () => {
    const t = await parseCsvWide('code,delta\n12,-0.5\n007,3\n');
    assert.equal(col(t, 'code').kind, 'text');
    assert.deepEqual([cell(t, 'code', 0), cell(t, 'code', 1)], ['12', '007']);
    assert.equal(col(t, 'delta').kind, 'number');
    assert.equal(cell(t, 'delta', 0), '-0.5');
  });

  it('keeps text that does not fit the column kind instead of dropping it', async () => {
    const t = await parseCsvWide('datasourceId,locationLatitude,time\nD1,1.5,2026-11-01T00:00:00Z\nD1,n/a,soon\n');
    assert.equal(col(t, 'locationLatitude').kind, 'text');
    assert.equal(cell(t, 'locationLatitude', 0), '1.5');
    assert.equal(cell(t, 'locationLatitude', 1), 'n/a');
    assert.equal(cell(t, 'time', 1), 'soon');
  });

  it('rejects (does not hang on) a malformed stream that keeps coming', async () => {
    async function* chunks() {
      yield 'datasourceId,note\nD1,"bad"quote\n';
      for (let i = 0; i < 2000; i++) yield `D${i},${'x'.repeat(1000)}\n`;
    }
    await assert.rejects(
      parseCsvWide(chunks()),
      (e: unknown) => e instanceof MalformedReplyError && e.code === 'MALFORMED_REPLY' && /quote/i.test(e.message),
    );
  });

  it('handles an empty body, a header only, short rows and a BOM', async () => {
    assert.equal((await parseCsvWide('')).rowCount, 0);
    const h = await parseCsvWide('\uFEFFdatasourceId,time\n');
    assert.equal(h.rowCount, 0);
    assert.equal(h.columns[0].name, 'datasourceId');
    const short = await parseCsvWide('a,b,c\n1\n');
    assert.equal(cell(short, 'c', 0), '');
  });

  it('round-trips through tableToCsv and writeTableCsv', async () => {
    const again = await parseCsvWide(tableToCsv(fixture));
    assert.deepEqual(cells(again), cells(fixture));
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (c) => chunks.push(c));
    await writeTableCsv(fixture, sink, { rowsPerChunk: 100, header: 'canonical' });
    const text = Buffer.concat(chunks).toString('utf8');
    assert.ok(text.startsWith('nodeId,sourceId,sourceType,outputFrequency,startOfPeriod,'));
    assert.equal(text.split('\n').length, 2904 + 2);
  });
});

describe('table: json-long pivot', () => {
  const body: JsonLongBody = {
    request: {},
    data: [
      {
        datasourceId: 'D1',
        time: '2026-11-01T12:00:00Z',
        status: 'calibrated-ready',
        value: 5,
        raw: 6,
        metric: 'pm2_5ConcMassIndividual',
        qcAssessment: 'invalid',
        qcFlags: ['QC.I.OOB.001'],
      },
      {
        datasourceId: 'D1',
        time: '2026-11-01T12:00:00Z',
        status: 'sensor-ready',
        value: 40,
        raw: 40,
        metric: 'relHumidAmbientIndividual',
        qcAssessment: 'valid',
        qcFlags: [],
      },
      {
        datasourceId: 'D2',
        time: '2026-11-01T12:00:00Z',
        status: 'calibration-missing',
        value: null,
        raw: 7,
        metric: 'pm2_5ConcMassIndividual',
        qcAssessment: 'valid',
        qcFlags: [],
      },
      {
        datasourceId: 'D1',
        time: '2026-11-01T10:00:00Z',
        status: 'sensor-ready',
        value: 3,
        raw: 3,
        metric: 'pm2_5ConcMassIndividual',
        qcAssessment: 'valid',
        qcFlags: [],
      },
    ],
    locations: [
      { datasourceId: 'D1', lat: 1, lon: 2 },
      { datasourceId: 'D1', lat: 10, lon: 20, changedAt: '2026-11-01T11:00:00Z' },
      { datasourceId: 'D2', lat: 5, lon: 6 },
    ],
  };

  it('gives one row per datasource × time with <metric>.<field> columns', () => {
    const t = pivotJsonLong(body);
    assert.equal(t.rowCount, 3);
    assert.deepEqual(
      t.columns.map((c) => c.name),
      [
        'datasourceId',
        'time',
        'locationLatitude',
        'locationLongitude',
        'pm2_5ConcMassIndividual.value',
        'pm2_5ConcMassIndividual.raw',
        'pm2_5ConcMassIndividual.status',
        'pm2_5ConcMassIndividual.qcAssessment',
        'pm2_5ConcMassIndividual.qcFlags',
        'relHumidAmbientIndividual.value',
        'relHumidAmbientIndividual.raw',
        'relHumidAmbientIndividual.status',
        'relHumidAmbientIndividual.qcAssessment',
        'relHumidAmbientIndividual.qcFlags',
      ],
    );
    assert.deepEqual(
      [0, 1, 2].map((r) => cell(t, 'datasourceId', r)),
      ['D1', 'D2', 'D1'],
    );
    assert.equal(cell(t, 'time', 2), '2026-11-01T10:00:00.000Z');
    assert.equal(cell(t, 'pm2_5ConcMassIndividual.value', 1), '', 'null value stays empty');
    assert.equal(cell(t, 'pm2_5ConcMassIndividual.raw', 1), '7');
    assert.equal(cell(t, 'relHumidAmbientIndividual.value', 1), '', 'metric absent for D2');
    assert.equal(cell(t, 'pm2_5ConcMassIndividual.qcFlags', 0), '["QC.I.OOB.001"]');
    assert.equal(col(t, 'pm2_5ConcMassIndividual.qcFlags').kind, 'qcFlags');
    assert.equal(cell(t, 'pm2_5ConcMassIndividual.status', 1), 'calibration-missing');
    assert.equal(col(t, 'pm2_5ConcMassIndividual.value').metric?.quantity, 'pm2_5ConcMass');
  });

  it('joins locations respecting changedAt', () => {
    const t = pivotJsonLong(body);
    assert.equal(cell(t, 'locationLatitude', 0), '10', 'D1 at 12:00 is at the new location');
    assert.equal(cell(t, 'locationLatitude', 2), '1', 'D1 at 10:00 is still at the first location');
    assert.equal(cell(t, 'locationLongitude', 1), '6');
  });

  it('treats a missing locations list (and missing qc fields) as empty', () => {
    const t = pivotJsonLong({ data: [body.data[3]].map(({ qcFlags: _f, qcAssessment: _a, ...m }) => m) });
    assert.equal(t.rowCount, 1);
    assert.equal(cell(t, 'locationLatitude', 0), '');
    assert.equal(columnByName(t, 'pm2_5ConcMassIndividual.qcFlags'), undefined);
    assert.equal(pivotJsonLong({ data: [] }).rowCount, 0);
  });
});

describe('table: wire format and parquet', () => {
  let fixture: Table;
  before(async () => {
    fixture = await parseCsvWide(readFileSync(FIXTURE));
  });

  it('round-trips every cell, kind and label through encodeTable/decodeTable', () => {
    const bytes = encodeTable(fixture);
    assert.ok(bytes.length < 2904 * 86 * 8 + 200_000, 'compact: typed arrays, not JSON per cell');
    const back = decodeTable(bytes);
    assert.equal(back.rowCount, fixture.rowCount);
    const shape = (t: Table) => JSON.stringify(t.columns.map((c) => [c.name, c.kind, c.canonical, c.metric]));
    assert.equal(shape(back), shape(fixture));
    assert.deepEqual(cells(back), cells(fixture));
  });

  it('decodes from an unaligned copy and with qcFlags', () => {
    const t = pivotJsonLong({
      data: [
        {
          datasourceId: 'D',
          time: '2026-11-01T00:00:00Z',
          status: 's',
          value: 1,
          raw: 1,
          metric: 'm',
          qcFlags: ['QC.I.X.1'],
        },
      ],
    });
    const bytes = encodeTable(t);
    const shifted = new Uint8Array(bytes.length + 3).subarray(3);
    shifted.set(bytes);
    const back = decodeTable(shifted);
    assert.deepEqual(cells(back), cells(t));
    assert.throws(() => decodeTable(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /bad magic/);
  });

  it('round-trips through writeParquet/readParquet', async () => {
    const back = await readParquet(writeParquet(fixture));
    assert.equal(back.rowCount, 2904);
    assert.deepEqual(
      back.columns.map((c) => [c.name, c.kind]),
      fixture.columns.map((c) => [c.name, c.kind]),
    );
    assert.deepEqual(cells(back), cells(fixture));
  });

  it('round-trips qcFlags and empty cells through parquet', async () => {
    const t = await parseCsvWide(
      'datasourceId,time,pm2_5ConcMassIndividual.qcFlags,pm2_5ConcMassIndividual.value\nD1,2026-11-01T00:00:00Z,"[""QC.I.OOB.001""]",\nD2,,,2.5\n',
    );
    const back = await readParquet(writeParquet(t));
    assert.deepEqual(cells(back), cells(t));
    assert.equal(col(back, 'pm2_5ConcMassIndividual.qcFlags').kind, 'qcFlags');
  });
});
