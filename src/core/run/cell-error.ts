// A cell that cannot run: its diagnostics, and one line that names the first problem and where it is.
import type { Diagnostic } from '../query/diagnostics';

export class CellError extends Error {
  readonly code = 'invalid-cell';
  constructor(readonly diagnostics: Diagnostic[]) {
    super(describeDiagnostics(diagnostics));
    this.name = 'CellError';
  }
}

/** "line 3, column 18: 'hourly' is not a valid outputFrequency ... (+1 more)" */
export function describeDiagnostics(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0] ?? diagnostics[0];
  if (!first) return 'The cell is not valid';
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : '';
  return `line ${first.range.start.line + 1}, column ${first.range.start.column + 1}: ${first.message}${more}`;
}
