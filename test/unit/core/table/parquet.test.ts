import assert from 'node:assert/strict';
import { type AsyncBuffer, parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { ParquetPagesTooLarge } from '../../../../src/core/api/errors';
import { readParquetHead, writeParquet, writeParquetInTurns } from '../../../../src/core/table/parquet';
import { cellText, floatValues, type NumericColumn, numberAt } from '../../../../src/core/table/table';
import { syntheticTable } from '../../../support/synthetic-table';

/** An in-memory file that records the byte ranges read from it. */
function recorded(body: ArrayBuffer): { file: AsyncBuffer; reads: number[] } {
  const reads: number[] = [];
  const file = {
    byteLength: body.byteLength,
    slice(start: number, end = body.byteLength) {
      reads.push(end - start);
      return body.slice(start, end);
    },
  };
  return { file, reads };
}

describe('core table: parquet head', () => {
  it('a row group larger than the limit: only the pages of the first rows are read, not the whole group', async () => {
    const n = 40_000;
    const ids = Array.from({ length: n }, (_, i) => `N${i % 500}`);
    const values = Float64Array.from({ length: n }, (_, i) => i / 4);
    // One row group of small pages, without an offset index (as DuckDB writes) and with one.
    for (const offsetIndex of [false, true]) {
      const body = parquetWriteBuffer({
        columnData: [
          { name: 'datasourceId', data: ids, type: 'STRING', offsetIndex },
          { name: 'pm2_5ConcMass.value', data: values, type: 'DOUBLE', offsetIndex },
        ],
        rowGroupSize: n,
        pageSize: 4096,
      });
      const { file, reads } = recorded(body);
      const r = await readParquetHead(file, 1000);
      assert.equal(r.totalRows, n);
      assert.equal(r.table.rowCount, 1000);
      assert.equal(cellText(r.table.columns[0], 999), 'N499');
      const pm = r.table.columns[1] as NumericColumn;
      assert.deepEqual(Array.from(floatValues(pm).slice(997, 1000)), [249.25, 249.5, 249.75]);
      // The first read is the footer's (the last 512 KB: all of this small file); the rest are the rows'.
      const rowBytes = reads.slice(1).reduce((a, b) => a + b, 0);
      assert.ok(rowBytes < body.byteLength / 5, `read ${rowBytes} of ${body.byteLength} bytes for the rows`);

      const all = await readParquetHead(file, n);
      assert.equal(all.table.rowCount, n, 'the whole group when every row is wanted');
      assert.equal(numberAt(all.table.columns[1] as NumericColumn, n - 1), (n - 1) / 4);
    }
  });

  it('pages holding far more rows than asked for: says so before decoding them', async () => {
    const n = 20_000;
    const body = parquetWriteBuffer({
      columnData: [
        { name: 'pm2_5ConcMass.value', data: Float64Array.from({ length: n }, (_, i) => i), type: 'DOUBLE' },
      ],
      rowGroupSize: n,
      pageSize: 1 << 24,
    });
    const { file, reads } = recorded(body);
    await assert.rejects(readParquetHead(file, 10, { maxDecodedRows: 1000 }), (e) => {
      assert.ok(e instanceof ParquetPagesTooLarge);
      assert.equal(e.totalRows, n);
      assert.equal(e.decodedRows, n);
      return true;
    });
    assert.ok(reads.length <= 2, 'the footer and one page header, no page');
    const r = await readParquetHead(file, 10, { maxDecodedRows: n });
    assert.deepEqual(Array.from(floatValues(r.table.columns[0] as NumericColumn)), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('core table: parquet head on hostile files', () => {
  /** A file of one row group of 1,000 rows (the first empty) whose first page starts with `header`. */
  function withFirstHeader(header: number[]): ArrayBuffer {
    const body = parquetWriteBuffer({
      columnData: [{ name: 'v', data: Array.from({ length: 1000 }, (_, i) => (i ? i : null)), type: 'DOUBLE' }],
      rowGroupSize: 1000,
      pageSize: 1024,
    });
    const meta = parquetMetadata(body).row_groups[0].columns[0].meta_data!;
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    new Uint8Array(body).set(header, start);
    return body;
  }

  it('a footer claiming more than 16 MiB of metadata is refused without reading it', async () => {
    const size = 64 * 1024 * 1024;
    const reads: number[] = [];
    // A virtual 64 MiB file: zeros, then a metadata length of 32 MiB and "PAR1".
    const file: AsyncBuffer = {
      byteLength: size,
      slice(start: number, end = size) {
        reads.push(end - start);
        const out = new Uint8Array(end - start);
        const tail = new Uint8Array([0, 0, 0, 2, 0x50, 0x41, 0x52, 0x31]); // 32 MiB LE, PAR1
        for (let i = 0; i < 8; i++)
          if (size - 8 + i >= start && size - 8 + i < end) out[size - 8 + i - start] = tail[i];
        return out.buffer;
      },
    };
    await assert.rejects(readParquetHead(file, 10), /the file's metadata is longer than the 16777216 bytes read/);
    assert.ok(Math.max(...reads) <= 16 * 1024 * 1024, `reads: ${reads}`);
  });

  it('a page header whose size is minus its own length is refused (it used to be read again forever)', async () => {
    // Thrift compact: type DATA_PAGE (0), uncompressed 0, compressed -7 (zigzag 13), stop: 7 bytes.
    const { file } = recorded(withFirstHeader([0x15, 0x00, 0x15, 0x00, 0x15, 0x0d, 0x00]));
    await assert.rejects(readParquetHead(file, 10), /a page header at byte \d+ says -7 bytes and 0 values/);
  });

  it('a page header claiming a huge or negative value count is refused before any page is decoded', async () => {
    // compressed 2^31 - 1 (past the chunk's end), then a data page header of -5 values.
    const huge = [0x15, 0x00, 0x15, 0x00, 0x15, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x00];
    await assert.rejects(
      readParquetHead(recorded(withFirstHeader(huge)).file, 10),
      /a page at byte \d+ \(2147483647 bytes\) ends past its column chunk/,
    );
    const negative = [0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x2c, 0x15, 0x09, 0x00, 0x00];
    await assert.rejects(readParquetHead(recorded(withFirstHeader(negative)).file, 10), /says 0 bytes and -5 values/);
  });
});

describe('core table: parquet head on a page claiming more values than its row group', () => {
  const varint = (n: number) => {
    const out: number[] = [];
    for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n & 0x7f) | 0x80);
    return [...out, n];
  };
  const i32 = (n: number) => varint(n * 2); // zigzag of a non-negative number

  it('16 million empty values in a 12-byte page (a run of nulls) are refused before hyparquet decodes them', async () => {
    const values = 1 << 24;
    // The page: definition levels (4-byte length, then one RLE run of `values` zeros), no values; as snappy.
    const run = [...varint(values * 2), 0];
    const page = [run.length, 0, 0, 0, ...run];
    const snappy = [...varint(page.length), (page.length - 1) << 2, ...page];
    const header = [
      ...[0x15, 0x00, 0x15, ...i32(page.length), 0x15, ...i32(snappy.length)],
      ...[0x2c, 0x15, ...i32(values), 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00],
    ];
    const body = parquetWriteBuffer({
      columnData: [{ name: 'v', data: Array.from({ length: 1000 }, (_, i) => (i ? i : null)), type: 'DOUBLE' }],
      rowGroupSize: 1000,
    });
    const meta = parquetMetadata(body).row_groups[0].columns[0].meta_data!;
    new Uint8Array(body).set([...header, ...snappy], Number(meta.dictionary_page_offset || meta.data_page_offset));
    for (const maxRows of [10, 1000]) {
      await assert.rejects(
        readParquetHead(recorded(body).file, maxRows, { maxDecodedRows: 1 << 30 }),
        /the pages of a column hold 16777216 values, more than the 1000 rows of their row group/,
      );
    }
  });
});

describe('core table: parquet head on pages decoding to more than a table keeps', () => {
  it('a page claiming 1 GiB uncompressed goes to the SQL engine (ParquetPagesTooLarge) before it is decoded', async () => {
    const varint = (n: number) => {
      const out: number[] = [];
      for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n & 0x7f) | 0x80);
      return [...out, n];
    };
    const i32 = (n: number) => varint(n * 2);
    // uncompressed 2^30, compressed 0, a data page of 10 values.
    const header = [
      ...[0x15, 0x00, 0x15, ...i32(2 ** 30), 0x15, ...i32(0)],
      ...[0x2c, 0x15, ...i32(10), 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00],
    ];
    const body = parquetWriteBuffer({
      columnData: [{ name: 'v', data: Array.from({ length: 1000 }, (_, i) => (i ? i : null)), type: 'DOUBLE' }],
      rowGroupSize: 1000,
    });
    const meta = parquetMetadata(body).row_groups[0].columns[0].meta_data!;
    new Uint8Array(body).set(header, Number(meta.dictionary_page_offset || meta.data_page_offset));
    await assert.rejects(readParquetHead(recorded(body).file, 10, { maxDecodedRows: 1 << 30 }), ParquetPagesTooLarge);
  });
});

describe('parquet written one row group at a time (writeParquetInTurns)', () => {
  it('is the same file as writeParquet, byte for byte, with a turn after each row group', async () => {
    for (const rows of [0, 1, 1_000, 1_001, 101_001]) {
      const table = syntheticTable(rows, 37);
      let turns = 0;
      const inTurns = await writeParquetInTurns(table, async () => {
        turns++;
      });
      assert.deepEqual(inTurns, writeParquet(table), `${rows} rows`);
      assert.equal(turns, rows === 0 ? 0 : rows <= 1_000 ? 1 : 1 + Math.ceil((rows - 1_000) / 100_000), `${rows} rows`);
    }
  });
});
