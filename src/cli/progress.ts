// Progress on stderr: one line rewritten in place on a terminal, plain lines otherwise.
import { formatDuration } from '../core/query/time';
import type { RunProgress } from '../core/run';
import { safeForTerminal, safeForTerminalLine } from '../core/text/terminal';

export class ProgressLine {
  private active = false;
  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {}

  private get tty(): boolean {
    return Boolean(this.stream.isTTY);
  }

  /**
   * Shows a transient status, replaced by the next one on a terminal. Elsewhere (logs, CI) only
   * `lasting` statuses are written, one per line: a report's progress, not "running the query…".
   */
  update(text: string, lasting = true): void {
    if (this.quiet) return;
    if (this.tty) {
      this.stream.write(`\r\x1b[2K${safeForTerminalLine(text)}`);
      this.active = true;
    } else if (lasting) {
      this.stream.write(`${safeForTerminal(text)}\n`);
    }
  }

  /** A message that stays (control characters escaped: it may quote the service). */
  message(text: string): void {
    this.clear();
    if (!this.quiet) this.stream.write(`${safeForTerminal(text)}\n`);
  }

  /** A warning, prefixed like errors are. */
  warning(text: string): void {
    this.message(`measnb: ${text}`);
  }

  clear(): void {
    if (this.active) {
      this.stream.write('\r\x1b[2K');
      this.active = false;
    }
  }
}

export function describeProgress(p: RunProgress): string | undefined {
  switch (p.kind) {
    case 'request':
      return p.message;
    case 'report-created':
      return `Report ${p.reportId} created`;
    case 'report-status':
      return `Report ${p.reportId}: ${p.status}, ${formatDuration(p.elapsedMs)} elapsed${p.nextCheckMs !== undefined ? `, next check in ${formatDuration(p.nextCheckMs)}` : ''}${p.error ? ` (last check failed: ${p.error})` : ''}`;
    case 'download':
      return `Report ${p.reportId}: downloading file ${p.index + 1} of ${p.total} to ${p.file}`;
  }
}
