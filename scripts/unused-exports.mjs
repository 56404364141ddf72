// Lists the exports of src that no other module imports (from the TypeScript AST of src and test, by
// name, syntactically: fast, no type checker): `own file` ones are used only where they are declared (drop
// the `export` keyword), `unused` ones nowhere (delete them). A module imported whole (`import * as`,
// `export * from`, `import()`) counts as importing every export; the bundles' entry points are left out.
// Usage: node scripts/unused-exports.mjs [--check] [--root DIR]  (--check: exit 1 when any is found)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const check = args.includes('--check');
const root = resolve(args.includes('--root') ? args[args.indexOf('--root') + 1] : '.');
/** The bundles' entry points (esbuild.mjs): what they export is the bundle's interface. */
const ENTRIES = ['src/extension/extension.ts', 'src/cli/main.ts', 'src/emulator/index.ts', 'src/renderer/index.ts'];

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) yield p;
  }
}

/** The file a relative specifier names, or undefined (a package, a missing file). */
function resolveSpec(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.mts`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

const declared = new Map(); // file -> [{ name, line }]
const imported = new Map(); // file -> Set of names ('*' for all)
const use = (file, name) => {
  if (!file) return;
  if (!imported.has(file)) imported.set(file, new Set());
  imported.get(file).add(name);
};
const sources = new Map();

function isExported(node) {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function collect(file) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  sources.set(file, sf);
  const mine = [];
  const line = (n) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const target = resolveSpec(file, st.moduleSpecifier.text);
      const c = st.importClause;
      if (!c) continue;
      if (c.name) use(target, 'default');
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) use(target, '*');
      if (c.namedBindings && ts.isNamedImports(c.namedBindings))
        for (const e of c.namedBindings.elements) use(target, (e.propertyName ?? e.name).text);
    } else if (ts.isExportDeclaration(st)) {
      const target =
        st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)
          ? resolveSpec(file, st.moduleSpecifier.text)
          : undefined;
      if (!st.exportClause) use(target, '*');
      else if (ts.isNamedExports(st.exportClause))
        for (const e of st.exportClause.elements) {
          if (target) use(target, (e.propertyName ?? e.name).text);
          mine.push({ name: e.name.text, line: line(e), local: !target });
        }
    } else if (isExported(st)) {
      const names = ts.isVariableStatement(st)
        ? st.declarationList.declarations.map((d) => d.name.getText(sf))
        : [st.name?.getText(sf) ?? 'default'];
      for (const name of names) mine.push({ name, line: line(st), local: true });
    }
  }
  const visit = (n) => {
    if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      ts.isStringLiteral(n.arguments[0])
    )
      use(resolveSpec(file, n.arguments[0].text), '*');
    ts.forEachChild(n, visit);
  };
  visit(sf);
  declared.set(file, mine);
}

/** Whether `name` is used in its own file beyond its declaration (an identifier of that name elsewhere). */
function usedInOwnFile(sf, name) {
  let count = 0;
  const visit = (n) => {
    if (ts.isIdentifier(n) && n.text === name) count++;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return count > 1;
}

for (const dir of ['src', 'test', 'scripts', 'bench']) for (const f of files(join(root, dir))) collect(f);

const entries = new Set(ENTRIES.map((e) => join(root, e)));
const found = [];
for (const [file, exports] of declared) {
  if (!file.startsWith(join(root, 'src')) || entries.has(file)) continue;
  const names = imported.get(file) ?? new Set();
  if (names.has('*')) continue;
  for (const e of exports) {
    if (names.has(e.name) || !e.local) continue;
    const own = usedInOwnFile(sources.get(file), e.name);
    found.push(`${relative(root, file)}:${e.line} ${e.name} (${own ? 'own file' : 'unused'})`);
  }
}
found.sort();
for (const f of found) console.log(f);
console.error(`${found.length} export(s) no other module imports`);
if (check && found.length) process.exit(1);
