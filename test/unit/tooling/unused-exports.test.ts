// scripts/unused-exports.mjs: the exports of src no other module imports, on a small tree of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'unused-exports.mjs');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'measnb-exports-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

function run(root: string, ...args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, '--root', root, ...args], { encoding: 'utf8' });
}

describe('scripts/unused-exports.mjs', () => {
  it('names exports used only in their own file and unused ones; imported, re-exported and whole-module ones are not', () => {
    const root = tree({
      'src/a.ts': [
        'export const used = 1;',
        'export function ownOnly(): number { return 2; }',
        'export const unused = ownOnly();',
        'export type Shape = { x: number };',
        'export interface ViaBarrel { y: number }',
      ].join('\n'),
      'src/b.ts':
        "import { used } from './a';\nimport type { Shape } from './a';\nexport const b: Shape = { x: used };\n",
      'src/barrel.ts': "export { type ViaBarrel } from './a';\n",
      'src/all.ts': 'export const whole = 1;\nexport const also = 2;\n',
      'src/c.ts': "import * as all from './all';\nexport const c = all.whole;\n",
      'test/t.ts':
        "import { b } from '../src/b';\nimport { c } from '../src/c';\nimport type { ViaBarrel } from '../src/barrel';\nexport const t: ViaBarrel = { y: b.x + c };\n",
      'src/extension/extension.ts': 'export function activate(): void {}\n',
    });
    try {
      const r = run(root, '--check');
      assert.equal(r.status, 1, r.stderr);
      assert.deepEqual(r.stdout.trim().split('\n'), ['src/a.ts:2 ownOnly (own file)', 'src/a.ts:3 unused (unused)']);
      assert.match(r.stderr, /2 export\(s\) no other module imports/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('exits 0 with --check when every export is imported', () => {
    const root = tree({
      'src/a.ts': 'export const x = 1;\n',
      'src/b.ts': "import { x } from './a';\nconsole.log(x);\n",
    });
    try {
      assert.equal(run(root, '--check').status, 0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
