// The documented exit codes of measnb (README "Command line").
export const EXIT = {
  ok: 0,
  /** Something unexpected (a bug): the message says what. */
  internal: 1,
  /** Bad flags or arguments, a file that cannot be read. */
  usage: 2,
  /** The cell or notebook is not valid; nothing was sent. */
  invalidCell: 3,
  /** The service refused the API key (401/403). */
  auth: 4,
  /** The org's daily report limit is reached (429). */
  quota: 5,
  /** Unknown report or datasource (404). */
  notFound: 6,
  /** The service could not be reached, timed out, or failed (5xx). */
  unavailable: 7,
  /** The service rejected the request (400), e.g. a rejected continuation token. */
  rejected: 8,
  /** A report ended as failed. */
  reportFailed: 9,
  /** A report is still in progress (report download without --wait). */
  notReady: 10,
  /** The output could not be written (a full disk; a closed pipe where rows must not be lost, follow --state). */
  output: 11,
  /** measnb archive stopped: the day's reports are spent (its cap or the service's 429); run again after the time it printed. */
  archivePaused: 12,
  /** Interrupted (Ctrl-C) while waiting. */
  interrupted: 130,
} as const;
