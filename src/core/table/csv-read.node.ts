// csv-wide -> Table, streamed and read by its header (any column order; unknown columns kept; empty
// cells stay empty). Plain lines split on commas; quoted content goes through csv-parse. Cells go
// straight into column builders: no object per row.

import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import { type Parser, parse } from 'csv-parse';
import { IncompleteReplyError } from '../api/errors';
import { builderFor, type ColumnBuilder, demoteToText, InferredNumberBuilder } from './builders';
import { type ColumnInfo, classifyColumn } from './column-kinds';
import type { Table } from './table';

export type CsvInput = string | Uint8Array | NodeJS.ReadableStream | AsyncIterable<string | Uint8Array>;

export interface CsvReadOptions {
  /**
   * The body is a service reply that must be whole (recent query, continuation): a last line without its
   * line end, or a row whose field count differs from the header's, means the reply was cut short, and
   * reading fails with IncompleteReplyError instead of building a table from a fragment. Without it
   * (report files), short rows are padded with empty cells.
   */
  complete?: boolean;
}

export interface CsvHeadOptions {
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
 * is streamed through and counted). Short rows are padded as for report files.
 */
export async function readCsvWideHead(
  input: CsvInput,
  options: CsvHeadOptions,
): Promise<{ table: Table; totalRows: number }> {
  const reader = new CsvWideReader(false, options.maxRows, options.onFirstRows);
  await readInto(reader, input, false, options.signal, true);
  return { table: reader.finish(), totalRows: reader.totalRows };
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
) {
  const lines = new PlainLines(reader, complete);
  const chunks: AsyncIterable<string | Uint8Array> | Array<string | Uint8Array> =
    typeof input === 'string' || input instanceof Uint8Array ? [input] : (input as AsyncIterable<string | Uint8Array>);
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    const parser = lines.write(chunk);
    if (parser?.destroyed) break; // malformed: end() reports csv-parse's error without reading the rest
    // events.once rejects when the parser fails while we wait, so a bad body cannot hang the read.
    if (parser?.writableNeedDrain) await once(parser, 'drain');
    if (yieldEach) await setImmediate();
  }
  signal?.throwIfAborted();
  await lines.end();
}

/**
 * The fast path: service csv-wide is numbers, ISO times, ids and statuses, without quotes, so a line
 * splits on commas (native split, several times faster than a general CSV parser). At the first line
 * with a quote or a bare carriage return, the rest of the body goes through csv-parse, which handles
 * quoting (embedded commas, quotes and newlines) and reports malformed input.
 */
class PlainLines {
  private readonly decoder = new TextDecoder('utf-8');
  private rest = '';
  private first = true;
  private parser: Parser | undefined;
  private done: Promise<void> | undefined;

  /** The last character taken (to know whether the body ended with a line end). */
  private last = '';

  constructor(
    private readonly reader: CsvWideReader,
    private readonly complete: boolean,
  ) {}

  /** Takes a chunk; returns csv-parse once it has taken over (for backpressure). */
  write(chunk: string | Uint8Array): Parser | undefined {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (text.length) this.last = text[text.length - 1];
    if (this.first && text.length) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.parser) {
      this.parser.write(text);
      return this.parser;
    }
    const buf = this.rest + text;
    const quote = buf.indexOf('"');
    const hasCr = buf.indexOf('\r') >= 0;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf('\n', start);
      if (nl < 0) break;
      if ((quote >= 0 && quote < nl) || (hasCr && this.hasBareCr(buf, start, nl))) {
        this.rest = '';
        return this.handOver(buf.slice(start));
      }
      const end = buf.charCodeAt(nl - 1) === 13 && nl > start ? nl - 1 : nl;
      if (end > start) {
        if (this.reader.full) this.reader.skip();
        else this.reader.add(buf.slice(start, end).split(','));
      }
      start = nl + 1;
    }
    this.rest = start ? buf.slice(start) : buf;
    return undefined;
  }

  async end(): Promise<void> {
    const tail = this.decoder.decode();
    if (tail) this.write(tail);
    if (this.complete && this.last !== '' && this.last !== '\n' && !this.parser?.destroyed) {
      this.parser?.destroy();
      throw new IncompleteReplyError('the last line has no line end (the reply was cut short)');
    }
    if (!this.parser) {
      const last = this.rest;
      this.rest = '';
      if (last.includes('"') || last.includes('\r')) this.handOver(last);
      else if (last.length) this.reader.add(last.split(','));
    }
    if (this.parser) {
      this.parser.end();
      await this.done;
    }
  }

  /** A carriage return in [start, nl) other than the one ending the line (CRLF). */
  private hasBareCr(buf: string, start: number, nl: number): boolean {
    const cr = buf.indexOf('\r', start);
    return cr >= 0 && cr < nl - 1;
  }

  private handOver(text: string): Parser {
    const parser = parse({ relax_column_count: !this.complete, skip_empty_lines: true });
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
    parser.write(text);
    return parser;
  }
}

/** Column indices and builders of one builder class, so each inner loop has a single call target. */
interface Group {
  cols: number[];
  builders: ColumnBuilder[];
}

function wrongFieldCount(detail: string): IncompleteReplyError {
  return new IncompleteReplyError(`a row has another number of fields than the header (${detail.slice(0, 120)})`);
}

/** Accepts records (header first) and builds the columns. */
export class CsvWideReader {
  /**
   * strict: a row with another field count than the header's is an incomplete reply, not a padded row.
   * maxRows: rows past it are counted (totalRows), not kept; onFirstRows gets the kept rows at the first one.
   */
  constructor(
    private readonly strict = false,
    private readonly maxRows = Number.POSITIVE_INFINITY,
    private readonly onFirstRows?: (table: Table) => void,
  ) {}

  private headers: string[] | undefined;
  private infos: ColumnInfo[] = [];
  private builders: ColumnBuilder[] = [];
  private groups: Group[] = [];
  private rows = 0;
  private skipped = 0;
  private head: Table | undefined;

  /** maxRows rows are kept: the rest is only counted (skip()). */
  get full(): boolean {
    return this.headers !== undefined && this.rows >= this.maxRows;
  }

  /** Every data row seen, kept or not. */
  get totalRows(): number {
    return this.rows + this.skipped;
  }

  /** Counts a data row past maxRows without reading its cells. */
  skip(): void {
    if (this.skipped++ === 0 && this.onFirstRows) this.onFirstRows(this.finish());
  }

  add(record: string[]): void {
    if (this.full) {
      this.skip();
      return;
    }
    if (!this.headers) {
      this.headers = record;
      this.infos = record.map(classifyColumn);
      // Unknown columns start as numbers and demote to text at the first cell that is not one.
      this.builders = this.infos.map((i) => (i.inferred ? new InferredNumberBuilder() : builderFor(i.kind)));
      this.regroup();
      return;
    }
    const n = this.builders.length;
    if (this.strict && record.length !== n) {
      throw wrongFieldCount(`${record.length} fields, the header has ${n}`);
    }
    if (record.length >= n) {
      const groups = this.groups;
      for (let g = 0; g < groups.length; g++) {
        const { cols, builders } = groups[g];
        for (let k = 0; k < cols.length; k++) {
          if (!builders[k].push(record[cols[k]])) this.demote(cols[k], record[cols[k]]);
        }
      }
    } else {
      // Short row: missing cells are empty.
      for (let c = 0; c < n; c++) {
        const b = this.builders[c];
        if (c >= record.length) b.pushEmpty(1);
        else if (!b.push(record[c])) this.demote(c, record[c]);
      }
    }
    this.rows++;
  }

  /** A cell that does not fit its column's kind turns the column into text; its cells so far are kept. */
  private demote(c: number, cell: string): void {
    const text = demoteToText(this.builders[c]);
    text.push(cell);
    this.builders[c] = text;
    this.regroup();
  }

  private regroup(): void {
    const byClass = new Map<unknown, Group>();
    this.builders.forEach((b, c) => {
      let g = byClass.get(b.constructor);
      if (!g) {
        g = { cols: [], builders: [] };
        byClass.set(b.constructor, g);
      }
      g.cols.push(c);
      g.builders.push(b);
    });
    this.groups = [...byClass.values()];
  }

  finish(): Table {
    if (this.head) return this.head;
    const headers = this.headers ?? [];
    const columns = this.builders.map((b, i) => {
      const info = this.infos[i];
      return b.finish({ name: headers[i], canonical: info.canonical, metric: info.metric });
    });
    const table = { columns, rowCount: this.rows };
    // Once full, the builders take no more cells: the columns are final (and finished only once).
    if (this.full) this.head = table;
    return table;
  }
}
