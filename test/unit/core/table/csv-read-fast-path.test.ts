import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { MalformedReplyError } from '../../../../src/core/api/errors';
import { CsvWideReader, parseCsvWide, readCsvWideHead } from '../../../../src/core/table/csv-read.node';
import { LINES_PER_BLOCK } from '../../../../src/core/table/csv-wide-reader';
import { cellText, floatValues, type NumericColumn, type Table } from '../../../../src/core/table/table';

function cells(t: Table): string[][] {
  return [
    t.columns.map((c) => c.name),
    t.columns.map((c) => c.kind),
    ...t.columns.map((c) => Array.from({ length: t.rowCount }, (_, r) => cellText(c, r))),
  ];
}

/** What a general CSV parser makes of the same text, read into a Table the same way. */
function viaCsvParse(text: string): Table {
  const reader = new CsvWideReader();
  const records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  for (const r of records) reader.add(r);
  return reader.finish();
}

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const PLAIN = 'datasourceId,time,pm2_5.value,note\nD1,2026-11-01T00:00:00Z,1.5,ok\n\nD2,2026-11-01T00:01:00Z,,µg/m³\n';
const CASES: Record<string, string> = {
  plain: PLAIN,
  'no final newline': 'a,b\n1,2\n3,4',
  crlf: 'a,b\r\n1,2\r\n\r\n3,4\r\n',
  bom: '\uFEFFa,b\n1,2\n',
  'short and long rows': 'a,b,c\n1\n1,2,3,4\n',
  'quotes later in the body': `${PLAIN}D3,2026-11-01T00:02:00Z,2,"a, b"\nD4,2026-11-01T00:03:00Z,3,"say ""hi"""\nD5,x,4,"two\nlines"\nD6,y,5,plain\n`,
  'quoted header': '"name, with comma",b\n1,2\n',
  'bare carriage returns': 'a,b\r1,2\r3,4\r',
  'quote in the last line only': 'a,b\n1,2\n3,"4"',
  // Cells read from bytes must give what the text path gives (numbers, times, ids, demotions).
  numbers:
    'locationLatitude,pm2_5.value,x\n-12.5,.5,1\n12.,-0,2\n1e5,0007,3\n1234567890123456,12345678901234.5,4\n,NaN,5\n',
  'a number column demoted by a later cell': 'locationLatitude,b\n1.5,x\n2,y\nn/a,z\n3,w\n',
  times:
    'time,b\n2026-11-01T00:00:00Z,1\n2026-11-01T00:00:00.123Z,2\n2024-02-29T23:59:59.999Z,3\n2026-11-01T10:00+05:30,4\n2026-11-01,5\n2026-11-01T00:00:00.1234567Z,6\n,7\n',
  'an impossible time demotes the column': 'time,b\n2026-11-01T00:00:00.000Z,1\n2026-02-30T00:00:00.000Z,2\n',
  // A time cell's end is tried 24 bytes on first: here a shorter cell has a comma just there.
  'a short time cell, a comma 24 bytes on': 'time,b,c\n2026-11-01,abcdefghijklm,z\n2026-11-01T00:00:00.000Z,x,y\n',
  'times out of range': 'time\n2026-11-01T24:00:00.000Z\n2026-11-01T23:60:00Z\n2026-13-01T00:00:00Z\n',
  'ids: repeated, empty, not ASCII': 'datasourceId,sourceType\nD1,a\nD2,a\n,a\nDé,b\nD1,\nDé,b\n',
  // "Aa" and "BB" (and "AaAa", "BBBB", "AaBB") have the same hash of their bytes: told apart by their text.
  'ids with the same hash': 'datasourceId,sourceId\nAa,AaAa\nBB,BBBB\nAa,AaBB\nBB,AaAa\n,BBBB\n',
  'a byte order mark inside': 'a,b\n\uFEFFx,2\n',
  'header only, no line end': 'datasourceId,time',
  'unknown columns inferred': 'code,delta,name\n12,-0.5,x\n007,3,y\n',
  // Empty cells take their own path before any kind's reader: each kind keeps them empty, in any position.
  'empty cells of every kind':
    'datasourceId,time,pm2_5.value,qcFlags,note,extra,label\n,,,,,,\nD1,2026-11-01T00:00:00Z,1.5,[],x,3,\n' +
    'D2,,,,,,a\n,2026-11-01T00:01:00Z,,[],,,\n,,-0.25,,y,,b\n',
};

describe('core table: csv-wide fast path (plain lines split on commas, quoted input through csv-parse)', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`reads "${name}" as csv-parse does, whatever the chunk boundaries`, async () => {
      const expected = cells(viaCsvParse(text));
      assert.deepEqual(cells(await parseCsvWide(text)), expected);
      const bytes = Buffer.from(text, 'utf8');
      for (const size of [1, 2, 3, 5, 7, 64]) {
        assert.deepEqual(cells(await parseCsvWide(chunked(bytes, size))), expected, `chunks of ${size} bytes`);
      }
    });
  }

  // The real replies of ../shared/fixtures, copied into the repository's test/fixtures (never skipped).
  const fixtures = join(__dirname, '../../../fixtures');
  for (const name of ['real-minute-csv-wide-qc.csv', 'public-node-report-hourly-english.csv']) {
    it(`reads the real reply ${name} as csv-parse does, in any chunks`, async () => {
      const bytes = readFileSync(join(fixtures, name));
      const expected = cells(viaCsvParse(bytes.toString('utf8')));
      for (const size of [4096]) {
        assert.deepEqual(cells(await parseCsvWide(chunked(bytes, size))), expected, `chunks of ${size} bytes`);
      }
    });
  }

  it("skips blank CRLF lines before the header, and strips the byte order marks of bytes (the decoder's and one more)", async () => {
    const blank = await parseCsvWide(Buffer.from('\r\n\n\r\na\r\n\r\n1\r\n'));
    assert.deepEqual(cells(blank), [['a'], ['number'], ['1']]);
    const boms = Buffer.from('\uFEFF\uFEFFa,b\n1,2\n');
    for (const size of [1, 2, 4, 64])
      assert.deepEqual(cells(await parseCsvWide(chunked(boms, size))).slice(0, 2), [
        ['a', 'b'],
        ['number', 'number'],
      ]);
    assert.equal((await parseCsvWide('\uFEFF\uFEFFa,b\n1,2\n')).columns[0].name, '\uFEFFa', 'text loses one');
  });

  it('rejects a complete reply cut short: no final line end, or a row of another width', async () => {
    const whole = 'datasourceId,time,pm2_5.value\nD1,2026-11-01T00:00:00Z,1.5\nD2,2026-11-01T00:01:00Z,2\n';
    assert.equal((await parseCsvWide(Buffer.from(whole), { complete: true })).rowCount, 2);
    for (const size of [1, 7, 64]) {
      const cut = Buffer.from(whole.slice(0, -3));
      await assert.rejects(parseCsvWide(chunked(cut, size), { complete: true }), { name: 'IncompleteReplyError' });
      const short = Buffer.from(`${whole}D3,2026-11-01T00:02:00Z\n`);
      await assert.rejects(parseCsvWide(chunked(short, size), { complete: true }), /another number of fields/);
      const long = Buffer.from(`${whole}D3,2026-11-01T00:02:00Z,1,2\n`);
      await assert.rejects(parseCsvWide(chunked(long, size), { complete: true }), /4 fields, the header has 3/);
    }
  });

  it('still reports malformed quoting in a body that starts plain', async () => {
    // A typed error of core/api (the transport decides by it), never csv-parse's own error and code.
    await assert.rejects(
      parseCsvWide(`${PLAIN}D9,t,1,"open\n`),
      (e: unknown) => e instanceof MalformedReplyError && e.code === 'MALFORMED_REPLY' && /quote/i.test(e.message),
    );
  });

  describe('lines read in blocks, column by column', () => {
    const HEADER = ['datasourceId', 'time', 'locationLatitude', 'pm2_5.value', 'note', 'sourceType'];
    const cellOf = fc.oneof(
      fc.constantFrom('', '', '0', '-0', '12.5', '-3.25', '1009.35', '40000', '0.001', '123456789', '1234567890'),
      fc.constantFrom('12345678901234.5', '1e5', '.5', '12.', '-', 'n/a', 'D1', 'D2', 'Dé', 'SERVICE_NODE', '007'),
      fc.constantFrom('2026-11-01T00:00:00.000Z', '2026-11-01T00:01:00Z', '2026-02-30T00:00:00.000Z', '2026-11-01'),
      fc.integer({ min: -40000, max: 40000 }).map((v) => (v / 100).toString()),
    );
    // Mostly whole rows; now and then one cell short or one too many.
    const rowOf = fc
      .tuple(fc.array(cellOf, { minLength: HEADER.length, maxLength: HEADER.length }), fc.integer({ min: 0, max: 19 }))
      .map(([cells, odd]) => (odd === 0 ? cells.slice(0, -1) : odd === 1 ? [...cells, '9'] : cells));
    // size 'max': lengths over the whole range (fast-check's default keeps arrays to ~10 rows, inside one block).
    const bodyOf = fc.array(rowOf, { minLength: 0, maxLength: 3 * LINES_PER_BLOCK + 5, size: 'max' });
    const text = (rows: string[][], header = HEADER) => `${[header, ...rows].map((r) => r.join(',')).join('\n')}\n`;
    /** cells(), and each number column's values as doubles (-0 told from 0: the text's exact value). */
    const exact = (t: Table) => [
      ...cells(t),
      ...t.columns
        .filter((c) => c.kind === 'number')
        .map((c) => Array.from(floatValues(c as NumericColumn), (v) => (Object.is(v, -0) ? '-0' : String(v)))),
    ];

    it('gives the Table a line-by-line read gives, across block and chunk boundaries, demotions and odd rows', async () => {
      await fc.assert(
        fc.asyncProperty(bodyOf, fc.integer({ min: 1, max: 4096 }), async (rows, size) => {
          const body = text(rows);
          assert.deepEqual(exact(await parseCsvWide(chunked(Buffer.from(body), size))), exact(viaCsvParse(body)));
        }),
        { numRuns: 150 },
      );
    });

    it('reads number columns as a line-by-line read does: every decimal form, widening, rescaling, now and then a demotion', async () => {
      // Number cells only (a demotion is rare), so the decimal loop runs long and meets each form.
      const numberOf = fc.oneof(
        { weight: 12, arbitrary: fc.integer({ min: -99999, max: 99999 }).map((v) => (v / 100).toFixed(2)) },
        { weight: 4, arbitrary: fc.constantFrom('', '0', '-0', '5.', '.5', '-.5', '-5.', '0.', '007', '-007.50') },
        {
          weight: 2,
          arbitrary: fc.constantFrom('123456789', '1234567890', '999999999', '-99999.9999', '0.000001', '12345.678901'),
        },
        { weight: 1, arbitrary: fc.constantFrom('12345678901234.5', '1.2.3', '+1', '.', '-', '1e5', '12-', '1..2') },
      );
      const NUMBERS = ['locationLatitude', 'pm2_5.value', 'pm10ConcMassIndividual'];
      const numberRowOf = fc.array(numberOf, { minLength: NUMBERS.length, maxLength: NUMBERS.length });
      const numberBodyOf = fc.array(numberRowOf, { minLength: 1, maxLength: 3 * LINES_PER_BLOCK + 5, size: 'max' });
      await fc.assert(
        fc.asyncProperty(numberBodyOf, fc.integer({ min: 1, max: 4096 }), async (rows, size) => {
          const body = text(rows, NUMBERS);
          assert.deepEqual(exact(await parseCsvWide(chunked(Buffer.from(body), size))), exact(viaCsvParse(body)));
        }),
        { numRuns: 150 },
      );
    });

    it('in a complete reply, names the first row (in order) whose field count is not the header’s', async () => {
      await fc.assert(
        fc.asyncProperty(bodyOf, async (rows) => {
          const body = text(rows);
          const bad = rows.find((r) => r.length !== HEADER.length);
          const read = parseCsvWide(chunked(Buffer.from(body), 1000), { complete: true });
          if (!bad) return void (await read);
          await assert.rejects(read, {
            message: new RegExp(`\\(${bad.length} fields, the header has ${HEADER.length}\\)`),
          });
        }),
        { numRuns: 100 },
      );
    });

    it('keeps the first maxRows rows, counts every row, and hands the kept rows over once', async () => {
      await fc.assert(
        fc.asyncProperty(bodyOf, fc.integer({ min: 0, max: 2 * LINES_PER_BLOCK }), async (rows, maxRows) => {
          const body = text(rows);
          const handed: number[] = [];
          const head = await readCsvWideHead(chunked(Buffer.from(body), 777), {
            maxRows,
            onFirstRows: (t) => handed.push(t.rowCount),
          });
          const kept = Math.min(maxRows, rows.length);
          assert.equal(head.totalRows, rows.length);
          assert.deepEqual(cells(head.table), cells(viaCsvParse(text(rows.slice(0, kept)))));
          assert.deepEqual(handed, rows.length > maxRows ? [kept] : []);
        }),
        { numRuns: 100 },
      );
    });
  });
});
