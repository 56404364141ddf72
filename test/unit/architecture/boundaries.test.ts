// The layer and platform arrows of docs/ARCHITECTURE.md are lint rules (biome.json overrides; node built-ins by Biome's noNodejsModules): a file
// that breaks one fails `npm run lint`. So is "time is an input" (scripts/lint/wall-clock.grit). Each case writes a small module into the folder it claims to
// be in, runs Biome's linter on it with the project's configuration, and removes it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const BIOME = join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

/** Lints `source` as if it were the file `relPath`; the diagnostics Biome printed. */
function lintAs(relPath: string, source: string): { ok: boolean; output: string } {
  const file = join(ROOT, relPath);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  try {
    const r = spawnSync(process.execPath, [BIOME, 'lint', '--max-diagnostics=20', relPath], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(file, { force: true });
  }
}

type Case = [where: string, source: string, message: RegExp];

/** Cases that import `name` from `from` in the file `where`, each failing with `message`. */
function layerCases(message: RegExp, ...imports: Array<[where: string, from: string, name: string]>): Case[] {
  return imports.map(([where, from, name]) => [
    where,
    `import { ${name} } from '${from}';\nexport const x = ${name};\n`,
    message,
  ]);
}

const violations: Case[] = [
  [
    'src/core/table/zz-probe.ts',
    "import * as vscode from 'vscode';\nexport const v = vscode;\n",
    /never import vscode/,
  ],
  [
    'src/core/table/zz-probe.ts',
    "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
    /Node.js builtin module/,
  ],
  [
    'src/core/table/zz-probe.ts',
    "import { Readable } from 'stream';\nexport const r = Readable;\n",
    /Node.js builtin module/,
  ],
  [
    'src/core/table/zz-probe.ts',
    "import { parseCsvWide } from './csv-read.node';\nexport const p = parseCsvWide;\n",
    /node-only/,
  ],
  ['src/core/table/zz-probe.ts', "import { request } from 'undici';\nexport const r = request;\n", /node-only/],
  [
    'src/core/table/zz-probe.ts',
    "import { TablePanels } from '../../extension/table/table-panel';\nexport const t = TablePanels;\n",
    /never imports the extension/,
  ],
  [
    'src/core/time/zz-probe.ts',
    "import { showPanel } from '../../renderer/panel';\nexport const s = showPanel;\n",
    /never imports the extension, the CLI, the renderer or the emulator/,
  ],
  [
    'src/core/run/zz-probe.node.ts',
    "import { main } from '../../cli/main';\nexport const m = main;\n",
    /never imports the extension/,
  ],
  [
    'src/renderer/model/zz-probe.ts',
    "import { createHash } from 'node:crypto';\nexport const h = createHash;\n",
    /Node.js builtin module/,
  ],
  [
    'src/renderer/model/zz-probe.ts',
    "import { EventEmitter } from 'events';\nexport const e = EventEmitter;\n",
    /Node.js builtin module/,
  ],
  [
    'src/renderer/model/zz-probe.ts',
    "import { writeTableCsv } from '../../core/table/csv-export.node';\nexport const w = writeTableCsv;\n",
    /runs in a browser/,
  ],
  [
    'src/renderer/zz-probe.ts',
    "import { startEmulator } from '../emulator/index';\nexport const s = startEmulator;\n",
    /imports only core/,
  ],
  [
    'src/emulator/zz-probe.ts',
    "import { main } from '../cli/main';\nexport const m = main;\n",
    /emulator never imports/,
  ],
  ...layerCases(
    /never imports the extension, the CLI, the renderer or the emulator/,
    ['src/core/reports/zz-probe.ts', '../../emulator/index', 'startEmulator'],
    ['src/core/api/zz-probe.node.ts', '../../emulator/clock', 'ManualClock'],
  ),
  ...layerCases(
    /src\/extension never imports the CLI or the renderer/,
    ['src/extension/notebook/zz-probe.ts', '../../renderer/panel', 'showPanel'],
    ['src/extension/zz-probe.ts', '../cli/main', 'main'],
  ),
  ...layerCases(
    /src\/cli never imports the extension or the renderer/,
    ['src/cli/commands/zz-probe.ts', '../../extension/extension', 'activate'],
    ['src/cli/zz-probe.ts', '../renderer/panel', 'showPanel'],
  ),
  [
    'src/cli/zz-probe.ts',
    "import * as vscode from 'vscode';\nexport const v = vscode;\n",
    /src\/cli runs without VS Code/,
  ],
];

describe('architecture: the lint enforces the layer and platform arrows', function () {
  this.timeout(60_000);

  for (const [where, source, message] of violations) {
    it(`rejects in ${where}: ${source.split('\n')[0]}`, () => {
      const r = lintAs(where, source);
      assert.equal(r.ok, false, `expected a lint error:\n${r.output}`);
      assert.match(r.output, /noRestrictedImports|noNodejsModules|plugin/);
      assert.match(r.output, message);
    });
  }

  it('accepts the allowed arrows: node-only core may use node, the renderer and neutral core import neutral core', () => {
    for (const [where, source] of [
      [
        'src/core/table/zz-probe.node.ts',
        "import { once } from 'node:events';\nimport { parseCsvWide } from './csv-read.node';\nexport const x = [once, parseCsvWide];\n",
      ],
      [
        'src/core/table/zz-probe.ts',
        "import { parseIsoMs } from '../time/iso';\nimport type { Table } from './table';\nexport const x: [typeof parseIsoMs, Table?] = [parseIsoMs];\n",
      ],
      [
        'src/renderer/model/zz-probe.ts',
        "import { tableToMarkdown } from '../../core/table/markdown';\nexport const x = tableToMarkdown;\n",
      ],
      ['src/emulator/zz-probe.ts', "import { parseIsoMs } from '../core/time/iso';\nexport const x = parseIsoMs;\n"],
      ['src/cli/zz-probe.ts', "import { startEmulator } from '../emulator/index';\nexport const x = startEmulator;\n"],
      [
        'src/extension/zz-probe.ts',
        "import * as vscode from 'vscode';\nimport { RENDERER_ID } from '../core/notebook/renderer-protocol';\nexport const x = [vscode, RENDERER_ID];\n",
      ],
    ]) {
      const r = lintAs(where, source);
      assert.ok(r.ok, `${where} should pass:\n${r.output}`);
    }
  });
});

describe('architecture: the lint keeps time an input (only the Clock reads the wall clock)', function () {
  this.timeout(60_000);

  it('rejects Date.now() and new Date() (no arguments) anywhere in src but the two clock modules', () => {
    const reads = 'export const a = Date.now();\nexport const b = new Date();\nexport const c = Date.now;\n';
    for (const where of ['src/core/query/zz-probe.ts', 'src/extension/zz-probe.ts', 'src/renderer/model/zz-probe.ts']) {
      const r = lintAs(where, reads);
      assert.equal(r.ok, false, `expected a lint error in ${where}:\n${r.output}`);
      assert.equal(r.output.match(/Time is an input/g)?.length, 3, r.output);
    }
  });

  it('accepts dates made from a value, and the clock modules themselves', () => {
    const r = lintAs(
      'src/core/query/zz-probe.ts',
      "export const x = [new Date(0), new Date('2026-11-20T10:30:00Z'), Date.parse('2026-11-20'), Date.UTC(2026, 10)];\n",
    );
    assert.ok(r.ok, r.output);
    for (const home of ['src/core/time/clock.ts', 'src/emulator/clock.ts']) {
      const lint = spawnSync(process.execPath, [BIOME, 'lint', home], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(lint.status, 0, `${home}:\n${lint.stdout}${lint.stderr}`);
    }
  });
});

/** The floors inside core, bottom first (docs/ARCHITECTURE.md): a folder imports only folders before it. */
const CORE_FLOORS = [
  'time',
  'text',
  'api',
  'metrics',
  'aq',
  'io',
  'table',
  'query',
  'notebook',
  'client',
  'sql',
  'reports',
  'follow',
  'archive',
  'run',
];

describe('architecture: the lint keeps the floors inside core (imports point down only)', function () {
  this.timeout(120_000);

  it('every core folder is on a floor, and no other folder is', () => {
    const folders = readdirSync(join(ROOT, 'src/core'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    assert.deepEqual(folders, [...CORE_FLOORS].sort());
  });

  for (const [i, folder] of CORE_FLOORS.entries()) {
    it(`src/core/${folder} may import ${i ? CORE_FLOORS.slice(0, i).join(', ') : 'no other core folder'}, and nothing above`, () => {
      // One probe (and one in a subfolder) importing every other floor in each form an import can take.
      const others = CORE_FLOORS.filter((f) => f !== folder);
      const forms = (f: string, n: number, up: string) =>
        n % 3 === 0
          ? `import { a${n} } from '${up}${f}/x';`
          : n % 3 === 1
            ? `import type { T${n} } from '${up}${f}/y';`
            : `export { e${n} } from '${up}${f}/z';`;
      const source = (up: string) => `${others.map((f, n) => forms(f, n, up)).join('\n')}\n`;
      for (const [where, up] of [
        [`src/core/${folder}/zz-probe.node.ts`, '../'],
        [`src/core/${folder}/zz-sub/zz-probe.node.ts`, '../../'],
      ]) {
        const r = lintAs(where, source(up));
        const flagged = new Set(
          [...r.output.matchAll(/zz-probe\.node\.ts:(\d+):\d+ plugin/g)].map((m) => others[Number(m[1]) - 1]),
        );
        const above = CORE_FLOORS.slice(i + 1);
        assert.deepEqual([...flagged].sort(), [...above].sort(), `${where}:\n${r.output}`);
        if (above.length) assert.match(r.output, new RegExp(`Core floors: src/core/${folder} is below`));
      }
      rmSync(join(ROOT, `src/core/${folder}/zz-sub`), { recursive: true, force: true });
    });
  }
});

/** The renderer's folders, bottom first (docs/ARCHITECTURE.md: floors inside the renderer); `.` is the entry points. */
const RENDERER_FLOORS = ['model', 'dom', 'views', 'widget'];

describe('architecture: the lint keeps the floors inside the renderer (imports point down only)', function () {
  this.timeout(120_000);

  it('every renderer folder is on a floor', () => {
    const folders = readdirSync(join(ROOT, 'src/renderer'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    assert.deepEqual(folders, [...RENDERER_FLOORS].sort());
  });

  // The top floor (widget) may import every other one; the entry points (index.ts, panel.ts) are above it.
  for (const [i, folder] of RENDERER_FLOORS.slice(0, -1).entries()) {
    it(`src/renderer/${folder} may import ${i ? RENDERER_FLOORS.slice(0, i).join(', ') : 'no other renderer folder'}, and nothing above`, () => {
      const targets = [...RENDERER_FLOORS.filter((f) => f !== folder).map((f) => `${f}/x`), 'index', 'panel'];
      const source = (up: string) => `${targets.map((t, n) => `import { a${n} } from '${up}${t}';`).join('\n')}\n`;
      for (const [where, up] of [
        [`src/renderer/${folder}/zz-probe.ts`, '../'],
        [`src/renderer/${folder}/zz-sub/zz-probe.ts`, '../../'],
      ]) {
        const r = lintAs(where, source(up));
        const flagged = new Set(
          [...r.output.matchAll(/zz-probe\.ts:(\d+):\d+ plugin/g)].map((m) => targets[Number(m[1]) - 1]),
        );
        const above = [...RENDERER_FLOORS.slice(i + 1).map((f) => `${f}/x`), 'index', 'panel'];
        assert.deepEqual([...flagged].sort(), above.sort(), `${where}:\n${r.output}`);
        assert.match(r.output, new RegExp(`Renderer floors: src/renderer/${folder} is below`));
      }
      rmSync(join(ROOT, `src/renderer/${folder}/zz-sub`), { recursive: true, force: true });
    });
  }
});
