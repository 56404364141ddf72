// Service-supplied values as local file and folder names, and every write confined to a chosen folder.
// The one home of both, for the CLI and the extension: a report id or a file URL from the service
// becomes at most one plain name, and the real path of whatever is written (folders created on the
// way, planted symbolic links followed) must stay inside the folder the user chose.
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { UnsafePathError } from '../api/errors';

/** Longest name made from a service value (file systems allow 255 bytes; room left for `_2.csv`, `.part`). */
export const MAX_NAME_LENGTH = 120;

// Names Windows reserves for devices, with or without an extension (CON, nul.txt, COM1.csv, LPT9).
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

/**
 * `value` (from the service) as ONE plain file or folder name: letters, digits, `.`, `_` and `-` only
 * (separators, `..`, NUL, drive letters and control characters become `_`), no leading dot, no
 * trailing dot or space, not a Windows device name, at most MAX_NAME_LENGTH characters; `fallback`
 * when nothing readable is left.
 */
export function safeFileName(value: string, fallback: string): string {
  let name = value
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[.]+/, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/[. ]+$/, '');
  if (!/[A-Za-z0-9]/.test(name)) name = fallback;
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  return name;
}

/** The folder name of a report's files (`<chosen folder>/<this>/`). */
export function reportFolderName(reportId: string): string {
  return safeFileName(reportId, 'report');
}

/** Whether segment is one plain name: not empty, `.` or `..`, no separator or NUL. */
export function isOneName(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !/[/\\\0]/.test(segment);
}

/** Whether candidate is root or a path under it (both resolved the same way). */
export function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * `root/segments…` as a folder, created where missing, and its path (spelled from `root`). Refuses
 * (UnsafePathError) a segment that is not one plain name, and any part whose real path is outside
 * the real path of `root`: a symbolic link planted inside the folder cannot redirect the write.
 */
export async function confinedFolder(root: string, segments: readonly string[] = []): Promise<string> {
  for (const s of segments) {
    if (!isOneName(s)) throw new UnsafePathError(`Refusing the folder name ${JSON.stringify(s)}: not one plain name.`);
  }
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  let spelled = root;
  for (const s of segments) {
    spelled = join(spelled, s);
    try {
      await mkdir(spelled);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const real = await realpath(spelled);
    if (!inside(realRoot, real)) {
      throw new UnsafePathError(
        `Refusing to write into ${spelled}: it leads to ${real}, outside the chosen folder ${root} (a symbolic link).`,
      );
    }
    if (!(await lstat(real)).isDirectory()) throw new UnsafePathError(`${spelled} exists and is not a folder.`);
  }
  return spelled;
}

/**
 * The path of file `name` in `folder` (one from confinedFolder), to be written. Refuses a name that is
 * not one plain name, and an existing entry there that is a symbolic link or a folder.
 */
export async function confinedFile(folder: string, name: string): Promise<string> {
  if (!isOneName(name))
    throw new UnsafePathError(`Refusing the file name ${JSON.stringify(name)}: not one plain name.`);
  const path = join(folder, name);
  let existing: Awaited<ReturnType<typeof lstat>> | undefined;
  try {
    existing = await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (existing?.isSymbolicLink()) {
    const to = await realpath(path).catch(() => 'a missing target');
    throw new UnsafePathError(`Refusing to write ${path}: it is a symbolic link (to ${to}), not a file of the folder.`);
  }
  if (existing && !existing.isFile()) throw new UnsafePathError(`${path} exists and is not a file.`);
  return path;
}
