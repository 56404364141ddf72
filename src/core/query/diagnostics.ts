// Positions, ranges and diagnostics of the query language. Lines and columns are 0-based
// (as in VS Code); `end` is exclusive.

export interface Position {
  line: number;
  column: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  severity: Severity;
  message: string;
  range: Range;
  /** A stable code for quick fixes and tests, e.g. 'unknown-key', 'bad-value'. */
  code: DiagnosticCode;
  /** For enums: every allowed value. */
  allowedValues?: string[];
  /** A likely intended spelling (did-you-mean), ready for a quick fix. */
  suggestion?: string;
}

export type DiagnosticCode =
  | 'missing-verb'
  | 'unknown-verb'
  | 'bad-verb-argument'
  | 'unknown-key'
  | 'key-not-for-verb'
  | 'duplicate-key'
  | 'syntax'
  | 'bad-value'
  | 'missing-field'
  | 'bad-combination'
  | 'unknown-metric'
  | 'unknown-id'
  | 'bad-result-name'
  | 'duplicate-result-name'
  | 'unknown-result-name'
  | 'missing-sql'
  | 'sql-error'
  | 'unknown-parameter'
  | 'bad-parameter'
  | 'duplicate-params';

export function range(line: number, startColumn: number, endColumn: number): Range {
  return { start: { line, column: startColumn }, end: { line, column: endColumn } };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** A diagnostic's text: its message, then the allowed values unless the message already lists them. */
export function diagnosticText(d: Diagnostic): string {
  const values = d.allowedValues;
  if (!values?.length || /\ballowed\b/i.test(d.message) || values.every((v) => d.message.includes(v))) return d.message;
  return `${d.message} (allowed: ${values.join(', ')})`;
}

/**
 * One diagnostic as one line: compiler style `where:line:column: severity: text` when it has a place (a file,
 * `-e`), else `line N, column M: text` (a cell's output, which is beside the cell).
 */
export function diagnosticLine(d: Diagnostic, where?: string): string {
  const { line, column } = d.range.start;
  return where !== undefined
    ? `${where}:${line + 1}:${column + 1}: ${d.severity}: ${diagnosticText(d)}`
    : `line ${line + 1}, column ${column + 1}: ${diagnosticText(d)}`;
}

export function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.column === b.start.column &&
    a.end.line === b.end.line &&
    a.end.column === b.end.column
  );
}
