// Completion and hover of parameters: `{{` completes the notebook's parameter names; hovering a `{{name}}`
// (or a name in the params cell) shows its type, default and, for a relative time, what it is now.
import { markdownInline } from '../text/markdown';
import type { Position, Range } from './diagnostics';
import { range } from './diagnostics';
import { type SourceLine, scanLines } from './lines';
import type { ParamDef } from './params';
import { timeToWire } from './time';

/** The name typed so far after an open `{{` before the position, or undefined when there is none. */
export function paramRefAt(text: string, position: Position): string | undefined {
  const line = scanLines(text)[position.line];
  if (!line || (line.commentStart !== undefined && position.column > line.commentStart)) return undefined;
  const m = /\{\{\s*([A-Za-z0-9_]*)$/.exec(line.code.slice(0, position.column));
  return m ? m[1] : undefined;
}

export function paramsCompletions(defs: readonly ParamDef[], typed: string) {
  return defs
    .filter((d) => d.name.startsWith(typed))
    .map((d) => ({
      label: d.name,
      kind: 'parameter' as const,
      insertText: `${d.name}}}`,
      detail: `${d.type} parameter = ${d.default.text}`,
      documentation: `Parameter **${markdownInline(d.name)}** (${d.type}), default ${markdownInline(d.default.text)}`,
    }));
}

/** The parameter name under a column: in a `{{name}}`, or (`declaring`) the name of a params cell line. */
export function paramUnderCursor(
  line: SourceLine,
  col: number,
  declaring: boolean,
): { name: string; range: Range } | undefined {
  const re = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
  for (let m = re.exec(line.code); m; m = re.exec(line.code)) {
    if (col >= m.index && col <= m.index + m[0].length)
      return { name: m[1], range: range(line.line, m.index, m.index + m[0].length) };
  }
  if (!declaring) return undefined;
  const d = /^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(line.code);
  if (!d) return undefined;
  const start = d[1].length;
  const end = start + d[2].length;
  return col >= start && col <= end ? { name: d[2], range: range(line.line, start, end) } : undefined;
}

export function paramHover(
  at: { name: string; range: Range },
  defs: readonly ParamDef[],
  now: Date,
): { contents: string; range: Range } {
  const def = defs.find((d) => d.name === at.name);
  const name = markdownInline(at.name);
  if (!def) return { contents: `**${name}**: not a parameter of this notebook's params cell`, range: at.range };
  const v = def.default;
  const resolved =
    v.type === 'time' && v.value.kind !== 'absolute'
      ? ` (resolved when the run starts; now ${timeToWire(v.value, now)})`
      : '';
  const lines = [
    `**${name}**: ${def.type} parameter${def.explicit ? '' : ' (type from its default)'}`,
    `default: ${markdownInline(v.text)}${resolved}`,
    `Query cells write \`{{${name}}}\`; sql cells \`$${name}\` (a bound value). Run with Parameters… or \`measnb run --param ${name}=…\` give another value.`,
  ];
  return { contents: lines.join('\n\n'), range: at.range };
}
