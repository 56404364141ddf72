// DuckDB's errors (with `errors_as_json`) -> one line with the position mapped to the cell's line and column.
import type { EngineError } from '../api/errors';
import type { Diagnostic } from '../query/diagnostics';
import { VALUE_NAME_RULE, valueAliases } from './value-names';

/** Reads an engine error message: `Parser Error: {json}`, `{json}`, or plain text. Never throws. */
export function readEngineError(raw: string): EngineError {
  const brace = raw.indexOf('{');
  if (brace >= 0) {
    try {
      const j = JSON.parse(raw.slice(brace)) as Record<string, unknown>;
      const type = typeof j.exception_type === 'string' ? j.exception_type : undefined;
      const text = typeof j.exception_message === 'string' ? j.exception_message : raw;
      const offset = typeof j.position === 'string' && /^\d+$/.test(j.position) ? Number(j.position) : undefined;
      const label = type ? `${type.charAt(0).toUpperCase()}${type.slice(1).toLowerCase()} Error: ` : '';
      return { message: oneLine(`${label}${text}`), offset, type };
    } catch {
      // not JSON: fall through
    }
  }
  return { message: oneLine(raw) };
}

function oneLine(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}

/** Line and column (0-based) of a character offset in text that starts at `firstLine` of the cell. */
function offsetToPosition(text: string, offset: number, firstLine: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split(/\r\n|\r|\n/);
  return { line: firstLine + lines.length - 1, column: lines[lines.length - 1].length };
}

/** The engine error as a diagnostic on the cell (at its position, else on the first SQL line). */
export function engineErrorDiagnostic(err: EngineError, sql: { text: string; line: number }): Diagnostic {
  const at =
    err.offset !== undefined ? offsetToPosition(sql.text, err.offset, sql.line) : { line: sql.line, column: 0 };
  const lineText = sql.text.split(/\r\n|\r|\n/)[at.line - sql.line] ?? '';
  const word = /^[\w."]+/.exec(lineText.slice(at.column))?.[0].length ?? 1;
  const missing = /Referenced column "([^"]+)" not found/.exec(err.message)?.[1];
  const hint = missing && valueAliases([missing.replace(/\.value$/, '')]).length ? ` (${VALUE_NAME_RULE})` : '';
  return {
    severity: 'error',
    code: 'sql-error',
    message: `${err.message}${hint}`,
    range: { start: at, end: { line: at.line, column: at.column + word } },
  };
}
