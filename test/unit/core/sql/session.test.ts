import assert from 'node:assert/strict';
import { filesFormat } from '../../../../src/core/sql/session.node';

describe('sql session: the format DuckDB reads a report files with (filesFormat)', () => {
  it('one reader for files of one kind, whatever the case; none for a mix or another kind', () => {
    assert.equal(filesFormat(['r/part-0.parquet', 'r/PART-1.PARQUET']), 'parquet');
    assert.equal(filesFormat(['r/part-0.csv', 'r/part-1.CSV.GZ']), 'csv');
    assert.equal(filesFormat(['r/part-0.csv', 'r/part-1.parquet']), undefined);
    assert.equal(filesFormat(['r/part-0.parquet.part']), undefined);
    assert.equal(filesFormat(['r/part-0']), undefined);
  });
});
