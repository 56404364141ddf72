// Bundles: dist/extension.js (node, cjs, vscode external), dist/cli.js (node, the measnb bin),
// dist/emulator.js (node; loaded lazily by the extension's local connection), dist/renderer.js (browser, esm).
import fs from 'node:fs';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = { bundle: true, sourcemap: true, minify: production, logLevel: 'info', legalComments: 'none' };
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20' };
// The SQL engine (DuckDB: native binaries per platform) stays outside the bundles: required at run time on
// the first sql cell, from node_modules (the CLI) or the copy packaged into the .vsix (the extension); its
// bindings too (core/sql/put-table.node.ts fills DuckDB's data chunks through them).
const ENGINE = ['@duckdb/node-api', '@duckdb/node-bindings'];

const builds = [
  {
    ...node,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', ...ENGINE],
  },
  {
    ...node,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    external: ENGINE,
    banner: { js: '#!/usr/bin/env node' },
  },
  { ...node, entryPoints: ['src/emulator/index.ts'], outfile: 'dist/emulator.js' },
  {
    ...common,
    entryPoints: ['src/renderer/index.ts'],
    outfile: 'dist/renderer.js',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    loader: { '.css': 'text' },
  },
].filter((b) => fs.existsSync(b.entryPoints[0]));

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}
