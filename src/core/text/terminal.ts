// Text from the service, a notebook or the network made safe to print on a terminal: control characters
// (C0 but tab and line feed, DEL, C1, and the bidirectional overrides) are shown escaped (`\x1b`,
// `\x9b`, `\u202e`) instead of being sent, so no value, header or message can set the window title
// (OSC 0), write the clipboard (OSC 52), plant a hyperlink (OSC 8), clear the screen or move the cursor
// (CSI), or reorder what is shown. Platform-neutral; CSV and files keep the service's bytes untouched.

function isControl(c: number): boolean {
  return (
    (c < 0x20 && c !== 0x09 && c !== 0x0a) ||
    (c >= 0x7f && c <= 0x9f) ||
    c === 0x061c ||
    c === 0x200e ||
    c === 0x200f ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  );
}

function escaped(c: number): string {
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

/** text with every control character escaped; tabs and line feeds kept (see safeForTerminalLine). */
export function safeForTerminal(text: string): string {
  let out: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isControl(c)) continue;
    out = `${out ?? ''}${text.slice(from, i)}${escaped(c)}`;
    from = i + 1;
  }
  return out === undefined ? text : out + text.slice(from);
}

/** One line of a table or a status: line feeds and tabs become spaces, other controls are escaped. */
export function safeForTerminalLine(text: string): string {
  return safeForTerminal(text.replace(/[\t\n]/g, ' '));
}
