import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');
const md = new MarkdownIt();
/** Blocks that CommonMark lets start on the line right after a paragraph line, ending the paragraph. */
const INTERRUPTING = new Set(['bullet_list_open', 'ordered_list_open', 'heading_open', 'blockquote_open', 'hr']);

interface Cell {
  kind: string;
  language?: string;
  source: string[] | string;
}

/**
 * The blocks of one markdown text that begin right after a line of running text (no blank line
 * between): a wrapped line that starts with `+ `, `- `, `1. `, `# ` or `> ` silently becomes a list,
 * heading or quote. A block nested in a list item (its own indentation) is not a paragraph break.
 */
function accidentalBlocks(text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  const tokens = md.parse(text, {});
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!INTERRUPTING.has(token.type) || token.map === null || token.level !== 0) continue;
    const start = token.map[0];
    const previous = tokens[i - 1];
    // A top-level block right after a paragraph that ended on the line before: the paragraph was cut.
    if (start > 0 && lines[start - 1].trim() !== '' && previous?.type === 'paragraph_close') {
      found.push(`line ${start + 1}: ${lines[start]}`);
    }
  }
  return found;
}

describe('examples: every markdown cell renders as written', () => {
  it('finds a wrapped line that turns into a list item, heading or quote', () => {
    assert.deepEqual(accidentalBlocks('reads 1.3 × the reference\n+ 2 µg/m³.'), ['line 2: + 2 µg/m³.']);
    assert.deepEqual(accidentalBlocks('one\n# two'), ['line 2: # two']);
    assert.deepEqual(accidentalBlocks('one\n> two'), ['line 2: > two']);
    assert.deepEqual(accidentalBlocks('one\n1. two'), ['line 2: 1. two']);
    assert.deepEqual(accidentalBlocks('one\n\n- a\n- b\n  + 2 nested'), []);
    assert.deepEqual(accidentalBlocks('# Title\n\ntext\n\n- item\n  wrapped + 2'), []);
  });

  const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.measnb'));
  it('has examples to check', () => assert.ok(files.length >= 5, files.join(', ')));
  for (const name of files) {
    it(name, () => {
      const cells = (JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8')) as { cells: Cell[] }).cells;
      const problems = cells
        .filter((cell) => cell.kind === 'markup')
        .flatMap((cell, index) => {
          const text = Array.isArray(cell.source) ? cell.source.join('\n') : cell.source;
          return accidentalBlocks(text).map((problem) => `markdown cell ${index + 1}, ${problem}`);
        });
      assert.deepEqual(problems, []);
    });
    it(`${name}: its relative links name an example beside it (command: links do not run from notebook markdown)`, () => {
      const cells = (JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8')) as { cells: Cell[] }).cells;
      for (const cell of cells.filter((c) => c.kind === 'markup')) {
        const text = Array.isArray(cell.source) ? cell.source.join('\n') : cell.source;
        const hrefs = md
          .parseInline(text, {})
          .flatMap((t) => t.children ?? [])
          .filter((t) => t.type === 'link_open')
          .map((t) => t.attrGet('href') ?? '');
        for (const href of hrefs) {
          assert.doesNotMatch(href, /^command:/, href);
          if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) assert.ok(files.includes(href), `${href} is not an example`);
        }
      }
    });
  }
});
