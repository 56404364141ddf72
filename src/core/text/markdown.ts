// Text from the service or a notebook shown inside Markdown (hovers, completion documentation): every
// value is data, never markup. Control characters and line breaks become spaces, the length is bounded,
// and every ASCII punctuation character is backslash-escaped (CommonMark allows escaping any of them), so
// no emphasis, link, image, HTML tag, entity, code span or bare URL autolink can form from the value.

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** Controls, line breaks and bidi marks, overrides and isolates: each becomes a space in one-line text. */
const NOT_ON_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** text on one line, at most `max` characters (an ellipsis marks a cut); controls and breaks as spaces. */
export function boundedLine(text: string, max: number): string {
  const flat = text.replace(NOT_ON_ONE_LINE, ' ');
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** A value as literal Markdown text: bounded to one line of at most `max` characters, then escaped. */
export function markdownText(text: string, max = 200): string {
  return boundedLine(text, max).replace(PUNCTUATION, '\\$&');
}

/**
 * Every character that can start markup inline in CommonMark/GFM: escape, code span, emphasis, strikethrough,
 * link and image brackets (and the `!` of an image), HTML and autolink `<`, `>`, entities, table pipes, math.
 * An underscore inside a word (pm2_5ConcMass) cannot open or close emphasis: it stays as it is.
 */
const INLINE_MARKUP = /[\\`*~[\]!<>&|$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/**
 * A data value as literal text inside one Markdown line (a table cell, a title, a note): the one escape of
 * the Markdown table writers (core/table/markdown, the notebook's Markdown export). Not bounded; one line
 * (controls, breaks and bidi controls as spaces); inline markup characters backslash-escaped and a leading
 * `#` too, so no link, image, HTML, code, emphasis or table cell can form from the value. Readable as plain
 * text otherwise (times and numbers keep their `-`, `:` and `.`); a bare URL may still be autolinked by GFM,
 * shown as itself.
 */
export function markdownInline(text: string): string {
  return text
    .replace(NOT_ON_ONE_LINE, ' ')
    .replace(INLINE_MARKUP, '\\$&')
    .replace(/^(\s*)#/, '$1\\#');
}

/**
 * A data value as the literal text of a paragraph of its own (a note, a title, a caption, also inside `> `,
 * `_…_` or `**…**`): markdownInline, trimmed (leading spaces would make code, spaces inside the delimiters
 * would leave them as text), and a leading list marker or setext line escaped (`- x`, `+ x`, `1. x`, `---`,
 * `===`), so the value can start no block either.
 */
export function markdownLine(text: string): string {
  return markdownInline(text)
    .trim()
    .replace(/^[-+=]/, '\\$&')
    .replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

/**
 * The one GitHub-flavoured Markdown table writer: a header and rows of plain text, every cell escaped by
 * markdownInline, columns marked in `right` right-aligned (numbers).
 * Lines joined by `\n`, no newline at the end.
 */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right?: readonly boolean[],
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const lines = [line(header.map(markdownInline)), line(header.map((_, i) => (right?.[i] ? '---:' : '---')))];
  for (const r of rows) lines.push(line(r.map(markdownInline)));
  return lines.join('\n');
}
