import assert from 'node:assert/strict';
import { boundedLine, markdownText } from '../../../../src/core/text/markdown';

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
});
