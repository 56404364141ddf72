// The one writer of files: every file the project writes (a result, a notebook, a download, a state
// file) is written whole or not at all, and only where it was meant to go. The destination is checked
// first: an existing symbolic link there is refused (never followed, never replaced), and so is a
// destination whose folder is not, after resolving links, the intended folder (`within`: a planted link
// in a parent folder, a `..` in a name). The bytes go to `<file>.part`, created exclusively (flag 'wx':
// a file or a symlink planted at that name is never opened, never followed), then renamed over the
// target. A failed write removes the .part; a concurrent writer of the same file is detected (the .part
// is no longer ours) and this write fails rather than renaming someone else's bytes.
import type { Stats } from 'node:fs';
import { type FileHandle, lstat, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { UnsafePathError } from '../api/errors';
import { inside, isOneName } from './local-paths.node';

interface PartFileOptions {
  /** File mode of the new file (default 0o666 minus the umask). */
  mode?: number;
  /**
   * The folder the file must land in or under (default: the destination's own folder). Every folder
   * between it and the file must be a real folder inside it, not a link leading elsewhere.
   */
  within?: string;
}

/** `part`'s entry on disk, or undefined when there is none. */
async function lstatOrNone(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Two real paths of one folder; case aside where file systems usually ignore it (Windows, macOS). */
function samePath(a: string, b: string): boolean {
  const fold = process.platform === 'win32' || process.platform === 'darwin';
  return fold ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * Refuses (UnsafePathError) a destination that is not one plain name in a folder inside `within` after
 * resolving links, or that exists as a symbolic link or as anything but a regular file.
 */
export async function checkDestination(dest: string, within: string = dirname(dest)): Promise<void> {
  const name = basename(dest);
  if (!isOneName(name)) throw new UnsafePathError(`Refusing to write ${dest}: not a file name.`);
  const folder = resolve(dirname(dest));
  const root = resolve(within);
  if (!inside(root, folder)) {
    throw new UnsafePathError(`Refusing to write ${dest}: it is outside the folder ${within}.`);
  }
  const realFolder = await realpath(folder);
  const expected = join(await realpath(root), relative(root, folder));
  if (!samePath(realFolder, expected)) {
    throw new UnsafePathError(
      `Refusing to write ${dest}: its folder leads to ${realFolder}, not into ${within} (a symbolic link).`,
    );
  }
  const existing = await lstatOrNone(dest);
  if (existing?.isSymbolicLink()) {
    const to = await realpath(dest).catch(() => 'a missing target');
    throw new UnsafePathError(`Refusing to write ${dest}: it is a symbolic link (to ${to}), not a file.`);
  }
  if (existing && !existing.isFile()) throw new UnsafePathError(`Refusing to write ${dest}: it is not a file.`);
}

/** An exclusively created `<dest>.part` and the identity of the file we created. */
interface Part {
  path: string;
  handle: FileHandle;
  ino: number;
  dev: number;
}

/** `<dest>.part`, freshly and exclusively created: a stale one is removed first (unlinked, never followed). */
async function createPart(dest: string, mode: number | undefined): Promise<Part> {
  const path = `${dest}.part`;
  // rm unlinks a symlink itself; if something re-appears before the exclusive open, the open fails (EEXIST).
  await rm(path, { force: true });
  const handle = await open(path, 'wx', mode ?? 0o666).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'EEXIST' ? concurrentWrite(dest) : e;
  });
  const { ino, dev } = await handle.stat();
  return { path, handle, ino, dev };
}

function concurrentWrite(dest: string): UnsafePathError {
  return new UnsafePathError(`${dest} was being written by someone else at the same time; this write was dropped.`);
}

/** Whether `<dest>.part` on disk is still the file this write created (another writer may have replaced it). */
async function stillOurs(part: Part): Promise<boolean> {
  const now = await lstatOrNone(part.path);
  return now !== undefined && now.ino === part.ino && now.dev === part.dev;
}

/** Renames our .part over dest, unless a concurrent writer replaced it. */
async function commit(part: Part, dest: string): Promise<void> {
  if (!(await stillOurs(part))) throw concurrentWrite(dest);
  await rename(part.path, dest);
}

/** Removes our .part (never another writer's). */
async function discard(part: Part): Promise<void> {
  if (await stillOurs(part).catch(() => false)) await rm(part.path, { force: true });
}

/** Destroys a write stream and waits until its file is closed; its late errors are expected, not thrown. */
async function closeStream(out: Writable): Promise<void> {
  if (out.closed) return;
  out.on('error', () => undefined);
  const closed = new Promise<void>((resolveClosed) => out.once('close', () => resolveClosed()));
  out.destroy();
  await closed;
}

/** Gives a fresh, empty `<dest>.part` stream in place of the current one (the reply is read again). */
export type RestartPart = () => Promise<Writable>;

/**
 * Streams into `<dest>.part` through write(), then renames it to dest; nothing is left behind on failure.
 * write may call restart() to throw away what it wrote and start again from an empty file.
 */
export async function writeViaPart<T>(
  dest: string,
  write: (out: Writable, restart: RestartPart) => Promise<T>,
  options: PartFileOptions = {},
): Promise<T> {
  await checkDestination(dest, options.within);
  let part = await createPart(dest, options.mode);
  let out = streamOf(part);
  const restart = async () => {
    await closeStream(out);
    await discard(part);
    part = await createPart(dest, options.mode);
    out = streamOf(part);
    return out;
  };
  try {
    const value = await write(out, restart);
    if (!out.writableEnded) out.end();
    await finished(out);
    await commit(part, dest);
    return value;
  } catch (e) {
    await closeStream(out);
    await discard(part);
    throw e;
  }
}

/** The part's write stream, with an error listener for its whole life (the writer reports through finished). */
function streamOf(part: Part): Writable {
  const out = part.handle.createWriteStream();
  out.on('error', () => undefined);
  return out;
}

/** Writes data to `<dest>.part` and renames it to dest. */
export async function writeFileViaPart(
  dest: string,
  data: string | Uint8Array,
  options: PartFileOptions = {},
): Promise<void> {
  await checkDestination(dest, options.within);
  const part = await createPart(dest, options.mode);
  try {
    await part.handle.writeFile(data);
    await part.handle.close();
    await commit(part, dest);
  } catch (e) {
    await part.handle.close().catch(() => undefined);
    await discard(part);
    throw e;
  }
}
