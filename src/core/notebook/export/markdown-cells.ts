// What a notebook's markdown cells may carry into an export: Markdown (headings, emphasis, lists, links,
// images, code, tables), never raw HTML. The HTML export renders them with raw HTML off; the .md and .ipynb
// exports write their source with every HTML tag, comment or declaration escaped (`\<`), so a viewer shows
// it as text: a cloned notebook's `<img src=… onerror=…>` or `<iframe>` is inert wherever the export goes.
import MarkdownIt from 'markdown-it';

/** A parser that sees raw HTML (to find it; nothing is rendered with it). */
const finder = new MarkdownIt({ html: true, linkify: false });

type Tokens = ReturnType<MarkdownIt['parse']>;

/** Escapes each `<` on lines [from, to). */
function escapeLines(lines: string[], from: number, to: number): void {
  for (let i = from; i < Math.min(to, lines.length); i++) lines[i] = lines[i].replace(/(?<!\\)</g, '\\<');
}

/** Escapes the inline HTML tags of one block (their text, found in order in the block's lines). */
function escapeInline(lines: string[], from: number, to: number, tags: string[]): void {
  let text = lines.slice(from, to).join('\n');
  let at = 0;
  for (const tag of tags) {
    const i = text.indexOf(tag, at);
    if (i < 0) continue;
    text = `${text.slice(0, i)}\\${text.slice(i)}`;
    at = i + tag.length + 1;
  }
  lines.splice(from, to - from, ...text.split('\n'));
}

function escapeOnce(source: string, tokens: Tokens): string {
  const lines = source.split('\n');
  for (const t of tokens) {
    if (!t.map) continue;
    if (t.type === 'html_block') escapeLines(lines, t.map[0], t.map[1]);
    const tags = t.type === 'inline' ? (t.children ?? []).filter((c) => c.type === 'html_inline') : [];
    if (tags.length)
      escapeInline(
        lines,
        t.map[0],
        t.map[1],
        tags.map((c) => c.content),
      );
  }
  return lines.join('\n');
}

const hasHtml = (tokens: Tokens) =>
  tokens.some((t) => t.type === 'html_block' || t.children?.some((c) => c.type === 'html_inline'));

/**
 * A markdown cell's source for a .md or .ipynb export: the same Markdown, its raw HTML escaped as text.
 * Code spans and fenced code stay as written. Checked by parsing again; if HTML were still found, every
 * `<` is escaped.
 */
export function markdownWithoutHtml(source: string): string {
  let out = source;
  for (let pass = 0; pass < 3; pass++) {
    const tokens = finder.parse(out, {});
    if (!hasHtml(tokens)) return out;
    out = escapeOnce(out, tokens);
  }
  return hasHtml(finder.parse(out, {})) ? out.replace(/</g, '\\<') : out;
}
