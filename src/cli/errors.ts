// Every error becomes one clear line on stderr and a documented exit code.

import { CellError, UsageError } from '../core/api/errors';
import { type Diagnostic, diagnosticLine } from '../core/query/diagnostics';
import { describeFailure, type FailureKind } from '../core/run/describe-failure.node';
import { safeForTerminal } from '../core/text/terminal';
import { type Clock, nowDate } from '../core/time/clock';
import { EXIT } from './exit-codes';

export interface ErrorContext {
  org?: string;
  baseUrl?: string;
  /** The command's clock (quota reset times). */
  clock: Clock;
  /** The file the cell came from, for compiler-style `file:line:col` lines. */
  source?: string;
}

interface CliFailure {
  lines: string[];
  exitCode: number;
}

/** Error lines on stderr, each `measnb: …`, control characters escaped (messages may quote the service). */
export function writeErrorLines(lines: string[]): void {
  process.stderr.write(`${lines.map((l) => `measnb: ${safeForTerminal(l)}`).join('\n')}\n`);
}

/** A cell's warning as a compiler-style line (`file:line:col: warning: …`). */
export function warningLine(where: string, d: Diagnostic): string {
  return diagnosticLine(d, where);
}

const EXIT_OF: Record<FailureKind, number> = {
  'invalid-cell': EXIT.invalidCell,
  'invalid-notebook': EXIT.invalidCell,
  output: EXIT.output,
  'report-failed': EXIT.reportFailed,
  // A download folder that leads outside itself (a planted symbolic link): a problem of the folder given.
  'unsafe-path': EXIT.usage,
  quota: EXIT.quota,
  auth: EXIT.auth,
  'not-found': EXIT.notFound,
  'invalid-request': EXIT.invalidCell,
  rejected: EXIT.rejected,
  cancelled: EXIT.interrupted,
  unreachable: EXIT.unavailable,
  unavailable: EXIT.unavailable,
  system: EXIT.usage,
  internal: EXIT.internal,
};

/** Core's description of the failure, with the exit code of its kind and the CLI's own hints. */
export function describeError(e: unknown, ctx: ErrorContext): CliFailure {
  if (e instanceof UsageError) return { lines: [e.message], exitCode: EXIT.usage };
  // A cell's errors are compiler-style lines, also when the cell has no file (`<cell>:3:20: error: …`).
  const source = ctx.source ?? (e instanceof CellError ? '<cell>' : undefined);
  const f = describeFailure(e, { org: ctx.org, now: nowDate(ctx.clock), source });
  const exitCode = EXIT_OF[f.kind];
  switch (f.kind) {
    case 'auth': {
      const org = ctx.org ? `org ${ctx.org}` : 'this org';
      const where = ctx.baseUrl ? ` (service ${ctx.baseUrl}, ${org}; the key comes from MEASUREMENTS_API_KEY)` : '';
      return { lines: [`${f.lines.join(' ')}${where}`], exitCode };
    }
    case 'cancelled':
      return { lines: ['Interrupted.'], exitCode };
    case 'internal':
      return { lines: [`Unexpected error: ${f.lines.join(' ')}`], exitCode };
    default:
      return { lines: f.lines, exitCode };
  }
}
