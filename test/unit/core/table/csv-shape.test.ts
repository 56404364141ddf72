import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { csvShape, splitCsvRecord } from '../../../../src/core/table/csv-shape';

/** What an independent reader (csv-parse) makes of the same text. */
function reference(text: string): { rowCount: number; columns: string[] } {
  const records = parse(text, { relax_column_count: true }) as string[][];
  return { rowCount: Math.max(0, records.length - 1), columns: records[0] ?? [] };
}

describe('core/table csv-shape: rows and columns of a CSV text without reading its cells', () => {
  it('agrees with csv-parse on quoting, doubled quotes, quoted line ends, CRLF and a missing last line end', () => {
    for (const text of [
      'a,b\n1,2\n3,4\n',
      'a,b\n1,2\n3,4',
      '"x,y","say ""hi"""\n1,2\n',
      'id,note\nD1,"two\nlines"\nD2,"a,b"\n',
      'a,b\r\n1,2\r\n',
      'only,a,header\n',
    ]) {
      assert.deepEqual(csvShape(text), reference(text), JSON.stringify(text));
    }
  });

  it('an empty text has no rows and no columns', () => {
    assert.deepEqual(csvShape(''), { rowCount: 0, columns: [] });
  });

  it('splits one record: quoted commas and quotes kept, a trailing carriage return dropped', () => {
    assert.deepEqual(splitCsvRecord('"a,b",c,"d ""e"""\r'), ['a,b', 'c', 'd "e"']);
    assert.deepEqual(splitCsvRecord(''), ['']);
  });
});
