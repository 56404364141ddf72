// A streamed reply held back until it is whole: the bytes go to memory, then (past MEMORY_BYTES) to a
// private temporary file, at most LIMIT_BYTES; only a complete reply is played to stdout. So a reply that
// breaks is read again from its beginning (restart) and each row is printed exactly once.
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { OutputError, SpoolLimitError } from '../../core/api/errors';

/** Held in memory up to this; beyond it, in a temporary file. */
const SPOOL_MEMORY_BYTES = 16 * 1024 * 1024;
/** A reply bigger than this is not held back: the command says to use --stream or --out. */
const SPOOL_LIMIT_BYTES = 4 * 1024 * 1024 * 1024;

/** One attempt's bytes: chunks in memory, then a temporary file. */
class SpoolWritable extends Writable {
  chunks: Buffer[] = [];
  size = 0;
  dir?: string;
  file?: FileHandle;

  constructor(private readonly limits: { memory: number; limit: number }) {
    super();
    // Errors reach the writer through its write callbacks; a late one must not be unhandled.
    this.on('error', () => undefined);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.append(chunk).then(() => cb(), cb);
  }

  private async append(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.size > this.limits.limit) {
      throw new SpoolLimitError(
        `the reply is bigger than ${this.limits.limit} bytes, too big to hold back until it is complete; use --stream or --out`,
      );
    }
    if (!this.file && this.size <= this.limits.memory) {
      this.chunks.push(chunk);
      return;
    }
    if (!this.file) {
      this.dir = await mkdtemp(join(tmpdir(), 'measnb-spool-'));
      this.file = await open(join(this.dir, 'reply.csv'), 'wx', 0o600);
      for (const c of this.chunks) await this.file.writeFile(c);
      this.chunks = [];
    }
    await this.file.writeFile(chunk);
  }

  /** Every byte held, in order, in pieces. */
  async *pieces(): AsyncGenerator<Buffer> {
    yield* this.chunks;
    if (this.file && this.dir) yield* createReadStream(join(this.dir, 'reply.csv'));
  }

  async dispose(): Promise<void> {
    this.destroy();
    await this.file?.close().catch(() => undefined);
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

/** The spool of a command: `out` for the first attempt, `restart` for each new one, `playTo` at the end. */
export class Spool {
  private current: SpoolWritable;

  constructor(private readonly limits = { memory: SPOOL_MEMORY_BYTES, limit: SPOOL_LIMIT_BYTES }) {
    this.current = new SpoolWritable(limits);
  }

  get out(): Writable {
    return this.current;
  }

  /** Drops what the broken attempt wrote; the next attempt writes into an empty spool. */
  readonly restart = async (): Promise<Writable> => {
    await this.current.dispose();
    this.current = new SpoolWritable(this.limits);
    return this.current;
  };

  /** Hands every byte held to write, in order, each piece once write has taken the one before. */
  async playTo(write: (piece: Buffer) => Promise<void>): Promise<void> {
    // The last writes may still be on their way into the spool.
    this.current.end();
    await finished(this.current).catch((e: unknown) => {
      throw new OutputError(e);
    });
    for await (const piece of this.current.pieces()) await write(piece);
  }

  dispose(): Promise<void> {
    return this.current.dispose();
  }
}
