// csv-wide read on more than one thread: the body is cut into blocks of whole lines, worker threads read
// blocks into columns (csv-worker.node.ts), and this thread merges them in order into the one reader
// (dictionary codes remapped, demotions replayed: CsvWideReader.merge). A block read with builders the
// reader no longer has (a column was demoted in an earlier block) is read again here, from its bytes.
// Only plain lines go to blocks: at the first quote or carriage return the rest goes back to the
// sequential reader (csv-parse).

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { IncompleteReplyError } from '../api/errors';
import type { BlockReply, BlockResult } from './csv-blocks';
import { type CsvWideReader, readBlock, readLines } from './csv-wide-reader';

export interface ParallelOptions {
  /** Worker threads (0: none, the body is read the usual way unless localBlocks). */
  workers: number;
  /** Without workers, still cut blocks and merge them, all read on this thread (tests of the merge). */
  localBlocks?: boolean;
  /** Body bytes read the usual way before workers start: a small body never starts one. */
  startAfterBytes: number;
  /** Bytes per block (cut after the last line end within them). */
  blockBytes: number;
  /** Blocks waiting per worker; past it this thread reads the next block itself. */
  depth: number;
  /** Wait for the workers to be ready before reading on (tests: so that blocks do go to them). */
  waitForWorkers?: boolean;
  /** The worker's script (default: csv-worker.js beside the bundle, or the source under tsx). */
  script?: string;
  /** Told at the end how many blocks went to workers and how many were read here (tests, measurements). */
  onStats?: (stats: ParallelLines['stats']) => void;
}

function envNumber(name: string, fallback: number): number {
  const n = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isNaN(n) ? fallback : n;
}

/** MEASNB_CSV_WORKERS (threads), MEASNB_CSV_PARALLEL_FROM (bytes) and MEASNB_CSV_TRACE (stats to stderr). */
export const DEFAULT_PARALLEL: ParallelOptions = {
  workers: envNumber('MEASNB_CSV_WORKERS', 0),
  startAfterBytes: envNumber('MEASNB_CSV_PARALLEL_FROM', 8 << 20),
  blockBytes: envNumber('MEASNB_CSV_BLOCK', 1 << 20),
  depth: envNumber('MEASNB_CSV_DEPTH', 2),
  onStats: process.env.MEASNB_CSV_TRACE
    ? (s) => process.stderr.write(`csv-wide blocks: ${s.worker} by workers, ${s.here} here, ${s.again} again\n`)
    : undefined,
};

/** csv-worker.js beside this bundle (dist/), or csv-worker.node.ts beside this source (tests, under tsx). */
export function workerScript(): string | undefined {
  for (const name of ['csv-worker.js', 'csv-worker.node.ts']) {
    const p = path.join(__dirname, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** The worker from its TypeScript source (tests run under tsx, whose loader a worker does not inherit). */
function sourceWorker(script: string): Worker {
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(script)});`, { eval: true });
}

let live = 0;
/** Worker threads running now (tests: none are left behind). */
export function liveCsvWorkers(): number {
  return live;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  dead: boolean;
  inFlight: number;
  blocks: number;
}

interface Entry {
  id: number;
  specs: string[];
  length: number;
  bytes?: Buffer;
  block?: BlockResult;
  error?: Error;
  slot?: Slot;
  settled: Promise<void>;
  settle: () => void;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;

function sameSpecs(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Blocks of lines to worker threads and back into the reader, in order. */
export class ParallelLines {
  private readonly slots: Slot[] = [];
  private readonly queue: Entry[] = [];
  private readonly byId = new Map<number, Entry>();
  private readonly free: Buffer[] = [];
  private cur: Buffer;
  private curLen = 0;
  private nextId = 0;
  private readyWaiters: Array<() => void> = [];
  /** The last byte taken (-1 before any). */
  last = -1;
  /** Blocks read by each worker, then by this thread (tests, measurements). */
  readonly stats = { worker: 0, here: 0, again: 0 };

  constructor(
    private readonly reader: CsvWideReader,
    private readonly strict: boolean,
    private readonly opts: ParallelOptions,
  ) {
    this.cur = this.buffer();
  }

  /** Starts the workers (false: no script, nothing started). */
  start(): boolean {
    const script = this.opts.script ?? workerScript();
    if (this.opts.workers > 0 && !script) return false;
    for (let i = 0; i < this.opts.workers; i++) this.slots.push(this.spawn(script!));
    return true;
  }

  /** Some worker can take blocks (always, without workers). */
  get ready(): boolean {
    return this.opts.workers === 0 || this.slots.some((s) => s.ready && !s.dead);
  }

  /** Resolves once ready, or once every worker has failed to start. */
  async whenReady(): Promise<void> {
    if (this.ready || this.slots.every((s) => s.dead)) return;
    await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
  }

  private spawn(script: string): Slot {
    const worker = script.endsWith('.ts') ? sourceWorker(script) : new Worker(script);
    live++;
    const slot: Slot = { worker, ready: false, dead: false, inFlight: 0, blocks: 0 };
    worker.unref();
    worker.on('message', (m: BlockReply | 'ready') => {
      if (m === 'ready') slot.ready = true;
      else this.settle(slot, m);
      if (m === 'ready') this.wake();
    });
    worker.on('error', (e) => this.fail(slot, e));
    worker.on('exit', () => {
      live--;
      this.fail(slot, new Error('the csv worker thread exited'));
    });
    return slot;
  }

  private wake(): void {
    for (const w of this.readyWaiters.splice(0)) w();
  }

  private settle(slot: Slot, m: BlockReply): void {
    const entry = this.byId.get(m.id);
    if (!entry) return;
    this.byId.delete(m.id);
    slot.inFlight--;
    entry.bytes = Buffer.from(m.bytes);
    if (m.block) entry.block = m.block;
    else entry.error = new Error(`the csv worker failed: ${m.error}`);
    entry.settle();
  }

  /** A worker that failed or exited: its blocks fail (a worker that never started is only left out). */
  private fail(slot: Slot, e: Error): void {
    if (slot.dead) return;
    slot.dead = true;
    for (const entry of this.byId.values()) {
      if (entry.slot !== slot) continue;
      this.byId.delete(entry.id);
      entry.error = e;
      entry.settle();
    }
    this.wake();
  }

  /** Stops the workers (at the end, or when the read fails or is cancelled). */
  terminate(): void {
    for (const s of this.slots) {
      if (!s.dead) void s.worker.terminate();
    }
  }

  private buffer(): Buffer {
    // Not from the pool: its whole ArrayBuffer is the block's, so it can be transferred.
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.opts.blockBytes);
  }

  /**
   * Takes a chunk of lines. Returns the bytes the sequential reader takes from here on when a line needs
   * it (a quote or a carriage return): every block before it is merged by then.
   */
  async write(chunk: Uint8Array): Promise<Buffer | undefined> {
    if (!chunk.length) return undefined;
    this.last = chunk[chunk.length - 1];
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(this.cur.length - this.curLen, chunk.length - at);
      this.cur.set(chunk.subarray(at, at + n), this.curLen);
      this.curLen += n;
      at += n;
      if (this.curLen < this.cur.length) break;
      const back = await this.cut();
      if (back) return Buffer.concat([back, chunk.subarray(at)]);
    }
    return undefined;
  }

  /** A full buffer: its whole lines become a block, the rest starts the next buffer. */
  private async cut(): Promise<Buffer | undefined> {
    const full = this.cur;
    const nl = full.lastIndexOf(LF, this.curLen - 1);
    if (nl < 0) {
      // One line longer than a block: room for more of it.
      this.cur = Buffer.allocUnsafeSlow(full.length * 2);
      full.copy(this.cur, 0, 0, this.curLen);
      return undefined;
    }
    const length = nl + 1;
    this.cur = this.buffer();
    if (this.cur.length < this.curLen - length) this.cur = Buffer.allocUnsafeSlow(full.length);
    this.curLen = full.copy(this.cur, 0, length, this.curLen);
    const lines = full.subarray(0, length);
    if (lines.indexOf(QUOTE) >= 0 || lines.indexOf(CR) >= 0) {
      await this.drain();
      return Buffer.concat([lines, this.cur.subarray(0, this.curLen)]);
    }
    this.dispatch(full, length);
    this.mergeSettled();
    const most = Math.max(1, this.slots.length) * (this.opts.depth + 1);
    while (this.queue.length > most) await this.mergeHead();
    return undefined;
  }

  /** To the least busy worker, else read here (straight into the reader when nothing is waiting). */
  private dispatch(bytes: Buffer, length: number): void {
    let slot: Slot | undefined;
    for (const s of this.slots) if (s.ready && !s.dead && (!slot || s.inFlight < slot.inFlight)) slot = s;
    if (slot && slot.inFlight >= this.opts.depth) slot = undefined;
    if (!slot && this.queue.length === 0 && this.opts.workers > 0) {
      this.stats.here++;
      readLines(this.reader, bytes, length);
      if (bytes.length === this.opts.blockBytes) this.free.push(bytes);
      return;
    }
    const entry = this.entry(this.reader.specs(), length);
    if (slot) {
      entry.slot = slot;
      slot.inFlight++;
      slot.blocks++;
      this.stats.worker++;
      this.byId.set(entry.id, entry);
      slot.worker.postMessage({ id: entry.id, bytes: bytes.buffer, length, specs: entry.specs, strict: this.strict }, [
        bytes.buffer as ArrayBuffer,
      ]);
    } else {
      this.stats.here++;
      entry.bytes = bytes;
      entry.block = readBlock(bytes, length, entry.specs, this.strict);
      entry.settle();
    }
    this.queue.push(entry);
  }

  private entry(specs: string[], length: number): Entry {
    let settle = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    return { id: this.nextId++, specs, length, settled, settle };
  }

  /** Merges the blocks at the head of the queue that are back. */
  private mergeSettled(): void {
    while (this.queue.length && (this.queue[0].block || this.queue[0].error)) this.mergeOne(this.queue.shift()!);
  }

  private async mergeHead(): Promise<void> {
    await this.queue[0].settled;
    this.mergeOne(this.queue.shift()!);
  }

  private mergeOne(entry: Entry): void {
    if (entry.error) throw entry.error;
    const block = entry.block!;
    if (sameSpecs(entry.specs, this.reader.specs())) {
      this.reader.merge(block);
      if (block.incomplete !== undefined) throw new IncompleteReplyError(block.incomplete);
    } else {
      // An earlier block demoted a column this one was read as: read it again with the reader's builders.
      this.stats.again++;
      readLines(this.reader, entry.bytes!, entry.length);
    }
    if (entry.bytes && entry.bytes.length === this.opts.blockBytes && this.free.length < 4) this.free.push(entry.bytes);
  }

  /** Merges every block. */
  async drain(): Promise<void> {
    while (this.queue.length) await this.mergeHead();
  }

  /** Merges every block; returns the bytes after the last line end (for the sequential reader's end). */
  async end(): Promise<Buffer> {
    await this.drain();
    return Buffer.from(this.cur.subarray(0, this.curLen));
  }
}
