// Wire bytes from hostile sources (a .measnb file's saved output, a message): each bad header field or column
// is refused at decode with a TableFileError (code TABLE_FILE) that says what does not hold, before any column
// is made; random mutations of a valid table give a Table whose every code indexes its dictionary, or that error.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TableFileError } from '../../../../src/core/api/errors';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import { isNumeric, type Table } from '../../../../src/core/table/table';
import { decodeTable, encodeTable } from '../../../../src/core/table/wire';

const PRELUDE = 8;

/** A small table of every kind: identifier (Int16 codes), time, decimal and float numbers, status, qcFlags. */
function sample(): Table {
  return {
    rowCount: 4,
    columns: [
      { name: 'datasourceId', kind: 'identifier', dict: ['D1', 'D2'], codes: Int16Array.from([0, 1, -1, 1]) },
      { name: 'time', kind: 'time', values: Float64Array.from([0, 60_000, 120_000, 180_000]) },
      {
        name: 'pm2_5ConcMass1HourMean.value',
        kind: 'number',
        ints: Int32Array.from([125, -3, 7, 0]),
        scale: 2,
        metric: parseCanonicalLabel('pm2_5ConcMass1HourMean.value'),
      },
      { name: 'temperature', kind: 'number', values: Float64Array.from([1.5, Number.NaN, 3, 4]) },
      { name: 'status', kind: 'status', dict: ['valid'], codes: Int32Array.from([0, 0, -1, 0]) },
      { name: 'qcFlags', kind: 'qcFlags', dict: [[], ['spike', 'flat']], codes: Int32Array.from([0, 1, 1, -1]) },
    ],
  };
}

/** The header's JSON and the bytes after it, so that a test changes the header and re-encodes. */
function split(bytes: Uint8Array): {
  header: Record<string, unknown> & { columns: Record<string, unknown>[] };
  data: Uint8Array;
} {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(PRELUDE, PRELUDE + length)));
  return { header, data: bytes.subarray((PRELUDE + length + 7) & ~7) };
}

/** Bytes with this header (any JSON value) over the same data section, 8-byte aligned as the encoder does. */
function join(header: unknown, data: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = (PRELUDE + text.length + 7) & ~7;
  const out = new Uint8Array(start + data.length);
  out.set([0x4d, 0x4e, 0x54, 0x31]);
  new DataView(out.buffer).setUint32(4, text.length, true);
  out.set(text, PRELUDE);
  out.set(data, start);
  return out;
}

/** The sample's bytes with its header changed by `edit`. */
function withHeader(edit: (h: ReturnType<typeof split>['header']) => unknown): Uint8Array {
  const { header, data } = split(encodeTable(sample()));
  return join(edit(header) ?? header, data);
}

function refuses(bytes: Uint8Array, message: RegExp): void {
  assert.throws(
    () => decodeTable(bytes),
    (e: unknown) => e instanceof TableFileError && e.code === 'TABLE_FILE' && message.test(e.message),
  );
}

/** Each dictionary column's codes index its dictionary (or are -1). */
function codesIndexDicts(t: Table): boolean {
  return t.columns.every((c) => isNumeric(c) || c.codes.every((code) => code >= -1 && code < c.dict.length));
}

describe('table wire format from hostile sources', () => {
  it('decodes the sample as it was (the cases below change one thing of it)', () => {
    const t = decodeTable(withHeader(() => undefined));
    assert.equal(t.rowCount, 4);
    assert.ok(codesIndexDicts(t));
    assert.deepEqual(
      t.columns[2].metric,
      JSON.parse(JSON.stringify(parseCanonicalLabel('pm2_5ConcMass1HourMean.value'))),
    );
  });

  it('refuses dictionary codes past the dictionary or below -1, Int16 and Int32', () => {
    const narrow = sample();
    (narrow.columns[0] as { codes: Int16Array }).codes[3] = 2; // dict of 2: codes 0, 1
    refuses(encodeTable(narrow), /column "datasourceId" has the code 2 in row 4, past its dictionary of 2/);
    const below = sample();
    (below.columns[4] as { codes: Int32Array }).codes[1] = -2;
    refuses(encodeTable(below), /column "status" has the code -2 in row 2/);
    const flags = sample();
    (flags.columns[5] as { codes: Int32Array }).codes[0] = 2 ** 31 - 1;
    refuses(encodeTable(flags), /column "qcFlags" has the code 2147483647/);
    // An empty dictionary holds only empty cells (-1).
    const empty: Table = {
      rowCount: 2,
      columns: [{ name: 'n', kind: 'text', dict: [], codes: Int32Array.from([-1, 0]) }],
    };
    refuses(encodeTable(empty), /past its dictionary of 0/);
  });

  it('refuses dictionaries of the wrong type: texts for a text column, lists of texts for qcFlags', () => {
    const cases: [number, unknown][] = [
      [0, ['D1', 2]],
      [0, 'D1'],
      [0, undefined],
      [0, [['D1'], ['D2']]],
      [5, ['spike', 'flat']],
      [5, [[], [1]]],
      [4, { 0: 'valid', length: 1 }],
    ];
    for (const [i, dict] of cases) {
      refuses(
        withHeader((h) => {
          h.columns[i].dict = dict;
        }),
        /has a bad dictionary/,
      );
    }
    refuses(
      withHeader((h) => {
        h.columns[1].dict = ['x'];
      }),
      /column "time" has a bad dictionary/,
    );
  });

  it('refuses a row count that is not a count, or that a column does not have', () => {
    for (const rowCount of [-1, 1.5, '4', null, 2 ** 53, undefined]) {
      refuses(
        withHeader((h) => {
          h.rowCount = rowCount;
        }),
        /no row count/,
      );
    }
    refuses(
      withHeader((h) => {
        h.rowCount = 3;
      }),
      /column "datasourceId" has 4 rows, the table 3/,
    );
    refuses(
      withHeader((h) => {
        h.columns[3].length = 5;
      }),
      /column "temperature" has 5 rows, the table 4/,
    );
    refuses(join({ rowCount: 10, columns: [] }, new Uint8Array()), /10 rows but no columns/);
  });

  it('refuses a declared size the bytes cannot hold, before allocating it', () => {
    const rows = 2 ** 31; // 16 GiB of Float64 (or 4 GiB of Int16 codes) declared in 300 bytes
    for (const i of [0, 1, 2]) {
      const bytes = withHeader((h) => {
        h.rowCount = rows;
        for (const c of h.columns) c.length = rows;
      });
      const before = process.memoryUsage().arrayBuffers;
      const t0 = performance.now();
      refuses(bytes, /is cut short/);
      assert.ok(performance.now() - t0 < 100, `refused at once (${i})`);
      assert.ok(process.memoryUsage().arrayBuffers - before < 1 << 20, 'nothing allocated for the rows');
    }
  });

  it('refuses offsets past the bytes, and offsets and lengths that are not counts', () => {
    refuses(
      withHeader((h) => {
        h.columns[3].offset = 1 << 30;
      }),
      /column "temperature" is cut short/,
    );
    for (const offset of [-8, 0.5, '0', null]) {
      refuses(
        withHeader((h) => {
          h.columns[1].offset = offset;
        }),
        /column "time" has a bad offset or length/,
      );
    }
    const bytes = encodeTable(sample());
    refuses(bytes.subarray(0, bytes.length - 1), /column "qcFlags" is cut short/);
  });

  it('refuses element widths and scales that do not fit the kind', () => {
    const cases: [number, string, unknown, RegExp][] = [
      [1, 'bits', 16, /column "time" has a bad element width/],
      [3, 'bits', 16, /column "temperature" has a bad element width/],
      [0, 'bits', 32, /bad element width/],
      [0, 'bits', 8, /bad element width/],
      [2, 'scale', 10, /bad scale/],
      [2, 'scale', '2', /bad scale/],
      [1, 'scale', 2, /column "time" has a bad scale/],
      [0, 'scale', 0, /column "datasourceId" has a bad scale/],
    ];
    for (const [i, key, value, message] of cases) {
      refuses(
        withHeader((h) => {
          h.columns[i][key] = value;
        }),
        message,
      );
    }
  });

  it('refuses a header that is not JSON, not an object, or whose columns are not columns', () => {
    const good = encodeTable(sample());
    const notJson = good.slice();
    notJson[PRELUDE] = 0x7b + 1; // '{' → '|'
    refuses(notJson, /the header is not JSON/);
    for (const header of [null, 3, [], { rowCount: 0 }, { rowCount: 0, columns: {} }]) {
      refuses(join(header, new Uint8Array()), /no row count or no columns/);
    }
    const column = { name: 'n', kind: 'number', offset: 0, length: 0 };
    const cases: [unknown, RegExp][] = [
      [null, /column 1 has no name/],
      [{ ...column, name: 7 }, /column 1 has no name/],
      [{ ...column, kind: 'blob' }, /column "n" is of an unknown kind/],
      [{ ...column, kind: '__proto__' }, /unknown kind/],
      [{ ...column, canonical: 1 }, /bad canonical name/],
      [{ ...column, metric: null }, /bad metric parts/],
      [{ ...column, metric: { quantity: 'nothing' } }, /bad metric parts/],
      [{ ...column, metric: { quantity: 'pm2_5ConcMass', aggregation: 'Max' } }, /bad metric parts/],
      [{ ...column, metric: { quantity: 'pm2_5ConcMass', field: { toString: 1 } } }, /bad metric parts/],
    ];
    for (const [c, message] of cases) refuses(join({ rowCount: 0, columns: [c] }, new Uint8Array()), message);
    refuses(join({ rowCount: 0, columns: [column] }, new Uint8Array()).subarray(0, 12), /the header is cut short/);
  });

  it('random changes to a valid table: a Table whose every code indexes its dictionary, or a TableFileError, fast', () => {
    const base = encodeTable(sample());
    const headerEnd = PRELUDE + new DataView(base.buffer).getUint32(4, true);
    let decoded = 0;
    const edit = fc.record({
      // Changes in the header (its JSON) and in the columns' bytes (codes, numbers), more in the bytes.
      at: fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: headerEnd - 1 }), weight: 1 },
        { arbitrary: fc.integer({ min: headerEnd, max: base.length - 1 }), weight: 3 },
      ),
      byte: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x30, 0x39, 0x2d, 0x22, 0x7d, 0x5d, 0xff)),
    });
    // Cut short now and then.
    const cut = fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, fc.nat({ max: base.length }));
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), cut, (edits, cutAt) => {
        const bytes = base.slice(0, cutAt ?? base.length);
        for (const e of edits) if (e.at < bytes.length) bytes[e.at] = e.byte;
        const t0 = performance.now();
        try {
          const t = decodeTable(bytes);
          decoded++;
          assert.ok(codesIndexDicts(t), 'every code indexes its dictionary');
          assert.ok(t.columns.every((c) => (isNumeric(c) ? c.values!.length : c.codes.length) === t.rowCount));
        } catch (e) {
          assert.ok(e instanceof TableFileError, `${(e as Error).name}: ${(e as Error).message}`);
        }
        assert.ok(performance.now() - t0 < 50, 'decoded or refused within 50 ms');
      }),
      { seed: 2026, numRuns: 3000 },
    );
    assert.ok(decoded > 300 && decoded < 2700, `both outcomes are reached (${decoded} of 3000 decoded)`);
  });
});
