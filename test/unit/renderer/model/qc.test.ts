// The per-row QC test used by passes over every row agrees with isQcInvalid cell by cell.
import assert from 'node:assert/strict';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import type { Column, Table } from '../../../../src/core/table/table';
import { isQcInvalid, qcInvalidTest, qcSiblings } from '../../../../src/renderer/model/qc';
import { syntheticTable } from '../../../support/synthetic-table';

/** A metric judged by its qcFlags column only (no qcAssessment): severity I flags make it invalid. */
function flagsOnly(): Table {
  const label = 'no2Conc1HourMean';
  const codes = Int32Array.from([0, 1, 2, -1, 1]);
  const columns: Column[] = [
    {
      name: `${label}.value`,
      kind: 'number',
      values: Float64Array.from([1, 2, 3, 4, 5]),
      metric: parseCanonicalLabel(`${label}.value`),
    },
    {
      name: `${label}.qcFlags`,
      kind: 'qcFlags',
      dict: [[], ['QC.I.OOB.001'], ['QC.W.RNG.002']],
      codes,
      metric: parseCanonicalLabel(`${label}.qcFlags`),
    },
  ];
  return { columns, rowCount: 5 };
}

describe('renderer QC: the per-row test', () => {
  it('agrees with isQcInvalid for every row and column (assessment, flags, none)', () => {
    for (const t of [syntheticTable(400, 7), flagsOnly()]) {
      const sib = qcSiblings(t);
      t.columns.forEach((_, col) => {
        const test = qcInvalidTest(t, sib, col);
        let marked = 0;
        for (let r = 0; r < t.rowCount; r++) {
          const expected = isQcInvalid(t, sib, col, r);
          assert.equal(test?.(r) ?? false, expected, `${t.columns[col].name} row ${r}`);
          if (expected) marked++;
        }
        if (test === undefined) assert.equal(marked, 0);
      });
    }
    const t = flagsOnly();
    const test = qcInvalidTest(t, qcSiblings(t), 0)!;
    assert.deepEqual([0, 1, 2, 3, 4].map(test), [false, true, false, false, true]);
  });
});
