// The archive's folder on disk: the manifest (written whole through the .part writer), the staging
// folder a month is built in, and the swap that puts a datasource's month in place. A month is written
// beside the dataset (DIR/_staging, which readers skip: a leading underscore), then each datasource's
// folder is renamed into place; the folder it replaces is first renamed aside (DIR/_trash) and removed
// after. Readers never see a half-written partition: a partition folder is whole, or absent for the
// moment between two renames.
import { lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { confinedFolder } from '../io/local-paths.node';
import { writeFileViaPart } from '../io/part-file.node';
import { type ArchiveManifest, emptyManifest, MANIFEST_NAME, parseManifest } from './manifest';

const STAGING_DIR = '_staging';
const TRASH_DIR = '_trash';
/** A manifest bigger than this is refused before it is read (hostile input). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

export async function readManifest(dir: string): Promise<ArchiveManifest> {
  const path = join(dir, MANIFEST_NAME);
  const info = await lstat(path).catch(() => undefined);
  if (!info) return emptyManifest();
  if (!info.isFile() || info.size > MAX_MANIFEST_BYTES) return parseManifest('');
  return parseManifest(await readFile(path, 'utf8'));
}

export async function writeManifest(dir: string, manifest: ArchiveManifest): Promise<void> {
  await writeFileViaPart(join(dir, MANIFEST_NAME), `${JSON.stringify(manifest, null, 1)}\n`, { within: dir });
}

/** Removes what a stopped run left: staging and trash folders (never part of the dataset). */
export async function clearLeftovers(dir: string): Promise<void> {
  await rm(join(dir, STAGING_DIR), { recursive: true, force: true });
  await rm(join(dir, TRASH_DIR), { recursive: true, force: true });
}

/** A fresh staging folder for one month's report: DIR/_staging/<name>. */
export async function stagingFolder(dir: string, name: string): Promise<string> {
  const folder = join(dir, STAGING_DIR, name);
  await rm(folder, { recursive: true, force: true });
  return confinedFolder(dir, [STAGING_DIR, name]);
}

/** The Hive folders `<column>=<value>` DuckDB wrote under `parts`, by value. */
export async function stagedPartitions(parts: string, column: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const names = await readdir(parts).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(`${column}=`)) continue;
    out.set(name.slice(column.length + 1), join(parts, name));
  }
  return out;
}

/**
 * Puts `staged` (a folder of Parquet files, or undefined for "no rows") at DIR/`segments`, replacing
 * what was there: the old folder is renamed aside first, then the new one renamed in, then the old removed.
 */
export async function swapPartition(
  dir: string,
  segments: readonly string[],
  staged: string | undefined,
  token: string,
): Promise<void> {
  const parent = await confinedFolder(dir, segments.slice(0, -1));
  const target = join(parent, segments[segments.length - 1]);
  const existing = await lstat(target).catch(() => undefined);
  let aside: string | undefined;
  if (existing) {
    const trash = await confinedFolder(dir, [TRASH_DIR]);
    aside = join(trash, `${token}-${segments.join('_').replace(/[^\w.-]/g, '_')}`);
    await rename(target, aside);
  }
  if (staged) await rename(staged, target);
  if (aside) await rm(aside, { recursive: true, force: true });
}

export async function removeFolder(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}

export async function ensureFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
}
