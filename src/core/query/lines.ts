// Line scanning shared by the parser and completion: comments, the verb line and `key: value` lines.

export interface SourceLine {
  line: number;
  /** The text before any comment, with its original columns. */
  code: string;
  /** Column where a `#` comment starts, if any. */
  commentStart?: number;
}

/** `#` starts a comment at the start of a line or after whitespace (so values like a#b stay intact). */
function commentStart(text: string): number | undefined {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) return i;
  }
  return undefined;
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export function scanLines(text: string): SourceLine[] {
  return splitLines(text).map((raw, line) => {
    const c = commentStart(raw);
    return { line, code: c === undefined ? raw : raw.slice(0, c), commentStart: c };
  });
}

/** A cell with nothing but whitespace and comments (a new cell): nothing to check while editing. */
export function isBlankCell(text: string): boolean {
  return scanLines(text).every((l) => l.code.trim() === '');
}

interface KeyValueLine {
  key: string;
  keyStart: number;
  keyEnd: number;
  /** Trimmed value text and its columns. */
  value: string;
  valueStart: number;
  valueEnd: number;
  colon: number;
}

const KEY_VALUE = /^(\s*)([^\s:]+)(\s*):/;

export function matchKeyValue(code: string): KeyValueLine | undefined {
  const m = KEY_VALUE.exec(code);
  if (!m) return undefined;
  const keyStart = m[1].length;
  const keyEnd = keyStart + m[2].length;
  const colon = keyEnd + m[3].length;
  const rest = code.slice(colon + 1);
  const lead = rest.length - rest.trimStart().length;
  const value = rest.trim();
  const valueStart = colon + 1 + lead;
  return { key: m[2], keyStart, keyEnd, value, valueStart, valueEnd: valueStart + value.length, colon };
}

/** Whitespace-separated words of a line with their columns. */
export function words(code: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  const re = /\S+/g;
  for (let m = re.exec(code); m; m = re.exec(code))
    out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}
