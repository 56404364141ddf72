// csv-wide -> Table, streamed through csv-parse and read by its header (any column order; unknown
// columns kept; empty cells stay empty). Cells go straight into column builders: no object per row.

import { once } from 'node:events';
import { type Parser, parse } from 'csv-parse';
import { builderFor, type ColumnBuilder, demoteToText, InferredNumberBuilder } from './builders';
import { type ColumnInfo, classifyColumn } from './column-kinds';
import type { Table } from './table';

export type CsvInput = string | Uint8Array | NodeJS.ReadableStream | AsyncIterable<string | Uint8Array>;

/** Parses csv-wide text (a whole string/buffer or a stream of chunks) into a Table. */
export async function parseCsvWide(input: CsvInput): Promise<Table> {
  const reader = new CsvWideReader();
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  const done = new Promise<void>((resolve, reject) => {
    parser.on('readable', () => {
      let record: string[] | null;
      // biome-ignore lint/suspicious/noAssignInExpressions: the stream read loop
      while ((record = parser.read() as string[] | null) !== null) reader.add(record);
    });
    parser.once('end', resolve);
    parser.once('error', reject);
  });
  await feed(parser, input);
  await done;
  return reader.finish();
}

async function feed(parser: Parser, input: CsvInput): Promise<void> {
  if (typeof input === 'string' || input instanceof Uint8Array) {
    parser.end(input);
    return;
  }
  try {
    for await (const chunk of input as AsyncIterable<string | Uint8Array>) {
      // events.once rejects when the parser fails while we wait, so a bad body cannot hang the read.
      if (!parser.write(chunk)) await once(parser, 'drain');
    }
    parser.end();
  } catch (e) {
    parser.destroy(e as Error);
  }
}

/** Column indices and builders of one builder class, so each inner loop has a single call target. */
interface Group {
  cols: number[];
  builders: ColumnBuilder[];
}

/** Accepts records (header first) and builds the columns. */
export class CsvWideReader {
  private headers: string[] | undefined;
  private infos: ColumnInfo[] = [];
  private builders: ColumnBuilder[] = [];
  private groups: Group[] = [];
  private rows = 0;

  add(record: string[]): void {
    if (!this.headers) {
      this.headers = record;
      this.infos = record.map(classifyColumn);
      // Unknown columns start as numbers and demote to text at the first cell that is not one.
      this.builders = this.infos.map((i) => (i.inferred ? new InferredNumberBuilder() : builderFor(i.kind)));
      this.regroup();
      return;
    }
    const n = this.builders.length;
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
    const headers = this.headers ?? [];
    const columns = this.builders.map((b, i) => {
      const info = this.infos[i];
      return b.finish({ name: headers[i], canonical: info.canonical, metric: info.metric });
    });
    return { columns, rowCount: this.rows };
  }
}
