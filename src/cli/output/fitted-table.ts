// A table fitted to the terminal: columns as wide as their content (capped), as many as fit the width,
// the first rows, and always the row count and what was left out (never a silent truncation).
import { type Column, cellText, isNumeric, type Table } from '../../core/table/table';
import { safeForTerminalLine } from '../../core/text/terminal';

interface FitOptions {
  /** Terminal width in characters. */
  width: number;
  /** Rows shown before "… N more rows" (default 40). */
  maxRows?: number;
  /** Widest a column may be (default 32). */
  maxColumnWidth?: number;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** What a cell shows: one line, control characters escaped (values and names come from the service). */
function shownText(col: Column, row: number): string {
  return safeForTerminalLine(cellText(col, row));
}

export function renderFittedTable(table: Table, options: FitOptions): string {
  const maxRows = options.maxRows ?? 40;
  const maxCol = options.maxColumnWidth ?? 32;
  const shownRows = Math.min(table.rowCount, maxRows);
  const widths: number[] = [];
  const shown: number[] = [];
  let used = 0;
  for (let c = 0; c < table.columns.length; c++) {
    const col = table.columns[c];
    let w = safeForTerminalLine(col.name).length;
    for (let r = 0; r < shownRows; r++) w = Math.max(w, shownText(col, r).length);
    w = Math.min(Math.max(w, 1), maxCol);
    const need = (shown.length ? 2 : 0) + w;
    if (used + need > options.width && shown.length > 0) break;
    shown.push(c);
    widths.push(Math.min(w, options.width));
    used += need;
  }
  const lines: string[] = [];
  const row = (cells: string[], right: boolean[]) =>
    cells
      .map((t, i) => {
        const text = clip(t, widths[i]);
        return right[i] ? text.padStart(widths[i]) : text.padEnd(widths[i]);
      })
      .join('  ')
      .trimEnd();
  const cols = shown.map((c) => table.columns[c]);
  const right = cols.map((c) => isNumeric(c) && c.kind === 'number');
  lines.push(
    row(
      cols.map((c) => safeForTerminalLine(c.name)),
      right,
    ),
  );
  lines.push(widths.map((w) => '─'.repeat(w)).join('  '));
  for (let r = 0; r < shownRows; r++) {
    lines.push(
      row(
        cols.map((c) => shownText(c, r)),
        right,
      ),
    );
  }
  const notes: string[] = [];
  const n = table.rowCount;
  notes.push(`${n} row${n === 1 ? '' : 's'}`);
  if (n > shownRows) notes.push(`first ${shownRows} shown`);
  const hidden = table.columns.length - shown.length;
  if (hidden > 0) notes.push(`${hidden} more column${hidden === 1 ? '' : 's'} not shown`);
  if (n > shownRows || hidden > 0) notes.push('use --csv or --out for everything');
  lines.push(`(${notes.join('; ')})`);
  return `${lines.join('\n')}\n`;
}
