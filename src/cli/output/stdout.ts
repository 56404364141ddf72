// stdout writes that know when their bytes have left the process, and the one policy for stdout write
// errors: a closed pipe (`measnb query … | head`) is a normal end, unless the command said its output
// must arrive (follow --state, whose cursor moves only past rows that were delivered); any other write
// error (a full disk) is a failure with exit code `output`.
import { OutputError } from '../../core/api/errors';
import { safeForTerminal } from '../../core/text/terminal';
import { EXIT } from '../exit-codes';

let outputMustArrive = false;

/** From now on a closed pipe on stdout is an error (exit `output`), not a normal end. */
export function requireDeliveredOutput(): void {
  outputMustArrive = true;
}

/** Installed once by main: what a stdout write error does to the process. */
export function handleStdoutErrors(stdout: NodeJS.WriteStream = process.stdout): void {
  stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' && !outputMustArrive) process.exit(process.exitCode ?? EXIT.ok);
    process.stderr.write(`measnb: ${safeForTerminal(new OutputError(e).message)}\n`);
    process.exit(EXIT.output);
  });
}

/** Writes and resolves once stdout has taken the bytes (its write callback); rejects with the write error. */
export function writeStdout(chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(chunk, (e) => (e ? reject(new OutputError(e)) : resolve()));
  });
}
