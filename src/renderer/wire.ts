// The one wire format lives in the core (src/core/table/wire.ts); this file only names it for the renderer.
export { decodeTable, encodeTable } from '../core/table/wire';
