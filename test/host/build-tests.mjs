// Compiles the integration suite (test/integration/**/*.ts) with esbuild into the git-ignored
// out/integration: one bundle per test file plus the runner (index.js) that the extension host loads.
// `vscode`, `mocha` and the SQL engine stay external (the host provides the first, node_modules the others).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from './toolchain.mjs';

export const INTEGRATION_OUT = path.join(ROOT, 'out', 'integration');

export async function buildIntegrationTests() {
  const dir = path.join(ROOT, 'test', 'integration');
  const entries = fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
  fs.rmSync(INTEGRATION_OUT, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries,
    outdir: INTEGRATION_OUT,
    outbase: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha', '@duckdb/node-api', '@duckdb/node-bindings'], // the SQL engine: native, never bundled
    logLevel: 'warning',
  });
  return path.join(INTEGRATION_OUT, 'index');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await buildIntegrationTests());
}
