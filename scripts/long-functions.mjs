// Lists the functions of src longer than a limit (default 60 lines), longest first, from the TypeScript
// AST: declarations, methods, accessors, arrow functions and function expressions. A nested function's
// lines count for it and for the function holding it.
// Usage: node scripts/long-functions.mjs [--max 60] [--check] [folder…]  (--check: exit 1 when any is found)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const max = Number(args.includes('--max') ? args[args.indexOf('--max') + 1] : 60);
const check = args.includes('--check');
const roots = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--max');

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield p;
  }
}

function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))
    return p.name.getText(sf);
  if (ts.isCallExpression(p)) return `(callback of ${p.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

const found = [];
for (const root of roots.length ? roots : ['src']) {
  for (const file of files(root)) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > max) found.push({ lines, where: `${relative('.', file)}:${start + 1}`, name: nameOf(node, sf) });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
}
found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.where}  ${f.name}`);
if (check && found.length) process.exitCode = 1;
