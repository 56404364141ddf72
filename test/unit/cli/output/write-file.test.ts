import assert from 'node:assert/strict';
import { outFormatOf } from '../../../../src/cli/output/write-file';
import { UsageError } from '../../../../src/core/api/errors';

describe('cli/output/write-file: --out chooses the format by the file name', () => {
  it('writes .csv and .parquet in any case, and refuses anything else', () => {
    assert.deepEqual(['a.csv', 'B.CSV', 'c.parquet', 'D.Parquet'].map(outFormatOf), [
      'csv',
      'csv',
      'parquet',
      'parquet',
    ]);
    for (const name of ['x.csv.gz', 'x.parquet.part', 'x', 'x.json']) {
      assert.throws(
        () => outFormatOf(name),
        (e: unknown) => e instanceof UsageError && /end in \.csv or \.parquet/.test(e.message),
        name,
      );
    }
  });
});
