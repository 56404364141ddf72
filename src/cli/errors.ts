// Every error becomes one clear line on stderr and a documented exit code.
import { MeasurementsError, nextUtcMidnight, OutputError } from '../core/api/errors';
import { DAILY_REPORT_LIMIT } from '../core/api/paths';
import { UnsafePathError } from '../core/io/local-paths.node';
import { NotebookFormatError } from '../core/notebook';
import type { Diagnostic } from '../core/query/diagnostics';
import { CellError, ReportFailedError } from '../core/run/index.node';
import { safeForTerminal } from '../core/text/terminal';
import { type Clock, nowDate } from '../core/time/clock';
import { formatDuration } from '../core/time/duration';
import { EXIT } from './exit-codes';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface ErrorContext {
  org?: string;
  baseUrl?: string;
  /** The command's clock (quota reset times). */
  clock: Clock;
  /** The file the cell came from, for compiler-style `file:line:col` lines. */
  source?: string;
}

export interface CliFailure {
  lines: string[];
  exitCode: number;
}

function hhmm(d: Date): string {
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

/** Error lines on stderr, each `measnb: …`, control characters escaped (messages may quote the service). */
export function writeErrorLines(lines: string[]): void {
  process.stderr.write(`${lines.map((l) => `measnb: ${safeForTerminal(l)}`).join('\n')}\n`);
}

/** A cell's warning as a compiler-style line (`file:line:col: warning: …`). */
export function warningLine(where: string, d: Diagnostic): string {
  return `${where}:${d.range.start.line + 1}:${d.range.start.column + 1}: warning: ${d.message}`;
}

export function describeError(e: unknown, ctx: ErrorContext): CliFailure {
  if (e instanceof CellError) return describeCellError(e, ctx);
  if (e instanceof NotebookFormatError) {
    return {
      lines: [`${ctx.source ?? 'notebook'}: not a valid .measnb file: ${e.message}`],
      exitCode: EXIT.invalidCell,
    };
  }
  if (e instanceof OutputError) return { lines: [e.message], exitCode: EXIT.output };
  if (e instanceof ReportFailedError) return { lines: [e.message], exitCode: EXIT.reportFailed };
  if (e instanceof UsageError) return { lines: [e.message], exitCode: EXIT.usage };
  // A download folder that leads outside itself (a planted symbolic link): a problem of the folder given.
  if (e instanceof UnsafePathError) return { lines: [e.message], exitCode: EXIT.usage };
  if (e instanceof MeasurementsError) return describeServiceError(e, ctx);
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === 'object' && typeof err.code === 'string' && err.syscall) {
    return { lines: [`${err.message}`], exitCode: EXIT.usage };
  }
  return { lines: [`Unexpected error: ${e instanceof Error ? e.message : String(e)}`], exitCode: EXIT.internal };
}

/** A cell's errors as compiler-style lines `source:line:column: error: message`. */
function describeCellError(e: CellError, ctx: ErrorContext): CliFailure {
  const where = ctx.source ?? '<cell>';
  const lines = e.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => {
      // The allowed values, unless the message already lists them.
      const listed = d.message.includes('Allowed') || d.allowedValues?.every((v) => d.message.includes(v));
      const allowed = d.allowedValues && !listed ? ` (allowed: ${d.allowedValues.join(', ')})` : '';
      return `${where}:${d.range.start.line + 1}:${d.range.start.column + 1}: error: ${d.message}${allowed}`;
    });
  return { lines: lines.length ? lines : [`${where}: ${e.message}`], exitCode: EXIT.invalidCell };
}

/** The service's (or the client's) typed errors: a message and the exit code of their kind. */
function describeServiceError(e: MeasurementsError, ctx: ErrorContext): CliFailure {
  const org = ctx.org ? `org ${ctx.org}` : 'this org';
  switch (e.code) {
    case 'quota-exceeded': {
      const now = nowDate(ctx.clock);
      const reset = e.resetAt ?? nextUtcMidnight(now);
      // The server's Retry-After counts on the server's clock, which is the one that resets the quota.
      const waitMs = e.retryAfterSeconds !== undefined ? e.retryAfterSeconds * 1000 : reset.getTime() - now.getTime();
      return {
        lines: [
          `Daily report limit reached for ${org} (${DAILY_REPORT_LIMIT} per UTC day); resets at ${hhmm(reset)} UTC, in ${formatDuration(waitMs)}.`,
        ],
        exitCode: EXIT.quota,
      };
    }
    case 'unauthorized':
    case 'forbidden':
      return {
        lines: [
          `${e.message}${ctx.baseUrl ? ` (service ${ctx.baseUrl}, ${org}; the key comes from MEASUREMENTS_API_KEY)` : ''}`,
        ],
        exitCode: EXIT.auth,
      };
    case 'not-found':
      return { lines: [e.message], exitCode: EXIT.notFound };
    case 'invalid-request':
      return { lines: [e.message], exitCode: EXIT.invalidCell };
    case 'bad-request':
    case 'token-rejected':
      return { lines: [e.message], exitCode: EXIT.rejected };
    case 'cancelled':
      return { lines: ['Interrupted.'], exitCode: EXIT.interrupted };
    default:
      return { lines: [e.message], exitCode: EXIT.unavailable };
  }
}
