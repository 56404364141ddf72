// The project's npm dependencies, for the scripts that run before any is installed (`npm run demo`,
// `npm test`): whether node_modules is what package-lock.json asks for, and the record an `npm ci`
// leaves. Node's built-ins only.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where `npm ci` leaves the hash of the package-lock.json it installed. */
export const LOCK_HASH_FILE = path.join(ROOT, 'node_modules', '.measnb-lock-hash');

const sha256 = (file) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/**
 * Are node_modules what package-lock.json asks for? Yes when the lock's hash matches the one the last
 * `npm ci` stored; otherwise, when npm's own record (node_modules/.package-lock.json) has every locked
 * package at its locked version (optional packages for other platforms are never installed).
 */
export function dependenciesUpToDate(root = ROOT) {
  const lockFile = path.join(root, 'package-lock.json');
  const hashFile = path.join(root, 'node_modules', '.measnb-lock-hash');
  const hidden = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(path.join(root, 'node_modules'))) return false;
  const hash = sha256(lockFile);
  if (fs.existsSync(hashFile) && fs.readFileSync(hashFile, 'utf8').trim() === hash) return true;
  if (!fs.existsSync(hidden)) return false;
  try {
    const want = JSON.parse(fs.readFileSync(lockFile, 'utf8')).packages ?? {};
    const have = JSON.parse(fs.readFileSync(hidden, 'utf8')).packages ?? {};
    for (const [where, pkg] of Object.entries(want)) {
      if (where === '' || pkg.optional || pkg.link) continue;
      if (have[where]?.version !== pkg.version) return false;
      if (!fs.existsSync(path.join(root, where))) return false;
    }
  } catch {
    return false;
  }
  fs.writeFileSync(hashFile, `${hash}\n`);
  return true;
}

/** Records the package-lock.json that `npm ci` just installed (so the next check is one hash). */
export function recordInstalledLock() {
  fs.writeFileSync(LOCK_HASH_FILE, `${sha256(path.join(ROOT, 'package-lock.json'))}\n`);
}

/** The environment for `npm ci` from inside an npm script: without npm's own npm_* variables. */
export function npmCiEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}
