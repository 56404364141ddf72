// The one decision of QC-invalid values (qcInvalidTest for passes over every row, qcInvalidLookup for the
// table widget's cells): by a value's own QC column, else its metric's qcAssessment, else its qcFlags.
import assert from 'node:assert/strict';
import { parseCanonicalLabel } from '../../../../src/core/metrics/labels';
import type { Column, Table } from '../../../../src/core/table/table';
import { qcInvalidLookup, qcInvalidTest, qcSiblings } from '../../../../src/renderer/model/qc';
import { syntheticTable } from '../../../support/synthetic-table';

/** A metric with a value column, a qcFlags column and (optionally) a qcAssessment column. */
function qcTable(flags: string[][], flagCodes: number[], assessment?: number[]): Table {
  const label = 'no2Conc1HourMean';
  const n = flagCodes.length;
  const columns: Column[] = [
    {
      name: `${label}.value`,
      kind: 'number',
      values: Float64Array.from({ length: n }, (_, i) => i + 1),
      metric: parseCanonicalLabel(`${label}.value`),
    },
    {
      name: `${label}.qcFlags`,
      kind: 'qcFlags',
      dict: flags,
      codes: Int32Array.from(flagCodes),
      metric: parseCanonicalLabel(`${label}.qcFlags`),
    },
  ];
  if (assessment)
    columns.push({
      name: `${label}.qcAssessment`,
      kind: 'qcAssessment',
      dict: ['valid', 'invalid'],
      codes: Int32Array.from(assessment),
      metric: parseCanonicalLabel(`${label}.qcAssessment`),
    });
  return { columns, rowCount: n };
}

const allRows = (t: Table, col: number) => {
  const test = qcInvalidTest(t, qcSiblings(t), col);
  const lookup = qcInvalidLookup(t);
  return Array.from({ length: t.rowCount }, (_, r) => {
    assert.equal(lookup(col, r), test?.(r) ?? false, `lookup and test agree, row ${r}`);
    return lookup(col, r);
  });
};

describe('renderer QC: which values are invalid', () => {
  it('a metric with only qcFlags: severity I flags make its values invalid; no flags (-1) is valid', () => {
    const t = qcTable([[], ['QC.I.OOB.001'], ['QC.W.RNG.002']], [0, 1, 2, -1, 1]);
    assert.deepEqual(allRows(t, 0), [false, true, false, false, true]);
    assert.deepEqual(allRows(t, 1), [false, true, false, false, true], 'the flags cell itself');
  });

  it("the metric's qcAssessment decides over its flags when both are there", () => {
    const t = qcTable([[], ['QC.I.OOB.001']], [1, 1, 0], [0, 1, 1]);
    assert.deepEqual(allRows(t, 0), [false, true, true]);
    assert.deepEqual(allRows(t, 2), [false, true, true], 'the assessment cell itself');
  });

  it('marks a metric through its QC columns (value and raw), never other metrics or plain columns', () => {
    const t = syntheticTable(400, 7);
    const col = (name: string) => t.columns.findIndex((c) => c.name === name);
    const every97 = Array.from({ length: 400 }, (_, r) => r % 97 === 0);
    const never = every97.map(() => false);
    assert.deepEqual(allRows(t, col('pm2_5ConcMassIndividual.value')), every97);
    assert.deepEqual(allRows(t, col('pm2_5ConcMassIndividual.raw')), every97);
    assert.deepEqual(allRows(t, col('no2ConcIndividual.value')), never);
    assert.deepEqual(allRows(t, col('datasourceId')), never);
    assert.equal(qcInvalidTest(t, qcSiblings(t), col('no2ConcIndividual.value')), undefined);
  });
});
