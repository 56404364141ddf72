// A csv-wide reply streamed byte for byte into a destination (stdout, a file) with backpressure, whole
// lines only: the bytes after the last line end are held back until their line is complete, so a reply
// that breaks off never leaves half a row behind, and a body that ends without its line end is an
// incomplete reply, not a complete one. A line longer than the readers' bound (MAX_LINE_BYTES) is refused.
import type { Readable, Writable } from 'node:stream';
import { IncompleteReplyError, OutputError } from '../api/errors';
import { lineTooLong, MAX_LINE_BYTES } from './limits';

const LF = 0x0a;

/**
 * Copies body into dest, whole lines at a time; calls onFirstWrite just before the first byte is
 * written (from then on the copy cannot be repeated). Returns the bytes written. Write errors of dest
 * become OutputError; a body that ends mid-line becomes IncompleteReplyError; a line past MAX_LINE_BYTES,
 * InputLimitError.
 */
export async function writeWholeLines(body: Readable, dest: Writable, onFirstWrite: () => void): Promise<number> {
  let held: Buffer | undefined;
  let bytes = 0;
  let failed: unknown;
  const onError = (e: unknown) => {
    failed ??= e;
  };
  dest.on('error', onError);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const nl = chunk.lastIndexOf(LF);
      if (nl < 0) {
        // The start of a line is held, up to the readers' line bound (a reply without line ends never grows it).
        if ((held?.length ?? 0) + chunk.length > MAX_LINE_BYTES + 1) throw lineTooLong();
        held = held ? Buffer.concat([held, chunk]) : chunk;
        continue;
      }
      const whole = held ? Buffer.concat([held, chunk.subarray(0, nl + 1)]) : chunk.subarray(0, nl + 1);
      held = nl + 1 < chunk.length ? chunk.subarray(nl + 1) : undefined;
      if (bytes === 0) onFirstWrite();
      bytes += whole.length;
      await write(dest, whole, () => failed);
    }
    if (held?.length) throw new IncompleteReplyError('the last line has no line end (the reply was cut short)');
    if (failed) throw new OutputError(failed);
    return bytes;
  } finally {
    dest.off('error', onError);
  }
}

/** One write; waits for 'drain' when dest is full; fails with the destination's error. */
function write(dest: Writable, chunk: Buffer, failed: () => unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (e?: unknown) => {
      dest.off('drain', onDrain);
      dest.off('error', done);
      if (e || failed()) reject(new OutputError(e ?? failed()));
      else resolve();
    };
    const onDrain = () => done();
    if (failed() || dest.destroyed) return reject(new OutputError(failed() ?? new Error('the output was closed')));
    if (dest.write(chunk)) return resolve();
    dest.once('drain', onDrain);
    dest.once('error', done);
  });
}
