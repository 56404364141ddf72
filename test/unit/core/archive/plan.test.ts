import assert from 'node:assert/strict';
import { ArchiveError } from '../../../../src/core/api/errors';
import {
  checkArchiveInput,
  checkDatasourceIds,
  monthSlices,
  partitionKey,
  partitionSegments,
} from '../../../../src/core/archive/plan';

const NOW = Date.parse('2026-11-20T12:34:00Z');
const input = (from: string, to: string, frequency = 'hour') => ({
  from,
  to,
  frequency,
  nowMs: NOW,
  maxReportsPerDay: 25,
});
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof ArchiveError ? e.code : String(e);
  }
  return 'none';
};

describe('core/archive/plan: the range, its UTC months, the Hive folders', () => {
  it('cuts a range into UTC months clipped to it, across a year end and a leap February', () => {
    const r = checkArchiveInput(input('2023-12-15', '2024-03-02T06:00:00Z'));
    const m = monthSlices(r).map((s) => [
      s.year,
      s.month,
      new Date(s.from).toISOString(),
      new Date(s.to).toISOString(),
    ]);
    assert.deepEqual(m, [
      [2023, 12, '2023-12-15T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
      [2024, 1, '2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z'],
      [2024, 2, '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
      [2024, 3, '2024-03-01T00:00:00.000Z', '2024-03-02T06:00:00.000Z'],
    ]);
  });

  it('reads dates as UTC whatever TZ is, and rounds to whole periods', () => {
    const r = checkArchiveInput(input('2026-01-01T00:30:00+01:00', '2026-02-01', 'day'));
    // 2025-12-31T23:30Z: the first whole day in the range starts at the next UTC midnight.
    assert.equal(new Date(r.from).toISOString(), '2026-01-01T00:00:00.000Z');
  });

  it('refuses an end before the start, a range past the last whole period, a bad frequency or cap', () => {
    assert.equal(
      code(() => checkArchiveInput(input('2026-03-01', '2026-02-01'))),
      'ARCHIVE_INPUT',
    );
    assert.equal(
      code(() => checkArchiveInput(input('2026-11-01', '2026-11-20T13:00:00Z'))),
      'ARCHIVE_INPUT',
    );
    assert.equal(
      code(() => checkArchiveInput(input('2026-11-01', '2026-11-20T12:00:00Z'))),
      'none',
    );
    assert.equal(
      code(() => checkArchiveInput(input('2026-11-01', '2026-11-21', 'day'))),
      'ARCHIVE_INPUT',
    );
    assert.equal(
      code(() => checkArchiveInput(input('2026-10-01', '2026-11-01', 'week'))),
      'ARCHIVE_INPUT',
    );
    assert.equal(
      code(() => checkArchiveInput(input('2026-10-01', 'yesterday'))),
      'ARCHIVE_INPUT',
    );
    assert.equal(
      code(() => checkArchiveInput(input('2026-10-01', '2026-11-01T00:00:00'))),
      'ARCHIVE_INPUT',
    );
    assert.equal(
      code(() => checkArchiveInput(input('2010-01-01', '2026-11-01'))),
      'ARCHIVE_INPUT',
    );
    assert.equal(
      code(() => checkArchiveInput({ ...input('2026-10-01', '2026-11-01'), maxReportsPerDay: 31 })),
      'ARCHIVE_INPUT',
    );
  });

  it('takes datasource ids that are one safe folder name each', () => {
    assert.deepEqual(checkDatasourceIds(['DABC1234', 'DABC1234', 'x_1-2.3']), ['DABC1234', 'x_1-2.3']);
    for (const bad of ['..', '../x', 'a/b', '', '.hidden', 'a=b', 'a\0'])
      assert.equal(
        code(() => checkDatasourceIds([bad])),
        'ARCHIVE_INPUT',
        JSON.stringify(bad),
      );
    assert.equal(
      code(() => checkDatasourceIds([])),
      'ARCHIVE_INPUT',
    );
  });

  it('names Hive folders with zero-padded months and the manifest keys', () => {
    assert.deepEqual(partitionSegments('hour', 'D1', { year: 2026, month: 3 }), [
      'frequency=hour',
      'datasourceId=D1',
      'year=2026',
      'month=03',
    ]);
    assert.equal(partitionKey('minute', 'D1', { year: 2026, month: 11 }), 'minute/D1/2026-11');
  });
});
