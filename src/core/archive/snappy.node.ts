// Snappy for the archive's Parquet pages: the native `snappy` package (napi-rs, a prebuilt Rust library)
// when it loads, else hyparquet-writer's own JavaScript snappy. Its JavaScript compressor was ~12 % of a
// conversion's time (docs/PERFORMANCE.md, row 14); both write the same raw snappy format, which every
// Parquet reader decodes. Loaded lazily, once: a platform without the prebuilt binary (or a .vsix that does
// not carry it) converts with the JavaScript one, the same files a little slower.
import { createRequire } from 'node:module';

export type Compress = (input: Uint8Array) => Uint8Array;

interface SnappyModule {
  compressSync(input: Uint8Array): Uint8Array;
}

const loadNative = (): SnappyModule => createRequire(__filename)('snappy') as SnappyModule;

let cached: Compress | null | undefined;

/**
 * The native snappy compressor, or undefined when it cannot load (hyparquet-writer then uses its own).
 * `load` is the loader (a test gives one that fails); the answer of the default loader is kept.
 */
export function nativeSnappy(load: () => SnappyModule = loadNative): Compress | undefined {
  if (load === loadNative && cached !== undefined) return cached ?? undefined;
  let found: Compress | null = null;
  try {
    const mod = load();
    if (typeof mod.compressSync === 'function') found = (input) => mod.compressSync(input);
  } catch {
    found = null;
  }
  if (load === loadNative) cached = found;
  return found ?? undefined;
}
