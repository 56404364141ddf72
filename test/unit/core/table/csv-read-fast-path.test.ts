import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { CsvWideReader, parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { cellText, type Table } from '../../../../src/core/table/table';

function cells(t: Table): string[][] {
  return [
    t.columns.map((c) => c.name),
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

  it('still reports malformed quoting in a body that starts plain', async () => {
    await assert.rejects(parseCsvWide(`${PLAIN}D9,t,1,"open\n`), /quote/i);
  });
});
