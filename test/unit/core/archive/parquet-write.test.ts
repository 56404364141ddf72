import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects, snappyUncompress } from 'hyparquet';
import { TEXT_STATISTICS_BYTES } from '../../../../src/core/archive/parquet-footer';
import { ParquetEncoder, type ParquetKind, type PieceCells } from '../../../../src/core/archive/parquet-write';
import { SnappyCompressor } from '../../../../src/core/archive/snappy';
import { withDuckDb as duckdb } from '../../../support/duckdb-query';

// The archive's Parquet writer, read back by DuckDB (the engine sql cells use; pyarrow, Dask and Ray read
// the archive in the python lane, scripts/python-lane.mjs). Expected values are the cells written: the
// Parquet format (https://parquet.apache.org/docs/file-format/) stores them exactly (DOUBLE as IEEE 754
// binary64, TIMESTAMP(MICROS) as int64 µs since 1970-01-01T00:00:00Z).

/** Writes `groups` (each: the rows of the piece to put in one row group) of one piece to `file`. */
function writeFile(
  file: string,
  columns: Array<[string, ParquetKind]>,
  cells: PieceCells[],
  groups: number[][],
  encoder = new ParquetEncoder(),
): void {
  writeFileSync(file, new Uint8Array(0));
  const pq = encoder.file(
    columns.map(([name, kind]) => ({ name, kind })),
    (bytes) => appendFileSync(file, bytes),
  );
  for (const rows of groups) pq.writeRowGroup(cells, rows);
  pq.finish();
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('core/archive/parquet-write: Parquet files from typed arrays, read back by DuckDB', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-pqw-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  // Times in ms: 1870-01-01 (before 1970), the epoch, 9999-12-31T23:59:59.999Z, 2026-03-01T00:00:00.123Z.
  const T_1870 = Date.UTC(1870, 0, 1);
  const T_9999 = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  const T_2026 = Date.UTC(2026, 2, 1, 0, 0, 0, 123);
  const columns: Array<[string, ParquetKind]> = [
    ['t', 'time'],
    ['v', 'double'],
    ['s', 'text'],
  ];
  const cells = (): PieceCells[] => [
    { kind: 'time', values: Float64Array.from([T_1870, 0, Number.NaN, T_9999, T_2026, -1]) },
    { kind: 'double', values: Float64Array.from([-0, Number.NaN, 1.7976931348623157e308, 5e-324, -2.5e-300, 0.1]) },
    { kind: 'text', codes: Int16Array.from([0, -1, 1, 0, 2, 0]), texts: ['ok', 'ready, "checked"', 'μg/m³ ✓'] },
  ];

  it('writes times as TIMESTAMPTZ µs, numbers as DOUBLE, texts as VARCHAR; NaN and code -1 are NULL', async () => {
    const file = join(dir, 'a.parquet');
    writeFile(file, columns, cells(), [range(0, 6)]);
    await duckdb(async (q) => {
      const types = await q(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '${file}')`);
      assert.deepEqual(
        types.map((r) => [r.column_name, r.column_type]),
        [
          ['t', 'TIMESTAMP WITH TIME ZONE'],
          ['v', 'DOUBLE'],
          ['s', 'VARCHAR'],
        ],
      );
      const rows = await q(`SELECT epoch_us(t)::VARCHAR AS us, v, v::VARCHAR AS vt, s FROM '${file}'`);
      assert.deepEqual(
        rows.map((r) => [r.us, r.v, r.vt, r.s]),
        [
          [String(BigInt(T_1870) * 1000n), -0, '-0.0', 'ok'],
          ['0', null, null, null],
          [null, 1.7976931348623157e308, '1.7976931348623157e+308', 'ready, "checked"'],
          [String(BigInt(T_9999) * 1000n), 5e-324, '5e-324', 'ok'],
          [String(BigInt(T_2026) * 1000n), -2.5e-300, '-2.5e-300', 'μg/m³ ✓'],
          ['-1000', 0.1, '0.1', 'ok'],
        ],
      );
    });
  });

  it('is read the same by hyparquet (an independent reader: the one core/table uses)', async () => {
    const file = join(dir, 'h.parquet');
    writeFile(file, columns, cells(), [range(0, 3), range(3, 6)]);
    const bytes = readFileSync(file);
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const rows = (await parquetReadObjects({ file: buf })) as Array<{
      t: Date | null;
      v: number | null;
      s: string | null;
    }>;
    assert.deepEqual(
      rows.map((r) => [
        r.t === null ? null : r.t.getTime(),
        r.v === null ? null : Object.is(r.v, -0) ? '-0' : r.v,
        r.s,
      ]),
      [
        [T_1870, '-0', 'ok'],
        [0, null, null],
        [null, 1.7976931348623157e308, 'ready, "checked"'],
        [T_9999, 5e-324, 'ok'],
        [T_2026, -2.5e-300, 'μg/m³ ✓'],
        [-1, 0.1, 'ok'],
      ],
    );
  });

  it('writes each chunk its null count and min/max (a zero min as -0, a zero max as +0; texts by UTF-8 bytes)', async () => {
    const file = join(dir, 's.parquet');
    const c: PieceCells[] = [
      { kind: 'time', values: Float64Array.from([T_2026, T_1870, Number.NaN, 0]) },
      { kind: 'double', values: Float64Array.from([0, 3, -0, Number.NaN]) },
      // 'é' (C3 A9) sorts after 'z' by bytes; UTF-16 order agrees here, 'Z' < 'a' either way.
      { kind: 'text', codes: Int16Array.from([0, 1, 2, -1]), texts: ['é', 'z', 'Za'] },
    ];
    writeFile(file, columns, c, [
      [0, 1, 2, 3],
      [2, 3],
    ]);
    await duckdb(async (q) => {
      const stats = await q(
        `SELECT row_group_id::INT AS g, path_in_schema AS p, stats_null_count::INT AS nulls, stats_min_value AS lo,
           stats_max_value AS hi FROM parquet_metadata('${file}') ORDER BY g, column_id`,
      );
      assert.deepEqual(
        stats.map((r) => [r.g, r.p, r.nulls, r.lo, r.hi]),
        [
          [0, 't', 1, '1870-01-01 00:00:00+00', '2026-03-01 00:00:00.123+00'],
          [0, 'v', 1, '-0.0', '3.0'],
          [0, 's', 1, 'Za', 'é'],
          [1, 't', 1, '1970-01-01 00:00:00+00', '1970-01-01 00:00:00+00'],
          [1, 'v', 1, '-0.0', '0.0'],
          [1, 's', 1, 'Za', 'Za'],
        ],
      );
      // The statistics are what DuckDB prunes row groups by: a filter on t that only group 0 can meet.
      const [{ n }] = await q(`SELECT count(*)::INT AS n FROM '${file}' WHERE t < '1900-01-01'`);
      assert.equal(n, 1);
    });
  });

  it('gives a text chunk no min/max when a bound is longer than TEXT_STATISTICS_BYTES (not truncated)', async () => {
    const file = join(dir, 'long.parquet');
    const long = 'x'.repeat(TEXT_STATISTICS_BYTES + 1);
    const c: PieceCells[] = [
      { kind: 'time', values: new Float64Array(2) },
      { kind: 'double', values: new Float64Array(2) },
      { kind: 'text', codes: Int16Array.from([0, 1]), texts: ['a', long] },
    ];
    writeFile(file, columns, c, [[0, 1], [0]]);
    await duckdb(async (q) => {
      const stats = await q(
        `SELECT stats_null_count::INT AS nulls, stats_min_value AS lo, stats_max_value AS hi
           FROM parquet_metadata('${file}') WHERE path_in_schema = 's' ORDER BY row_group_id`,
      );
      assert.deepEqual(stats, [
        { nulls: 0, lo: null, hi: null },
        { nulls: 0, lo: 'a', hi: 'a' },
      ]);
      const [{ n }] = await q(`SELECT count(*)::INT AS n FROM '${file}' WHERE s = '${long}'`);
      assert.equal(n, 1);
    });
  });

  it('writes several row groups from any rows of a piece, and a chunk all empty', async () => {
    const file = join(dir, 'g.parquet');
    const n = 10_000;
    const t = Float64Array.from(range(0, n), (i) => T_2026 + i * 60_000);
    const v = Float64Array.from(range(0, n), (i) => (i % 7 === 3 ? Number.NaN : i / 4));
    const codes = Int16Array.from(range(0, n), (i) => i % 3);
    const c: PieceCells[] = [
      { kind: 'time', values: t },
      { kind: 'double', values: v },
      { kind: 'text', codes, texts: ['a', 'b', 'c'] },
    ];
    const odd = range(0, n).filter((i) => i % 2 === 1);
    const even = range(0, n).filter((i) => i % 2 === 0);
    writeFile(file, columns, c, [odd.slice(0, 4096), even.slice(0, 4096), odd.slice(4096), [3, 10, 17]]);
    const written = [...odd.slice(0, 4096), ...even.slice(0, 4096), ...odd.slice(4096), 3, 10, 17];
    await duckdb(async (q) => {
      const groups = await q(
        `SELECT row_group_id AS g, row_group_num_rows::INT AS n FROM parquet_metadata('${file}') WHERE column_id = 0`,
      );
      assert.deepEqual(
        groups.map((r) => r.n),
        [4096, 4096, n / 2 - 4096, 3],
      );
      const rows = await q(`SELECT epoch_ms(t)::DOUBLE AS t, v, s FROM '${file}'`);
      assert.equal(rows.length, written.length);
      rows.forEach((r, k) => {
        const i = written[k];
        assert.deepEqual([r.t, r.v, r.s], [t[i], Number.isNaN(v[i]) ? null : v[i], 'abc'[i % 3]], `row ${k}`);
      });
      // The last group: rows 3, 10 and 17 all have v empty (i % 7 === 3): an all-null chunk, no min/max.
      const [last] = await q(
        `SELECT stats_null_count::INT AS nulls, stats_min_value AS lo FROM parquet_metadata('${file}')
           WHERE row_group_id = 3 AND path_in_schema = 'v'`,
      );
      assert.deepEqual(last, { nulls: 3, lo: null });
    });
  });

  it('places each NULL at its row (definition levels bit-packed when empty cells are scattered)', async () => {
    const file = join(dir, 'l.parquet');
    // Runs of every length 0..12 of values then of empty cells: both RLE runs and bit-packed groups.
    const pattern: boolean[] = [];
    for (let run = 0; run <= 12; run++) pattern.push(...Array(run).fill(true), ...Array(12 - run).fill(false));
    const n = pattern.length;
    const v = Float64Array.from(pattern, (present, i) => (present ? i : Number.NaN));
    const codes = Int16Array.from(pattern, (present, i) => (present ? i % 2 : -1));
    const c: PieceCells[] = [
      { kind: 'time', values: v },
      { kind: 'double', values: v },
      { kind: 'text', codes, texts: ['x', 'y'] },
    ];
    writeFile(file, columns, c, [range(0, n)]);
    await duckdb(async (q) => {
      const rows = await q(`SELECT epoch_ms(t)::DOUBLE AS t, v, s FROM '${file}'`);
      assert.deepEqual(
        rows.map((r) => [r.t, r.v, r.s]),
        pattern.map((present, i) => (present ? [i, i, 'xy'[i % 2]] : [null, null, null])),
      );
    });
  });

  it('writes texts that do not repeat PLAIN, and texts that do through a dictionary page', async () => {
    const file = join(dir, 'd.parquet');
    const n = 100;
    const texts = range(0, n).map((i) => `site-${i}`);
    const c: PieceCells[] = [
      { kind: 'time', values: new Float64Array(n) },
      { kind: 'double', values: new Float64Array(n) },
      { kind: 'text', codes: Int16Array.from(range(0, n)), texts },
    ];
    const repeat: PieceCells[] = [c[0], c[1], { kind: 'text', codes: new Int16Array(n).fill(7), texts }];
    const encoder = new ParquetEncoder();
    writeFile(file, columns, c, [range(0, n)], encoder);
    const file2 = join(dir, 'd2.parquet');
    writeFile(file2, columns, repeat, [range(0, n)], encoder);
    await duckdb(async (q) => {
      const enc = async (f: string) =>
        (
          await q(
            `SELECT encodings, dictionary_page_offset AS d FROM parquet_metadata('${f}') WHERE path_in_schema = 's'`,
          )
        )[0];
      const plain = await enc(file);
      assert.equal(plain.d, null);
      assert.doesNotMatch(String(plain.encodings), /DICTIONARY/);
      const dict = await enc(file2);
      assert.notEqual(dict.d, null);
      assert.match(String(dict.encodings), /RLE_DICTIONARY/);
      const a = await q(`SELECT string_agg(s, ',') AS s FROM '${file}'`);
      assert.equal(a[0].s, texts.join(','));
      const b = await q(`SELECT count(*)::INT AS n, min(s) AS lo, max(s) AS hi FROM '${file2}'`);
      assert.deepEqual(b[0], { n, lo: 'site-7', hi: 'site-7' });
    });
  });
});

describe('core/archive/snappy: the compressor, checked by an independent decompressor (hyparquet)', () => {
  it('round-trips empty, short, repetitive, random and 70 KB inputs (copies past the 64 KB offset limit)', () => {
    const snappy = new SnappyCompressor();
    let seed = 1;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 24;
    };
    const inputs = [
      new Uint8Array(0),
      Uint8Array.from([1, 2, 3]),
      new Uint8Array(1000).fill(7),
      Uint8Array.from({ length: 5000 }, random),
      Uint8Array.from({ length: 70_000 }, (_, i) => (i % 1000 < 500 ? i % 251 : random())),
      new Uint8Array(new Float64Array(Array.from({ length: 4096 }, (_, i) => 20 + (i % 13) / 4)).buffer),
    ];
    for (const input of inputs) {
      const packed = snappy.compress(input).slice();
      const out = new Uint8Array(input.length);
      snappyUncompress(packed, out);
      assert.deepEqual(out, input, `input of ${input.length} bytes`);
      if (input.length === 1000) assert.ok(packed.length < 100, 'a run compresses');
    }
  });
});
