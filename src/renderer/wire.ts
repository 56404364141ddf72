// The one wire format lives in the core (src/core/table); this file only names it for the renderer.
// Placeholder until the core's encodeTable/decodeTable land.
import type { Table } from '../core/table/table';

export function decodeTable(_bytes: Uint8Array): Table {
  throw new Error('the table wire format is not available yet');
}

export function encodeTable(_table: Table): Uint8Array {
  throw new Error('the table wire format is not available yet');
}
