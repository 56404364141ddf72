// `npm run package [-- --target linux-x64]`: a production build of dist/ and `vsce package
// --no-dependencies --target <platform>` (offline: the bundles carry their dependencies, except the SQL
// engine, DuckDB, whose native binary is per platform: its packages go into dist/node_modules)
// into .artifacts/. Prints the .vsix path, size and file count.
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

/** The platform a .vsix is for (vsce's target names): this machine's unless `--target` says otherwise. */
export function vsixTarget(argv = process.argv) {
  const i = argv.indexOf('--target');
  return i >= 0 ? argv[i + 1] : `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch}`;
}

/** The engine's packages the extension requires at run time (esbuild leaves them external). */
export function enginePackages(target) {
  return ['@duckdb/node-api', '@duckdb/node-bindings', `@duckdb/node-bindings-${target}`, 'detect-libc'];
}

const IMAGE_TYPES = { '.png': true, '.jpg': true, '.jpeg': true, '.gif': true };
const MARKDOWN_IMAGE = /(!\[([^\]]*)\]\(\s*)<?([^)\s>]+)>?((?:\s+"[^"]*")?\s*\))/g;

/** The images README.md shows (Markdown `![alt](src)`), as written. */
export function readmeImages(readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')) {
  return [...readme.matchAll(MARKDOWN_IMAGE)].map((m) => ({ alt: m[2], src: m[3] }));
}

/**
 * The README as packaged. The extension's page, in VS Code and on the Marketplace, shows images only from
 * https (VS Code's page sanitises every other source away; vsce and the Marketplace want https). So for
 * publishing (`npm run package -- --base-images-url https://…/raw/main`) each relative image becomes
 * `<base>/<path>`; without a base the relative links stay (and the images are in the .vsix) but the page
 * shows only their alt text. Every image must be PNG, JPEG or GIF, inside the project; absolute ones https.
 */
export function readmeForPackage(readme, { baseImagesUrl, root = ROOT } = {}) {
  if (baseImagesUrl !== undefined && !/^https:\/\/[^/\s]+/.test(baseImagesUrl))
    throw new Error(`--base-images-url must be an https URL (got ${baseImagesUrl})`);
  return readme.replace(MARKDOWN_IMAGE, (_all, open, _alt, src, close) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(src)) {
      if (!/^https:\/\//i.test(src))
        throw new Error(`README image ${src}: only https images show on the extension's page`);
      return `${open}${src}${close}`;
    }
    const rel = path.posix.normalize(src.replace(/^\.\//, ''));
    if (rel.startsWith('../') || path.isAbsolute(rel)) throw new Error(`README image ${src} is outside the project`);
    if (!IMAGE_TYPES[path.extname(rel).toLowerCase()])
      throw new Error(`README image ${src}: use PNG, JPEG or GIF (the extension's page refuses SVG)`);
    if (!fs.existsSync(path.join(root, rel))) throw new Error(`README image ${src} does not exist`);
    if (baseImagesUrl === undefined) return `${open}${rel}${close}`;
    return `${open}${baseImagesUrl.replace(/\/+$/, '')}/${rel}${close}`;
  });
}

/** `--base-images-url <https URL>` (or MEASNB_BASE_IMAGES_URL): where the published README's images live. */
export function baseImagesUrl(argv = process.argv) {
  const i = argv.indexOf('--base-images-url');
  return i >= 0 ? argv[i + 1] : process.env.MEASNB_BASE_IMAGES_URL || undefined;
}

function stage(target) {
  const dir = path.join(ARTIFACTS, 'vsix-stage');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of fs.readdirSync(ROOT)) {
    if (NOT_STAGED.has(entry)) continue;
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  fs.writeFileSync(path.join(dir, 'README.md'), readmeForPackage(readme, { baseImagesUrl: baseImagesUrl() }));
  for (const pkg of enginePackages(target)) {
    const from = path.join(ROOT, 'node_modules', pkg);
    if (!fs.existsSync(from))
      throw new Error(`${pkg} is not installed: the .vsix for ${target} needs it (npm ci installs this platform's)`);
    // Beside the bundles (dist/node_modules), where require() from dist/extension.js finds them; vsce never
    // packages a top-level node_modules with --no-dependencies.
    fs.cpSync(from, path.join(dir, 'dist', 'node_modules', pkg), { recursive: true });
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
export function packageVsix(target = vsixTarget()) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const out = vsixPath();
  fs.rmSync(out, { force: true });
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const cwd = stage(target);
  run(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--target', target, '--no-rewrite-relative-links', '--out', out],
    cwd,
  );
  // The file list, to make an accidental inclusion (sources, caches, harness) visible in the log.
  const listing = zipEntries(out)
    .filter((f) => f.startsWith('extension/'))
    .map((f) => f.slice('extension/'.length));
  fs.rmSync(cwd, { recursive: true, force: true });
  const engine = enginePackages(target).map((p) => `dist/node_modules/${p}/`);
  const unexpected = listing.filter(
    (f) =>
      !engine.some((p) => f.startsWith(p)) &&
      !/^(dist\/(extension|emulator|renderer|cli)\.js|package\.json|README\.md|readme\.md|LICENSE.*|CHANGELOG\.md|(media|syntaxes|examples)\/.+|language-configuration.*\.json)$/.test(
        f,
      ),
  );
  if (unexpected.length) throw new Error(`the .vsix would carry unexpected files: ${unexpected.join(', ')}`);
  const binary = `dist/node_modules/@duckdb/node-bindings-${target}/duckdb.node`;
  if (!listing.includes(binary)) throw new Error(`the .vsix lacks the SQL engine's native binary (${binary})`);
  const size = fs.statSync(out).size;
  const shown = listing.filter((f) => !engine.some((p) => f.startsWith(p)));
  console.log(
    `[package] ${path.relative(ROOT, out)} (${target}): ${(size / 1024).toFixed(0)} KiB, ${listing.length} files (the SQL engine's ${listing.length - shown.length} under dist/node_modules/): ${shown.join(' ')}`,
  );
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildDist({ production: true });
  packageVsix();
}
