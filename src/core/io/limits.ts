// The readers' bounds (docs/SECURITY.md): what a line, a header and the rows kept from a file may hold at
// most. Past one, an InputLimitError (code INPUT_LIMIT) names the limit. One home, below the readers (table)
// and the byte streams (io) that check them.
import { InputLimitError } from '../api/errors';

/**
 * The longest line a reader takes (bytes, line end excluded): a longer one is refused (InputLimitError
 * 'line-bytes'), so a file without line ends (a link to /dev/zero, a gzip of zeros) cannot grow the line
 * held. The service's lines are ~170 bytes; a report of a thousand columns ~20 KB.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The most columns a header may have (InputLimitError 'columns'): each column's builder starts with
 * ~10-24 KB of arrays, so a header of millions of empty names would take gigabytes before any row. Reports
 * have tens to hundreds of columns.
 */
export const MAX_COLUMNS = 10_000;

/**
 * What a reader with a row limit (a file opened as a table) keeps at most, beside its maxRows: cells
 * (rows × columns; each 2-8 bytes in a column) and bytes of text read into the rows kept. Past either, the
 * rest is counted as past maxRows is (sizeLimited says so). 250,000 rows of 200 columns fit both.
 */
export const MAX_KEPT_CELLS = 50_000_000;
export const MAX_KEPT_BYTES = 256 * 1024 * 1024;

export function lineTooLong(): InputLimitError {
  return new InputLimitError(
    'line-bytes',
    `a line is longer than ${MAX_LINE_BYTES / 1048576} MiB, the most a line may have (is this a CSV file?)`,
  );
}

export function tooManyColumns(count: number): InputLimitError {
  return new InputLimitError(
    'columns',
    `the header has ${count.toLocaleString('en-US')} columns, more than the ${MAX_COLUMNS.toLocaleString('en-US')} a table may have`,
  );
}
