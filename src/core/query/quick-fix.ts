// Quick fixes of a cell: a diagnostic's did-you-mean (a verb, key, value, report kind, metric label or
// category) replaces the word its range covers. The diagnostics are the cell checker's own, so the editor,
// Create Report and measnb suggest the same spelling.
import { type Diagnostic, type Range, sameRange } from './diagnostics';
import { splitLines } from './lines';

export interface QuickFix {
  title: string;
  range: Range;
  newText: string;
  /** The diagnostic it fixes. */
  diagnostic: Diagnostic;
}

export function quickFixes(text: string, diagnostics: readonly Diagnostic[]): QuickFix[] {
  const lines = splitLines(text);
  const fixes: QuickFix[] = [];
  for (const d of diagnostics) {
    const { start, end } = d.range;
    if (!d.suggestion || start.line !== end.line || end.column <= start.column) continue;
    const word = lines[start.line]?.slice(start.column, end.column);
    // Only a word the suggestion replaces (never one already spelt so, never a whole line's range).
    if (!word || word === d.suggestion || /\s/.test(word)) continue;
    if (fixes.some((f) => sameRange(f.range, d.range))) continue;
    fixes.push({
      title: `Change '${word}' to '${d.suggestion}'`,
      range: d.range,
      newText: d.suggestion,
      diagnostic: d,
    });
  }
  return fixes;
}
