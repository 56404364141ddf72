// The one "this call must fail with a MeasurementsError" helper of the tests.
import assert from 'node:assert/strict';
import { isMeasurementsError, type MeasurementsError, type MeasurementsErrorCode } from '../../../src/core/api/errors';

/** Awaits `p`, asserts it rejects with a MeasurementsError (of `code`, when given) and returns that error. */
export async function rejection(p: Promise<unknown>, code?: MeasurementsErrorCode): Promise<MeasurementsError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isMeasurementsError(e), `expected a MeasurementsError, got ${e}`);
    if (code !== undefined) assert.equal(e.code, code);
    return e;
  }
  assert.fail('expected a rejection');
}
