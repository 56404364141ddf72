// stdout writes that know when their bytes have left the process, and the one policy for stdout write
// errors: a closed pipe (`measnb query … | head`) is a normal end, unless the command said its output
// must arrive (follow --state, whose cursor moves only past rows that were delivered); any other write
// error (a full disk) is a failure with exit code `output`.
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
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

/** Writes and resolves once out has taken the bytes (its write callback); rejects with the write error. */
export function writeTo(out: Writable, chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (e) => (e ? reject(new OutputError(e)) : resolve()));
  });
}

/** Writes and resolves once stdout has taken the bytes (its write callback); rejects with the write error. */
export function writeStdout(chunk: string | Uint8Array): Promise<void> {
  return writeTo(process.stdout, chunk);
}

/** Text for a terminal: control characters escaped (a CRLF line end is kept, it moves nothing). */
function forTerminal(text: string): string {
  return text.split('\r\n').map(safeForTerminal).join('\r\n');
}

/**
 * stdout for data: to a pipe or a file, the bytes as they are; on a terminal (a human reads it), the text
 * with control characters shown escaped (`\x1b`), so a value cannot set the title, write the clipboard
 * (OSC 0, OSC 52) or clear the screen. fn writes into it; it is ended and flushed when fn is done.
 */
export async function writeDataToStdout<T>(fn: (out: Writable) => Promise<T>): Promise<T> {
  if (!process.stdout.isTTY) return fn(process.stdout);
  const decoder = new TextDecoder();
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      process.stdout.write(forTerminal(decoder.decode(chunk, { stream: true })), (e) => cb(e ?? null));
    },
    final(cb) {
      process.stdout.write(forTerminal(decoder.decode()), (e) => cb(e ?? null));
    },
  });
  // stdout's own errors are handled once, by handleStdoutErrors; here they only end the writes.
  out.on('error', () => undefined);
  const value = await fn(out);
  out.end();
  await finished(out);
  return value;
}
