// The catalogue of errors (modelled on undici's lib/core/errors.js): every error class of measnb, core,
// CLI, extension and renderer, with its one stable `code` spelled UPPER_SNAKE (as Node's `ERR_*` and
// undici's `UND_ERR_*`). Code tests and decides by class or code, never by message. The only error class
// outside is the emulator's `HttpError` (src/emulator/http.ts): it is the remote service's reply, a
// status and a body on the wire, not an error of measnb (test/unit/core/api/errors.test.ts checks both).
// Neutral and at the bottom of core (only time below): any floor, layer or the renderer may throw these.

import type { RetryDecision } from '../time/backoff';
import type { ReportRecord } from './types';
import type { ValidationIssue } from './validate';

/** The codes of a MeasurementsError: the service's replies and the client's own refusals. */
export const MEASUREMENTS_ERROR_CODES = [
  'INVALID_REQUEST',
  'QUOTA_EXCEEDED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'BAD_REQUEST',
  'NOT_FOUND',
  'TOKEN_REJECTED',
  'SERVER_ERROR',
  'NETWORK',
  'TIMEOUT',
  'CANCELLED',
] as const;
export type MeasurementsErrorCode = (typeof MEASUREMENTS_ERROR_CODES)[number];

/** Every code of the catalogue; a code belongs to one class (a subclass may keep its parent's). */
export const ERROR_CODES = [
  ...MEASUREMENTS_ERROR_CODES,
  // replies and files
  'INCOMPLETE_REPLY',
  'MALFORMED_REPLY',
  'INPUT_LIMIT',
  'OUTPUT',
  'ATTEMPT_FAILED',
  'TABLE_FILE',
  'PARQUET_PAGES_TOO_LARGE',
  'UNSAFE_PATH',
  'INVALID_NOTEBOOK',
  // cells, sql, reports
  'INVALID_CELL',
  'NOT_A_REPORT_CELL',
  'SQL_QUERY',
  'SQL_FILE_NAME',
  'REPORT_FAILED',
  // the surfaces: CLI, extension, renderer
  'USAGE',
  'SPOOL_LIMIT',
  'UNTRUSTED_WORKSPACE',
  'MISSING_KEY',
  'ROWS_UNAVAILABLE',
  // air-quality documents and statistics, the archive
  'STATISTICS_INPUT',
  'EVALUATION_INPUT',
  'ARCHIVE_INPUT',
  'ARCHIVE_UNKNOWN_DATASOURCE',
  'ARCHIVE_MANIFEST',
  'ARCHIVE_REPORT_CONTENT',
  'ARCHIVE_QUOTA',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The base of every error in the catalogue: a stable code and the class's own name. */
export abstract class MeasnbError extends Error {
  abstract readonly code: ErrorCode;
}

// ---- the service and the client ---------------------------------------------------------------------

export interface MeasurementsErrorOptions {
  status?: number;
  /** The server's own message (redacted), when it sent one. */
  serverMessage?: string;
  /** HTTP method and path (no query string, no host) of the failed request. */
  method?: string;
  path?: string;
  /** QUOTA_EXCEEDED: when the daily quota resets (next UTC midnight). */
  resetAt?: Date;
  /** The server's Retry-After (any status), in seconds; absent when it sent none (core/time/backoff reads it). */
  retryAfterSeconds?: number;
  /** INVALID_REQUEST: every problem found, each naming its field. */
  issues?: ValidationIssue[];
}

/** A request that failed: the service's reply (core/api/error-reply.ts), the transport, or the client's checks. */
export class MeasurementsError extends MeasnbError {
  override name = 'MeasurementsError';
  readonly code: MeasurementsErrorCode;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly method?: string;
  readonly path?: string;
  readonly resetAt?: Date;
  readonly retryAfterSeconds?: number;
  readonly issues?: ValidationIssue[];

  constructor(code: MeasurementsErrorCode, message: string, options: MeasurementsErrorOptions = {}) {
    super(message);
    this.code = code;
    // Only defined fields, so that inspecting the error shows nothing surprising.
    for (const [k, v] of Object.entries(options)) if (v !== undefined) Object.assign(this, { [k]: v });
  }
}

/** A report poller's own deadline passed: a TIMEOUT, but not a transient one of one call, so not retried. */
export class ReportDeadlineError extends MeasurementsError {
  override name = 'ReportDeadlineError';
  constructor(reportId: string, deadlineMs: number) {
    super(
      'TIMEOUT',
      `Report ${reportId} was not ready within ${Math.round(deadlineMs / 1000)} s; it may still finish: check it again later.`,
    );
  }
}

/** Errors another try may fix (network, timeout, 5xx, 429): polling loops ride them out (core/time/repeat). */
const TRANSIENT_CODES: ReadonlySet<ErrorCode> = new Set(['NETWORK', 'TIMEOUT', 'SERVER_ERROR', 'QUOTA_EXCEEDED']);

export function isTransientError(e: unknown): boolean {
  return e instanceof MeasurementsError && !(e instanceof ReportDeadlineError) && TRANSIENT_CODES.has(e.code);
}

export function isMeasurementsError(e: unknown, code?: MeasurementsErrorCode): e is MeasurementsError {
  return e instanceof MeasurementsError && (code === undefined || e.code === code);
}

/** The next UTC midnight after `now`: when the daily report quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * A reply that ended before it was complete although the connection closed cleanly: a body shorter than
 * its framing, a gzip stream without its trailer, a last line without its line end, a row with the wrong
 * number of fields. A transient failure: reads are retried, and nothing built from the reply is kept.
 */
export class IncompleteReplyError extends MeasnbError {
  override name = 'IncompleteReplyError';
  readonly code = 'INCOMPLETE_REPLY';
}

/**
 * A reply that arrived whole but cannot be read (malformed CSV: an unclosed quote, a stray quote): the
 * service's fault, not worth another read. Readers of bodies (core/table/csv-read.node.ts) throw it in
 * place of their parser's own errors, so the transport decides by this type, not by a parser's codes.
 */
export class MalformedReplyError extends MeasnbError {
  override name = 'MalformedReplyError';
  readonly code: 'MALFORMED_REPLY' | 'INPUT_LIMIT' = 'MALFORMED_REPLY';
}

/** Which bound of a reader an input went past (see InputLimitError). */
export type InputLimit = 'line-bytes' | 'columns' | 'gunzip-ratio';

/**
 * An input (a reply, a file) past one of the readers' bounds: a line longer than MAX_LINE_BYTES, a header
 * of more than MAX_COLUMNS columns (core/table/csv-wide-reader.ts), a gzip stream expanding past its
 * ratio (core/io/gzip.node.ts). Malformed for the transport (not worth another read); the message names
 * the limit.
 */
export class InputLimitError extends MalformedReplyError {
  override name = 'InputLimitError';
  override readonly code = 'INPUT_LIMIT';
  constructor(
    readonly limit: InputLimit,
    message: string,
  ) {
    super(message);
  }
}

/** Writing a reply into the caller's destination (stdout, a file) failed: never retried, never a network error. */
export class OutputError extends MeasnbError {
  override name = 'OutputError';
  readonly code = 'OUTPUT';
  constructor(cause: unknown) {
    // A system error says its errno code (ENOSPC, EPIPE); one of the catalogue (SPOOL_LIMIT) says its message.
    const code = cause instanceof MeasnbError ? undefined : (cause as { code?: unknown })?.code;
    const text = typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
    super(`Cannot write the output: ${text}.`, { cause });
  }
}

/** One failed try of the transport (core/client/http.node.ts): the error the caller gets, and whether to try again. */
export class AttemptFailedError extends MeasnbError {
  override name = 'AttemptFailedError';
  readonly code = 'ATTEMPT_FAILED';
  constructor(
    readonly failure: MeasurementsError | OutputError,
    readonly decision: RetryDecision,
  ) {
    super(failure.message);
  }
}

// ---- files ------------------------------------------------------------------------------------------

/**
 * A local file opened as a table that is not one of the formats, is malformed, or is past a bound; or table
 * wire bytes (a saved output, a message: core/table/wire.ts decodeTable) that do not hold together.
 */
export class TableFileError extends MeasnbError {
  override name = 'TableFileError';
  readonly code = 'TABLE_FILE';
}

/**
 * The pages holding the Parquet rows asked for hold many more (e.g. one page per column for millions of
 * rows), or decode to more than MAX_DECODED_BYTES (core/table/parquet.ts).
 */
export class ParquetPagesTooLarge extends MeasnbError {
  override name = 'ParquetPagesTooLarge';
  readonly code = 'PARQUET_PAGES_TOO_LARGE';
  constructor(
    readonly totalRows: number,
    readonly decodedRows: number,
  ) {
    super(`The first rows of this Parquet file are in pages of ${decodedRows} rows.`);
  }
}

/** A write that would land outside the chosen folder, or a name that is not one plain name. */
export class UnsafePathError extends MeasnbError {
  override name = 'UnsafePathError';
  readonly code = 'UNSAFE_PATH';
}

/** A .measnb file that cannot be read; `where` is the JSON path of the problem. */
export class NotebookFormatError extends MeasnbError {
  override name = 'NotebookFormatError';
  readonly code = 'INVALID_NOTEBOOK';
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(`${where ? `${where}: ` : ''}${message}`);
  }
}

// ---- cells, sql, reports ----------------------------------------------------------------------------

/**
 * What the catalogue reads of a cell's diagnostic. core/query's `Diagnostic` is one; the catalogue sits
 * below core/query, so CellError is generic over it.
 */
export interface CellProblem {
  severity: string;
  message: string;
  range: { start: { line: number; column: number } };
}

/** "line 3, column 18: 'hourly' is not a valid outputFrequency ... (+1 more)" */
export function describeDiagnostics(diagnostics: readonly CellProblem[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0] ?? diagnostics[0];
  if (!first) return 'The cell is not valid';
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : '';
  return `line ${first.range.start.line + 1}, column ${first.range.start.column + 1}: ${first.message}${more}`;
}

/** A cell that cannot run: its diagnostics, and one line that names the first problem and where it is. */
export class CellError<D extends CellProblem = CellProblem> extends MeasnbError {
  override name = 'CellError';
  readonly code = 'INVALID_CELL';
  constructor(readonly diagnostics: D[]) {
    super(describeDiagnostics(diagnostics));
  }
}

/** Text that is not one report cell (core/query/report-cell.ts). */
export class ReportCellError extends MeasnbError {
  override name = 'ReportCellError';
  readonly code = 'NOT_A_REPORT_CELL';
}

/** What DuckDB said about a statement (core/sql/errors.ts reads it). */
export interface EngineError {
  /** "Binder Error: Referenced column "x" not found in FROM clause! Candidate bindings: "y"" */
  message: string;
  /** Character offset into the SQL text, when DuckDB gives one. */
  offset?: number;
  /** DuckDB's exception type: Parser, Binder, Catalog, IO, INTERRUPT, ... */
  type?: string;
}

/** A sql cell's statement that DuckDB (or the engine's own checks) refused. */
export class EngineQueryError extends MeasnbError {
  override name = 'EngineQueryError';
  readonly code = 'SQL_QUERY';
  constructor(readonly engine: EngineError) {
    super(engine.message);
  }
}

/** A refusal of a way of naming files the sql engine cannot check: a computed name, nested SQL. */
export class FileNameRefusal extends MeasnbError {
  override name = 'FileNameRefusal';
  readonly code = 'SQL_FILE_NAME';
}

/** A report that ended in a state other than succeeded (failed, or a status this client does not know). */
export class ReportFailedError extends MeasnbError {
  override name = 'ReportFailedError';
  readonly code = 'REPORT_FAILED';
  constructor(readonly record: ReportRecord) {
    const said = record.message && record.message !== record.reportStatus ? `: ${record.message}` : '';
    super(
      `Report ${record.reportId} ${record.reportStatus === 'failed' ? 'failed' : `ended as '${record.reportStatus}'`}${said}; no files to download.`,
    );
  }
}

// ---- the surfaces -----------------------------------------------------------------------------------

/** CLI: bad flags or arguments, a file that cannot be read (exit code 2). */
export class UsageError extends MeasnbError {
  override name = 'UsageError';
  readonly code = 'USAGE';
}

/** CLI: a reply bigger than the spool holds back; the command says to use --stream or --out. */
export class SpoolLimitError extends MeasnbError {
  override name = 'SpoolLimitError';
  readonly code = 'SPOOL_LIMIT';
}

/** Extension: an entry point that needs workspace trust was refused (its name is the title users see). */
export class UntrustedWorkspaceError extends MeasnbError {
  override name = 'Restricted Mode';
  readonly code = 'UNTRUSTED_WORKSPACE';
}

/** Extension: the connection has no API key. */
export class MissingKeyError extends MeasnbError {
  override name = 'MissingKeyError';
  readonly code = 'MISSING_KEY';
  constructor(readonly connectionName: string) {
    super(`No API key is set for the connection "${connectionName}". Run "Measurements: Set API Key".`);
  }
}

/** Renderer: the host could not send the rest of a progressive output's rows (the rows shown stay). */
export class RowsUnavailable extends MeasnbError {
  override name = 'RowsUnavailable';
  readonly code = 'ROWS_UNAVAILABLE';
}

// ---- air-quality documents and statistics, the archive ---------------------------------------------

/** Regulatory-style statistics asked of something they cannot be computed on (a file, a metric, a year). */
export class StatisticsInputError extends MeasnbError {
  override name = 'StatisticsInputError';
  readonly code = 'STATISTICS_INPUT';
  /** What the caller may add its own hint to: the data holds several datasources and none was given. */
  constructor(
    message: string,
    readonly needs?: 'datasource',
  ) {
    super(message);
  }
}

/** A sensor evaluation report asked of a result it cannot be made from (no sensor, no reference, no metric). */
export class EvaluationReportError extends MeasnbError {
  override name = 'EvaluationReportError';
  readonly code = 'EVALUATION_INPUT';
}

export type ArchiveErrorCode =
  /** A flag or the range is not something to archive (nothing was sent). */
  | 'ARCHIVE_INPUT'
  /** A datasource the org does not have (nothing was spent). */
  | 'ARCHIVE_UNKNOWN_DATASOURCE'
  /** The folder holds a manifest that is not ours, or is damaged. */
  | 'ARCHIVE_MANIFEST'
  /** A report file held something other than what was asked for. */
  | 'ARCHIVE_REPORT_CONTENT';

/** The archive cannot go on (core/archive): what the CLI maps to its exit codes and the extension to notices. */
export class ArchiveError extends MeasnbError {
  override name = 'ArchiveError';
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The day's report budget is spent (our cap, or the service's 429): the archive can go on at `resumeAt`. */
export class ArchiveQuotaError extends MeasnbError {
  override name = 'ArchiveQuotaError';
  readonly code = 'ARCHIVE_QUOTA';
  constructor(
    message: string,
    /** When the budget resets (the next UTC midnight, or the service's Retry-After). */
    readonly resumeAt: Date,
    /** Months still to fetch. */
    readonly remainingMonths: number,
  ) {
    super(message);
  }
}
