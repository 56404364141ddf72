import assert from 'node:assert/strict';
import { formatOfName, notATableFile, readerOfName } from '../../../../src/core/table/file-format';

describe('a table file format from its name (core/table/file-format.ts)', () => {
  it('reads the three endings in any case, and only at the end', () => {
    const cases: Array<[string, string | undefined]> = [
      ['a.csv', 'csv'],
      ['X.CSV', 'csv'],
      ['report/part-0.csv.gz', 'csv.gz'],
      ['X.CSV.GZ', 'csv.gz'],
      ['data.Parquet', 'parquet'],
      ['C:\\data\\x.PARQUET', 'parquet'],
      ['a.parquet.part', undefined],
      ['a.csv.gz.part', undefined],
      ['a.gz', undefined],
      ['csv', undefined],
      ['no-extension', undefined],
      ['a.csvx', undefined],
      ['', undefined],
    ];
    for (const [name, format] of cases) assert.equal(formatOfName(name), format, name);
  });

  it('reads both CSV formats as csv', () => {
    assert.deepEqual(['a.csv', 'A.CSV.GZ', 'b.parquet', 'c.txt'].map(readerOfName), [
      'csv',
      'csv',
      'parquet',
      undefined,
    ]);
  });

  it('names the formats when it refuses a name', () => {
    assert.equal(notATableFile('x.txt'), 'x.txt is not a .csv, .csv.gz or .parquet file.');
  });
});
