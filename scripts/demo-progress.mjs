// The progress lines of `npm run demo` (pure: text only). On a terminal a stage has one live line,
// rewritten in place; elsewhere (CI, a log, a pipe) a line when a stage starts, a line per step the stage
// names ("[toolchain] npm install code-server…"), a short heartbeat every 30 s, and a line when it ends.

/** "45s", "3m05s". */
export function elapsed(ms) {
  const s = Math.round(Math.max(0, ms) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** `text` in at most `width` characters, cut at a word boundary with an ellipsis (never mid-word). */
export function fitWords(text, width) {
  if (text.length <= width) return text;
  const room = text.slice(0, Math.max(0, width - 1));
  const space = room.lastIndexOf(' ');
  return `${(space > width / 2 ? room.slice(0, space) : room).trimEnd()}…`;
}

/** The live line of a running stage on a terminal `columns` wide. */
export function liveLine(title, ms, detail, columns) {
  return fitWords(`  … ${title}  ${elapsed(ms)}${detail ? `  ${detail}` : ''}`, Math.max(20, columns - 1));
}

/** The first line of a stage off a terminal: its title and, once, what to expect. */
export function startLine(title, note) {
  return `  … ${title}${note ? ` (${note})` : ''}`;
}

/** The heartbeat off a terminal: short, the title once more so that interleaved logs stay readable. */
export function heartbeatLine(title, ms) {
  return `    ${title}: still working, ${elapsed(ms)}`;
}

/** A step a stage names in its output ("[toolchain] apt-get will install …"), shown as it happens. */
export function stepOf(line) {
  const m = /^\[(toolchain)\] (.+)$/.exec(line.trim());
  // "ready in 0.0s" is what the stage's own end line says.
  return m && !/^ready in /.test(m[2]) ? m[2] : undefined;
}

/** How a step is shown (on a terminal above the live line, elsewhere as a line of its own). */
export function stepLine(step, columns = 160) {
  return fitWords(`    · ${step}`, Math.max(20, columns - 1));
}
