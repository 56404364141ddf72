import assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import {
  boundedLine,
  markdownInline,
  markdownLine,
  markdownTable,
  markdownText,
} from '../../../../src/core/text/markdown';

/** CommonMark + GFM tables, raw HTML allowed and URLs linkified: the most a viewer could make of it. */
const viewer = new MarkdownIt({ html: true, linkify: true });
const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' };
/** A cell's text; a URL autolinked (shown as itself, nothing loaded) counts as its text. */
const textOf = (html: string) =>
  html
    .replace(/<a href="([^"]*)">([^<]*)<\/a>/g, (_, href, text) => (href === text ? text : '<LINK>'))
    .replace(/&(lt|gt|amp|quot);/g, (e) => ENTITIES[e]);

describe('markdown text: service values shown as data', () => {
  it('escapes every character that could form markup: links, images, HTML, code, emphasis, autolinks', () => {
    const hostile =
      '[click](command:workbench.action.terminal.new) ![x](http://e.vil/a.png) <img src=x onerror=alert(1)> `code` **b** _i_ &amp; https://e.vil www.e.vil';
    const out = markdownText(hostile, 1000);
    // Every ASCII punctuation character is preceded by a backslash; nothing else changed.
    assert.equal(out.replace(/\\([!-/:-@[-`{-~])/g, '$1'), hostile);
    assert.doesNotMatch(out, /(^|[^\\])[[\]()<>`*_&:]/);
  });

  it('keeps one line: breaks, tabs, controls and bidi overrides become spaces', () => {
    assert.equal(boundedLine('a\nb\r\nc\td\u0007e\u202ef\u2028g', 100), 'a b  c d e f g');
    assert.equal(markdownText('# heading\n- item'), '\\# heading \\- item');
  });

  it('bounds the length by characters, marking the cut', () => {
    assert.equal(boundedLine('abcdef', 4), 'abc…');
    assert.equal(boundedLine('abcd', 4), 'abcd');
    assert.equal(boundedLine('😀😀😀😀😀', 3), '😀😀…', 'never splits a surrogate pair');
    assert.equal(markdownText('x'.repeat(500)).length, 200);
  });

  it('markdownInline: a value in a table cell stays one cell of text (no image, link, HTML, code, emphasis)', () => {
    // A bare URL may be autolinked (GFM): as itself, never under other text and never as an image.
    const hostile = '![p](http://host/x.png) [l](command:x) <img src=x onerror=y> `c` *e* _u_ ~~s~~ &amp; a|b \\| $x$';
    const html = viewer.render(`| a | b |\n| --- | --- |\n| x | ${markdownInline(hostile)} |\n`);
    assert.doesNotMatch(html, /<(img|code|em|strong|s|del)\b|onerror=y>/);
    const cells = [...html.matchAll(/<td>(.*?)<\/td>/g)].map((m) => textOf(m[1]));
    assert.deepEqual(cells, ['x', hostile], 'the value reads as it was, in one cell');
    assert.equal(
      markdownInline('pm2_5ConcMass.value 2026-11-01T10:00:00.000Z'),
      'pm2_5ConcMass.value 2026-11-01T10:00:00.000Z',
    );
    assert.equal(markdownInline('# not a heading\nline'), '\\# not a heading line');
  });

  it('markdownInline: any text of markup characters renders as itself in a table cell (property)', () => {
    const chars = fc.constantFrom(...'\\`*_~[]()!<>&|$#:/.- aZ9'.split(''), '\u202e', '\n');
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 40 }).map((a) => a.join('')),
        (value) => {
          const html = viewer.render(`| a |\n| --- |\n| ${markdownInline(value)} |\n`);
          const cells = [...html.matchAll(/<td>(.*?)<\/td>/gs)].map((m) => textOf(m[1]));
          assert.deepEqual(cells, [value.replace(/[\n\u202e]/g, ' ').trim()], html);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('markdownLine: a value as a paragraph of its own, alone, quoted, in italics or bold, renders as itself (property)', () => {
    // The blocks a value could start: lists (- + * 1. 1)), thematic breaks and setext lines (--- ===), headings,
    // quotes, fences, indented code (leading spaces), HTML blocks; and emphasis around it that spaces would break.
    assert.equal(markdownLine('  - item'), '\\- item');
    assert.equal(markdownLine('12) twelve'), '12\\) twelve');
    assert.equal(markdownLine(' pm2_5 '), 'pm2_5');
    const chars = fc.constantFrom(...'\\`*_~[]()!<>&|$#:/.-+=)1 aZ9'.split(''), '\t', '\n');
    const frames: [string, string, RegExp][] = [
      ['', '', /^<p>(.*)<\/p>\n$/s],
      ['> ', '', /^<blockquote>\n<p>(.*)<\/p>\n<\/blockquote>\n$/s],
      ['_', '_', /^<p><em>(.*)<\/em><\/p>\n$/s],
      ['**', '**', /^<p><strong>(.*)<\/strong><\/p>\n$/s],
    ];
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 30 }).map((a) => a.join('')),
        (value) => {
          const text = value.replace(/[\t\n]/g, ' ').trim();
          fc.pre(text !== '');
          for (const [open, close, shape] of frames) {
            const html = viewer.render(`${open}${markdownLine(value)}${close}\n`);
            assert.equal(textOf(shape.exec(html)?.[1] ?? html), text, `${open}: ${html}`);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('markdownTable: the one table writer; every cell one escaped cell, right-aligned columns marked', () => {
    const md = markdownTable(
      ['site', 'pm2_5'],
      [
        ['a|b <x>', '12.5'],
        ['', '-3'],
      ],
      [false, true],
    );
    assert.equal(md, '| site | pm2_5 |\n| --- | ---: |\n| a\\|b \\<x\\> | 12.5 |\n|  | -3 |');
    const html = viewer.render(md);
    assert.equal((html.match(/<td/g) ?? []).length, 4, 'two rows of two cells: the pipe in a value splits nothing');
    assert.match(html, /<th style="text-align:right">pm2_5<\/th>/);
  });
});
