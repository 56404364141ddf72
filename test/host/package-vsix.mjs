// `npm run package`: a production build of dist/ and `vsce package --no-dependencies` (offline: the
// bundles carry their dependencies) into .artifacts/. Prints the .vsix path, size and file count.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, ROOT } from './toolchain.mjs';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export function buildDist({ production = false } = {}) {
  run(process.execPath, ['esbuild.mjs', ...(production ? ['--production'] : [])]);
  if (!fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) throw new Error('build produced no dist/extension.js');
}

/** Packages the current dist/ into .artifacts/<name>-<version>.vsix and returns its path. */
export function packageVsix() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const out = path.join(ARTIFACTS, `${pkg.name}-${pkg.version}.vsix`);
  fs.rmSync(out, { force: true });
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--out', out]);
  // The file list, to make an accidental inclusion (sources, caches, harness) visible in the log.
  const listing = run(process.execPath, [vsce, 'ls', '--no-dependencies']).trim().split('\n');
  const size = fs.statSync(out).size;
  console.log(`[package] ${path.relative(ROOT, out)}: ${(size / 1024).toFixed(0)} KiB, ${listing.length} files`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildDist({ production: true });
  packageVsix();
}
