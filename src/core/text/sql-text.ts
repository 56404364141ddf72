// SQL text from values: identifiers and string literals quoted, comment text kept on its line. Neutral: the
// engine (core/sql) and the SQL a cell is written with (core/aq corrections and statistics) share it.

/** A SQL identifier, quoted (quoting keeps any text inert: a hostile column name stays a name). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A SQL string literal. */
export function quoteString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The most characters of one value in a `--` comment line. */
const MAX_COMMENT_VALUE = 200;

/**
 * Text for a `--` comment line: control characters (a newline would end the comment and start SQL) shown as
 * spaces, bounded.
 */
export function commentText(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return flat.length > MAX_COMMENT_VALUE ? `${flat.slice(0, MAX_COMMENT_VALUE - 1)}…` : flat;
}

/** A finite number as a SQL literal (negatives in parentheses); refuses NaN and infinities. */
export function numberLiteral(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`${x} is not a finite number`);
  const text = String(x);
  return x < 0 || Object.is(x, -0) ? `(${text})` : text;
}
