// The one wire format lives in the core (src/core/table/wire.ts); this file only names it for the renderer
// and the notebook layer.
import { decodeTable } from '../core/table/wire';

export { encodeTable } from '../core/table/wire';

/**
 * decodeTable for bytes that may be a node Buffer (the extension host hands output items out as Buffers,
 * whose slice() does not copy, so the core's copy of a misaligned column would still be misaligned).
 * A plain Uint8Array view over the same memory makes slice() copy, as the core expects.
 */
export function decodeTableBytes(bytes: Uint8Array) {
  return decodeTable(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
