// Wraps a command's action: Ctrl-C becomes an AbortSignal, every error one clear line and an exit code,
// and the connection (an in-process emulator, say) is always closed.
import { clockFromEnv, type WaitClock } from '../core/time/clock';
import type { Connection } from './connection';
import { describeError, type ErrorContext, writeErrorLines } from './errors';
import { EXIT } from './exit-codes';
import { ProgressLine } from './progress';

export interface ActionContext {
  signal: AbortSignal;
  /** What error lines may mention (org, base URL, the cell's file). */
  errorContext: ErrorContext;
  progress: ProgressLine;
  /** The command's clock: the system's, or MEASNB_NOW's in tests. */
  clock: WaitClock;
  /** Registers a connection to close when the action ends. */
  use(conn: Connection): Connection;
  /** true once Ctrl-C was pressed. */
  readonly interrupted: boolean;
}

export function action<A extends unknown[]>(
  fn: (ctx: ActionContext, ...args: A) => Promise<number | undefined>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const ctrl = new AbortController();
    const connections: Connection[] = [];
    let interrupted = false;
    const onSigint = () => {
      if (interrupted) process.exit(EXIT.interrupted);
      interrupted = true;
      ctrl.abort(new Error('interrupted'));
    };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigint);
    const progress = new ProgressLine();
    let clock: WaitClock;
    try {
      clock = clockFromEnv(process.env);
    } catch (e) {
      writeErrorLines([(e as Error).message]);
      process.exitCode = EXIT.usage;
      return;
    }
    const ctx: ActionContext = {
      signal: ctrl.signal,
      errorContext: { clock },
      progress,
      clock,
      use(conn) {
        connections.push(conn);
        ctx.errorContext.org ??= conn.org;
        ctx.errorContext.baseUrl = conn.label;
        return conn;
      },
      get interrupted() {
        return interrupted;
      },
    };
    let code: number;
    try {
      code = (await fn(ctx, ...args)) ?? EXIT.ok;
    } catch (e) {
      progress.clear();
      const failure = describeError(e, ctx.errorContext);
      code = interrupted ? EXIT.interrupted : failure.exitCode;
      writeErrorLines(interrupted ? ['Interrupted.'] : failure.lines);
    } finally {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
      for (const c of connections) await c.close().catch(() => undefined);
    }
    process.exitCode = code;
  };
}
