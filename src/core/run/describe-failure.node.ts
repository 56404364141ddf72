// Any failure as the user reads it: a title, message lines and a kind. The CLI maps the kind to an exit
// code (cli/errors.ts), the extension to an error output and a notification's buttons
// (extension/notebook/outputs.ts). Node-only: it knows the errors of the node-only runners and paths.
import {
  CellError,
  MeasurementsError,
  NotebookFormatError,
  OutputError,
  ReportFailedError,
  UnsafePathError,
} from '../api/errors';
import { quotaReachedText } from '../api/quota-text';
import { type Diagnostic, diagnosticLine } from '../query/diagnostics';

export type FailureKind =
  | 'invalid-cell'
  | 'invalid-notebook'
  | 'output'
  | 'report-failed'
  | 'unsafe-path'
  | 'quota'
  | 'auth'
  | 'not-found'
  | 'invalid-request'
  | 'rejected'
  | 'cancelled'
  | 'unreachable'
  | 'unavailable'
  | 'system'
  | 'internal';

interface Failure {
  kind: FailureKind;
  title: string;
  lines: string[];
}

interface FailureContext {
  /** The org the request was for (the quota text names it). */
  org?: string;
  /** The caller's clock: the quota text then says how long until the reset. */
  now?: Date;
  /** Where a cell came from (`file#2`, `-e`): its errors become compiler-style `where:line:col` lines. */
  source?: string;
}

export function describeFailure(e: unknown, ctx: FailureContext = {}): Failure {
  if (e instanceof CellError) {
    // A cell's errors are the query language's diagnostics (run-cell throws them; the catalogue is below query).
    const diagnostics: readonly Diagnostic[] = e.diagnostics;
    const lines = diagnostics.filter((d) => d.severity === 'error').map((d) => diagnosticLine(d, ctx.source));
    const fallback = ctx.source !== undefined ? `${ctx.source}: ${e.message}` : e.message;
    return {
      kind: 'invalid-cell',
      title: 'The cell has errors; nothing was sent',
      lines: lines.length ? lines : [fallback],
    };
  }
  if (e instanceof NotebookFormatError) {
    const where = ctx.source ?? 'notebook';
    return {
      kind: 'invalid-notebook',
      title: 'Not a valid .measnb file',
      lines: [`${where}: not a valid .measnb file: ${e.message}`],
    };
  }
  if (e instanceof OutputError) return { kind: 'output', title: 'Cannot write the output', lines: [e.message] };
  if (e instanceof ReportFailedError) return { kind: 'report-failed', title: 'Report failed', lines: [e.message] };
  // A download folder that leads outside itself (a planted symbolic link): a problem of the folder given.
  if (e instanceof UnsafePathError) return { kind: 'unsafe-path', title: 'Unsafe download folder', lines: [e.message] };
  if (e instanceof MeasurementsError) return describeServiceError(e, ctx);
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === 'object' && typeof err.code === 'string' && err.syscall) {
    return { kind: 'system', title: err.code, lines: [err.message] };
  }
  const title = e instanceof Error && e.name && e.name !== 'Error' ? e.name : 'Error';
  return { kind: 'internal', title, lines: [e instanceof Error ? e.message : String(e)] };
}

/** The service's (or the client's) typed errors. */
function describeServiceError(e: MeasurementsError, ctx: FailureContext): Failure {
  const said = { title: `Service error (${e.code})`, lines: [e.message] };
  switch (e.code) {
    case 'QUOTA_EXCEEDED': {
      const reset = { resetAt: e.resetAt, now: ctx.now, retryAfterSeconds: e.retryAfterSeconds };
      const text = quotaReachedText(ctx.org, reset);
      return { kind: 'quota', title: 'Daily report limit reached', lines: [text] };
    }
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
      return { kind: 'auth', title: 'Not allowed', lines: [e.message] };
    case 'NOT_FOUND':
      return { kind: 'not-found', title: 'Not found', lines: [e.message] };
    case 'INVALID_REQUEST':
      return { kind: 'invalid-request', ...said };
    case 'BAD_REQUEST':
    case 'TOKEN_REJECTED':
      return { kind: 'rejected', ...said };
    case 'CANCELLED':
      return { kind: 'cancelled', title: 'Cancelled', lines: [e.message] };
    case 'TIMEOUT':
    case 'NETWORK':
      return { kind: 'unreachable', title: 'Service unreachable', lines: [e.message] };
    default:
      return { kind: 'unavailable', ...said };
  }
}
