// The synthetic table in the renderer's wire format (the core's encoder), for the renderer page.
import { encodeTable } from '../../../src/core/table/wire';
import { syntheticTable } from '../../support/synthetic-table';

export function encodeSynthetic(rows: number): Uint8Array {
  return encodeTable(syntheticTable(rows));
}
