// csv-wide -> Table, streamed and read by its header (any column order; unknown columns kept; empty
// cells stay empty). Plain lines split on commas; quoted content goes through csv-parse. Cells go
// straight into column builders: no object per row.

import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import { CsvError, type Parser, parse } from 'csv-parse';
import { IncompleteReplyError, MalformedReplyError } from '../api/errors';
import { lineTooLong, MAX_LINE_BYTES } from '../io/limits';
import { CsvWideReader, LINES_PER_BLOCK, wrongFieldCount } from './csv-wide-reader';
import type { Table } from './table';

export { CsvWideReader } from './csv-wide-reader';

type CsvInput = string | Uint8Array | NodeJS.ReadableStream | AsyncIterable<string | Uint8Array>;

interface CsvReadOptions {
  /**
   * The body is a service reply that must be whole (recent query, continuation): a last line without its
   * line end, or a row whose field count differs from the header's, means the reply was cut short, and
   * reading fails with IncompleteReplyError instead of building a table from a fragment. Without it
   * (report files), short rows are padded with empty cells.
   */
  complete?: boolean;
}

interface CsvHeadOptions {
  /** Rows kept in the table; the rows after them are read and counted, not kept (memory stays bounded). */
  maxRows: number;
  /** Called once, as soon as the file turns out to have more than maxRows rows, with the rows kept. */
  onFirstRows?: (table: Table) => void;
  /** Stops the read (it rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** Parses csv-wide text (a whole string/buffer or a stream of chunks) into a Table. */
export async function parseCsvWide(input: CsvInput, options: CsvReadOptions = {}): Promise<Table> {
  const reader = new CsvWideReader(options.complete === true);
  await readInto(reader, input, options.complete === true);
  return reader.finish();
}

/**
 * The first `maxRows` rows of a csv-wide file as a Table, and how many rows the whole file has (the rest
 * is streamed through and counted). Short rows are padded as for report files. Fewer rows are kept when
 * they would pass MAX_KEPT_CELLS or MAX_KEPT_BYTES (`sizeLimited`).
 */
export async function readCsvWideHead(
  input: CsvInput,
  options: CsvHeadOptions,
): Promise<{ table: Table; totalRows: number; sizeLimited: boolean }> {
  const reader = new CsvWideReader(false, options.maxRows, options.onFirstRows);
  await readInto(reader, input, false, options.signal, true);
  return { table: reader.finish(), totalRows: reader.totalRows, sizeLimited: reader.sizeLimited };
}

interface CsvPiecesOptions {
  /** A piece is handed over once it holds at least this many rows (and at most a chunk's rows more). */
  rows: number;
  /** Each piece in order, as a Table with every column of the header; the last may be shorter. */
  onPiece: (table: Table) => void;
  signal?: AbortSignal;
}

/**
 * A csv-wide file read in pieces of about `rows` rows (short rows padded, as for report files), never
 * held whole: only times and numbers are parsed, every other column is its text as written (typedOnly).
 * Returns the rows read.
 */
export async function readCsvWideInPieces(input: CsvInput, options: CsvPiecesOptions): Promise<number> {
  const reader = new CsvWideReader(false, Number.POSITIVE_INFINITY, undefined, true);
  let total = 0;
  const take = () => {
    total += reader.rowsHeld;
    options.onPiece(reader.takeRows());
  };
  await readInto(reader, input, false, options.signal, false, () => {
    if (reader.rowsHeld >= options.rows) take();
  });
  if (reader.rowsHeld > 0) take();
  return total;
}

/**
 * Feeds the chunks to the reader. yieldEach: after each chunk, let the event loop run (timers, messages,
 * other I/O): a long file read in the extension host then never holds up everything else in it.
 */
async function readInto(
  reader: CsvWideReader,
  input: CsvInput,
  complete: boolean,
  signal?: AbortSignal,
  yieldEach = false,
  afterChunk?: () => void,
): Promise<void> {
  const lines = new PlainLines(reader, complete);
  const chunks: AsyncIterable<string | Uint8Array> | Array<string | Uint8Array> =
    typeof input === 'string' || input instanceof Uint8Array ? [input] : (input as AsyncIterable<string | Uint8Array>);
  try {
    for await (const chunk of chunks) {
      signal?.throwIfAborted();
      const parser = lines.write(chunk);
      if (parser?.destroyed) break; // malformed: end() reports csv-parse's error without reading the rest
      // events.once rejects when the parser fails while we wait, so a bad body cannot hang the read.
      if (parser?.writableNeedDrain) await once(parser, 'drain');
      afterChunk?.();
      if (yieldEach) await setImmediate();
    }
    signal?.throwIfAborted();
    await lines.end();
  } catch (e) {
    throw malformed(e);
  }
}

/**
 * csv-parse's own errors as a MalformedReplyError: callers never see the parser's codes. By class, not by
 * code: one of them (INVALID_OPENING_QUOTE) has no CSV_ prefix.
 */
function malformed(e: unknown): unknown {
  if (!(e instanceof CsvError)) return e;
  if (e.code === 'CSV_MAX_RECORD_SIZE') return lineTooLong();
  return new MalformedReplyError(e.message, { cause: e });
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const BOM = [0xef, 0xbb, 0xbf];

/**
 * The fast path: service csv-wide is numbers, ISO times, ids and statuses, without quotes, so a line
 * splits on commas. Lines are read as bytes (no decoded text, no string per cell: numbers and times are
 * parsed from the bytes, repeated ids found by their bytes). At the first line with a quote or a bare
 * carriage return, the rest of the body is decoded and goes through csv-parse, which handles quoting
 * (embedded commas, quotes and newlines) and reports malformed input.
 */
class PlainLines {
  /** Decodes the text handed to csv-parse (a BOM there is content: the body's BOM is gone by then). */
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /**
   * The start of a line that has no line end yet. Emptied in place (length = 0), never replaced by a
   * fresh []: a fresh array starts with small-integer elements, and pushing a Buffer into it from the
   * optimized line loop deoptimized that loop ("not a Smi") up to 17 times in one 96 MB read, each time
   * throwing away its compiled code and the reader's inlined into it.
   */
  private readonly tail: Buffer[] = [];
  /** The bytes in `tail` (at most MAX_LINE_BYTES: a longer line is refused). */
  private tailBytes = 0;
  /** The first bytes, until there are enough to strip a BOM; undefined once the start is read. */
  private head: Buffer[] | undefined = [];
  private parser: Parser | undefined;
  private readonly block = new Int32Array(2 * LINES_PER_BLOCK);
  private done: Promise<void> | undefined;

  /** The last byte taken (to know whether the body ended with a line end); -1 before any. */
  private last = -1;

  constructor(
    private readonly reader: CsvWideReader,
    private readonly complete: boolean,
  ) {}

  /** Takes a chunk; returns csv-parse once it has taken over (for backpressure). */
  write(chunk: string | Uint8Array): Parser | undefined {
    if (!chunk.length) return this.parser;
    if (this.parser) {
      this.last = typeof chunk === 'string' ? chunk.charCodeAt(chunk.length - 1) : chunk[chunk.length - 1];
      this.parser.write(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
      return this.parser;
    }
    let buf = this.bytes(chunk);
    this.last = buf[buf.length - 1];
    if (this.head) {
      this.head.push(buf);
      buf = Buffer.concat(this.head);
      if (buf.length < 2 * BOM.length) return undefined;
      buf = withoutBoms(buf);
      this.head = undefined;
    }
    if (this.tail.length) {
      const nl = buf.indexOf(LF);
      if (nl < 0) {
        this.keep(buf);
        return undefined;
      }
      if (this.tailBytes + nl > MAX_LINE_BYTES + 1) throw lineTooLong();
      const line = Buffer.concat([...this.tail, buf.subarray(0, nl + 1)]);
      this.tail.length = 0;
      this.tailBytes = 0;
      const parser = this.lines(line);
      if (parser) return this.toParser(buf.subarray(nl + 1));
      buf = buf.subarray(nl + 1);
    }
    return this.lines(buf);
  }

  async end(): Promise<void> {
    if (this.head) {
      const start = withoutBoms(Buffer.concat(this.head));
      this.head = undefined;
      if (start.length) this.lines(start);
    }
    if (this.parser) this.toParser(undefined);
    if (this.complete && this.last !== -1 && this.last !== LF && !this.parser?.destroyed) {
      this.parser?.destroy();
      throw new IncompleteReplyError('the last line has no line end (the reply was cut short)');
    }
    if (!this.parser && this.tail.length) {
      const last = Buffer.concat(this.tail);
      this.tail.length = 0;
      this.tailBytes = 0;
      if (last.includes(QUOTE) || last.includes(CR)) this.handOver(last);
      else this.reader.addLine(last, 0, last.length);
    }
    if (this.parser) {
      this.parser.end();
      await this.done;
    }
  }

  /** A chunk as a Buffer; the first text chunk loses its BOM (text input has no byte BOM to strip). */
  private bytes(chunk: string | Uint8Array): Buffer {
    if (typeof chunk !== 'string') {
      return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    if (this.head) {
      this.head = undefined;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    return Buffer.from(chunk, 'utf8');
  }

  /** Reads the whole lines of buf, keeps the rest for the next chunk; csv-parse once a line needs it. */
  private lines(buf: Buffer): Parser | undefined {
    const quote = buf.indexOf(QUOTE);
    let cr = buf.indexOf(CR);
    let start = 0;
    // The lines found and not yet read: [start, end) pairs, handed to the reader LINES_PER_BLOCK at a time.
    const block = this.block;
    let count = 0;
    // Only a buffer longer than the limit can hold a line longer than it (a body read whole).
    const long = buf.length > MAX_LINE_BYTES;
    for (;;) {
      const nl = buf.indexOf(LF, start);
      if (nl < 0) break;
      if (long && nl - start > MAX_LINE_BYTES + 1) throw lineTooLong();
      // A quote in the line, or a carriage return other than the one ending it (CRLF).
      if ((quote >= 0 && quote < nl) || (cr >= 0 && cr < nl - 1)) {
        if (count > 0) this.reader.addLines(buf, block, 0, count);
        return this.handOver(buf.subarray(start));
      }
      const end = nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
      if (end > start) {
        block[2 * count] = start;
        block[2 * count + 1] = end;
        if (++count === LINES_PER_BLOCK) {
          this.reader.addLines(buf, block, 0, count);
          count = 0;
        }
      }
      start = nl + 1;
      if (cr >= 0 && cr < start) cr = buf.indexOf(CR, start);
    }
    if (count > 0) this.reader.addLines(buf, block, 0, count);
    // Copied: the source may reuse its buffer once the chunk is taken.
    if (start < buf.length) this.keep(Buffer.from(buf.subarray(start)));
    return undefined;
  }

  /** Holds the start of a line that has no line end yet; a line past MAX_LINE_BYTES is refused. */
  private keep(bytes: Buffer): void {
    this.tailBytes += bytes.length;
    if (this.tailBytes > MAX_LINE_BYTES + 1) throw lineTooLong();
    this.tail.push(bytes);
  }

  /** Decoded bytes (or the decoder's last characters) to csv-parse. */
  private toParser(bytes: Buffer | undefined): Parser {
    const parser = this.parser!;
    const text = bytes ? this.decoder.decode(bytes, { stream: true }) : this.decoder.decode();
    if (text) parser.write(text);
    return parser;
  }

  private handOver(bytes: Buffer): Parser {
    const parser = parse({
      relax_column_count: !this.complete,
      skip_empty_lines: true,
      // Characters of a record (a quoted field, a line): as for plain lines, a longer one is refused.
      max_record_size: MAX_LINE_BYTES,
    });
    const reader = this.reader;
    this.done = new Promise<void>((resolve, reject) => {
      parser.on('readable', () => {
        let record: string[] | null;
        try {
          // biome-ignore lint/suspicious/noAssignInExpressions: the stream read loop
          while ((record = parser.read() as string[] | null) !== null) reader.add(record);
        } catch (e) {
          parser.destroy(e as Error);
        }
      });
      parser.once('end', resolve);
      parser.once('error', (e: Error & { code?: string }) =>
        reject(this.complete && e.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' ? wrongFieldCount(e.message) : e),
      );
    });
    this.done.catch(() => undefined);
    this.parser = parser;
    return this.toParser(bytes);
  }
}

/** buf without its leading byte order marks: the decoder's and the reader's own (at most two). */
function withoutBoms(buf: Buffer): Buffer {
  let start = 0;
  for (let k = 0; k < 2 && buf[start] === BOM[0] && buf[start + 1] === BOM[1] && buf[start + 2] === BOM[2]; k++) {
    start += BOM.length;
  }
  return start ? buf.subarray(start) : buf;
}
