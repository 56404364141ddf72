// The archive's own errors, each with a stable code (as core/api/errors.ts): what the CLI maps to its
// exit codes and the extension to its notices.

export type ArchiveErrorCode =
  /** A flag or the range is not something to archive (nothing was sent). */
  | 'ARCHIVE_INPUT'
  /** A datasource the org does not have (nothing was spent). */
  | 'ARCHIVE_UNKNOWN_DATASOURCE'
  /** The folder holds a manifest that is not ours, or is damaged. */
  | 'ARCHIVE_MANIFEST'
  /** A report file held something other than what was asked for. */
  | 'ARCHIVE_REPORT_CONTENT';

export class ArchiveError extends Error {
  override name = 'ArchiveError';
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The day's report budget is spent (our cap, or the service's 429): the archive can go on at `resumeAt`. */
export class ArchiveQuotaError extends Error {
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
