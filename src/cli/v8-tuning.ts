// V8 settings of the measnb process (only the CLI's: the extension host is shared with other extensions
// and keeps V8's defaults).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff). undici parses HTTP with llhttp compiled to wasm,
 * and once the parser is hot V8 recompiles its one large function with TurboFan: that compilation takes
 * ~30 MB for a moment, which made it the peak of a whole 1 GB download (107 MB; 76 MB without it). The
 * baseline code parses our bodies as fast (benchmark 2 takes the same time), so the tier-up buys nothing.
 * Must run before the first request (undici compiles its parser when it is loaded).
 */
export function keepWasmOnBaselineCompiler(): void {
  setFlagsFromString('--liftoff-only');
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection now. `measnb archive` runs one after each month: a month's download leaves
 * ~8 MB of buffers outside the JavaScript heap (undici's and gunzip's chunks), which V8 frees only at its
 * next full collection, so over a year they piled up to ~35 MB before one came (a year peaked ~30 MB
 * above a month). V8's own collector, made callable (`--expose-gc` set at run time, read in a new context).
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
