import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { TableFileError } from '../../../../src/core/api/errors';
import { readTableFile } from '../../../../src/core/sql/file-read.node';
import { writeParquet } from '../../../../src/core/table/parquet';
import {
  cellText,
  columnByName,
  floatValues,
  type NumericColumn,
  numberAt,
  type Table,
} from '../../../../src/core/table/table';

const HEADER =
  'nodeId,Source Id,Start of Period,End of Period,Location Latitude [deg],"PM 2.5 mass concentration, 1-hour mean value","PM 2.5 mass concentration, 1-hour mean status"';
const row = (i: number) =>
  `N${i},S1,2026-03-01T${String(i % 24).padStart(2, '0')}:00:00Z,2026-03-01T${String(i % 24).padStart(2, '0')}:59:59Z,-31.95,${i}.5,valid`;
const csv = (rows: number) => `${[HEADER, ...Array.from({ length: rows }, (_, i) => row(i))].join('\n')}\n`;

describe('core table: local table files (first rows kept, the rest counted)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-file-read-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, body: string | Uint8Array) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, body);
    return p;
  };

  it('a report CSV with english headers: every row, columns typed as for service output', async () => {
    const r = await readTableFile(write('small.csv', csv(3)), { maxRows: 100 });
    assert.equal(r.totalRows, 3);
    assert.equal(r.table.rowCount, 3);
    const start = columnByName(r.table, 'Start of Period') as NumericColumn;
    assert.equal(start.kind, 'time');
    assert.equal(start.canonical, 'startOfPeriod');
    assert.equal(start.values[1], Date.parse('2026-03-01T01:00:00Z'));
    const pm = r.table.columns[5] as NumericColumn;
    assert.equal(pm.kind, 'number');
    assert.ok(pm.metric, 'the english metric label is understood');
    assert.deepEqual(Array.from(floatValues(pm)), [0.5, 1.5, 2.5]);
    assert.equal(r.table.columns[6].kind, 'status');
    assert.equal(columnByName(r.table, 'Source Id')?.canonical, 'sourceId');
  });

  it('a csv.gz over the limit: the first rows, the total counted, the first rows handed over early', async () => {
    let early: Table | undefined;
    const r = await readTableFile(write('big.csv.gz', gzipSync(csv(5000))), {
      maxRows: 1000,
      onFirstRows: (t) => {
        early = t;
      },
    });
    assert.equal(r.format, 'csv.gz');
    assert.equal(r.table.rowCount, 1000);
    assert.equal(r.totalRows, 5000);
    assert.equal(early, r.table, 'the same table, handed over before the count finished');
    assert.equal(cellText(r.table.columns[0], 999), 'N999');
  });

  it('a Parquet file: the first rows through positioned reads, the total from its footer', async () => {
    const whole = await readTableFile(write('t.csv', csv(300)), { maxRows: 1000 });
    const p = write('t.parquet', writeParquet(whole.table));
    let progress = 0;
    const r = await readTableFile(p, { maxRows: 120, onProgress: (n) => (progress = n) });
    assert.equal(r.totalRows, 300);
    assert.equal(r.table.rowCount, 120);
    assert.equal(cellText(r.table.columns[0], 119), 'N119');
    assert.equal(r.table.columns[2].kind, 'time');
    assert.ok(progress > 0);
  });

  it('a Parquet file whose pages are far longer than the rows kept is read by the SQL engine', async () => {
    const whole = await readTableFile(write('long.csv', csv(3000)), { maxRows: 5000 });
    // One row group, one page per column (as DuckDB writes them).
    const p = write('long.parquet', writeParquet(whole.table));
    const r = await readTableFile(p, { maxRows: 100, maxDecodedRows: 1000 });
    assert.equal(r.totalRows, 3000);
    assert.equal(r.table.rowCount, 100);
    assert.equal(cellText(r.table.columns[0], 99), 'N99');
    const start = columnByName(r.table, 'Start of Period') as NumericColumn;
    assert.equal(start.kind, 'time');
    assert.equal(start.values[1], Date.parse('2026-03-01T01:00:00Z'));
    assert.equal(numberAt(r.table.columns[5] as NumericColumn, 99), 99.5);
  });

  it('a CSV that is no measurement file opens as a generic table; a malformed one is a TableFileError', async () => {
    const r = await readTableFile(write('other.csv', 'name,count\nalpha,3\nbeta,4\n'), { maxRows: 10 });
    assert.deepEqual(
      r.table.columns.map((c) => c.kind),
      ['text', 'number'],
    );
    await assert.rejects(readTableFile(write('bad.csv', 'a,b\n"open,1\n'), { maxRows: 10 }), TableFileError);
    await assert.rejects(readTableFile(write('bad.parquet', 'not parquet at all'), { maxRows: 10 }), TableFileError);
    await assert.rejects(
      readTableFile(write('bad.csv.gz', Buffer.from([0x1f, 0x8b, 1, 2, 3])), { maxRows: 10 }),
      TableFileError,
    );
  });

  it('stops when cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(readTableFile(write('c.csv', csv(10)), { maxRows: 5, signal: abort.signal }), {
      name: 'AbortError',
    });
  });
});
