// Files written whole or not at all: the bytes go to `<file>.part`, created exclusively (O_EXCL: a file or
// a symlink planted at that name is never opened, never followed), then renamed over the target (rename
// replaces a symlink at the target rather than writing through it). A failed write removes the .part.
import { open, rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

export interface PartFileOptions {
  /** File mode of the new file (default 0o666 minus the umask). */
  mode?: number;
}

/** `<dest>.part`, freshly and exclusively created: a stale one of ours is removed (unlinked, never followed). */
async function createPart(dest: string, mode: number | undefined) {
  const part = `${dest}.part`;
  // rm unlinks a symlink itself; if something re-appears before the exclusive open, the open fails (EEXIST).
  await rm(part, { force: true });
  return { part, handle: await open(part, 'wx', mode ?? 0o666) };
}

/** Streams into `<dest>.part` through write(), then renames it to dest; nothing is left behind on failure. */
export async function writeViaPart<T>(
  dest: string,
  write: (out: Writable) => Promise<T>,
  options: PartFileOptions = {},
): Promise<T> {
  const { part, handle } = await createPart(dest, options.mode);
  const out = handle.createWriteStream();
  try {
    const value = await write(out);
    if (!out.writableEnded) out.end();
    await finished(out);
    await rename(part, dest);
    return value;
  } catch (e) {
    out.destroy();
    await rm(part, { force: true });
    throw e;
  }
}

/** Writes data to `<dest>.part` and renames it to dest. */
export async function writeFileViaPart(
  dest: string,
  data: string | Uint8Array,
  options: PartFileOptions = {},
): Promise<void> {
  const { part, handle } = await createPart(dest, options.mode);
  try {
    await handle.writeFile(data);
    await handle.close();
    await rename(part, dest);
  } catch (e) {
    await handle.close().catch(() => undefined);
    await rm(part, { force: true });
    throw e;
  }
}
