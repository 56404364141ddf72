// `npm run package`: a production build of dist/ and `vsce package --no-dependencies` (offline: the
// bundles carry their dependencies) into .artifacts/. Prints the .vsix path, size and file count.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, ROOT } from './toolchain.mjs';

function run(cmd, args, cwd = ROOT) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export function buildDist({ production = false } = {}) {
  run(process.execPath, ['esbuild.mjs', ...(production ? ['--production'] : [])]);
  if (!fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) throw new Error('build produced no dist/extension.js');
}

// vsce walks every file under its folder before applying .vscodeignore; in the work tree that includes
// .cache/ (code-server: ~600 MB) and node_modules, which makes it take ~20 s. So it runs in a staging
// copy of the tree without those heavy, never-packaged folders; .vscodeignore still decides the contents.
const NOT_STAGED = new Set(['.git', 'node_modules', '.cache', '.artifacts', 'out', 'coverage', '.vscode-test']);

function stage() {
  const dir = path.join(ARTIFACTS, 'vsix-stage');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of fs.readdirSync(ROOT)) {
    if (NOT_STAGED.has(entry)) continue;
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  return dir;
}

/** Names in a zip's central directory (enough of the format to list a .vsix). */
export function zipEntries(file) {
  const buf = fs.readFileSync(file);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file} is not a zip`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    names.push(buf.toString('utf8', at + 46, at + 46 + nameLen));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

/** Where packageVsix() puts the .vsix: .artifacts/<name>-<version>.vsix. */
export function vsixPath() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return path.join(ARTIFACTS, `${pkg.name}-${pkg.version}.vsix`);
}

/** Packages the current dist/ into .artifacts/<name>-<version>.vsix and returns its path. */
export function packageVsix() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const out = vsixPath();
  fs.rmSync(out, { force: true });
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const cwd = stage();
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out], cwd);
  // The file list, to make an accidental inclusion (sources, caches, harness) visible in the log.
  const listing = zipEntries(out)
    .filter((f) => f.startsWith('extension/'))
    .map((f) => f.slice('extension/'.length));
  fs.rmSync(cwd, { recursive: true, force: true });
  const unexpected = listing.filter(
    (f) =>
      !/^(dist\/(extension|emulator|renderer|cli)\.js|package\.json|README\.md|readme\.md|LICENSE.*|CHANGELOG\.md|(media|syntaxes|examples)\/.+|language-configuration.*\.json)$/.test(
        f,
      ),
  );
  if (unexpected.length) throw new Error(`the .vsix would carry unexpected files: ${unexpected.join(', ')}`);
  const size = fs.statSync(out).size;
  console.log(
    `[package] ${path.relative(ROOT, out)}: ${(size / 1024).toFixed(0)} KiB, ${listing.length} files: ${listing.join(' ')}`,
  );
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildDist({ production: true });
  packageVsix();
}
