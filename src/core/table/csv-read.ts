// csv-wide -> Table, streamed through csv-parse and read by its header (any column order; unknown
// columns kept; empty cells stay empty). Cells go straight into column builders: no object per row.

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
      if (!parser.write(chunk)) await new Promise<void>((r) => parser.once('drain', r));
    }
    parser.end();
  } catch (e) {
    parser.destroy(e as Error);
  }
}

/** Accepts records (header first) and builds the columns. */
export class CsvWideReader {
  private headers: string[] | undefined;
  private infos: ColumnInfo[] = [];
  private builders: ColumnBuilder[] = [];
  private rows = 0;

  add(record: string[]): void {
    if (!this.headers) {
      this.headers = record;
      this.infos = record.map(classifyColumn);
      // Unknown columns start as numbers and demote to text at the first cell that is not one.
      this.builders = this.infos.map((i) => (i.inferred ? new InferredNumberBuilder() : builderFor(i.kind)));
      return;
    }
    const builders = this.builders;
    const n = builders.length;
    const m = Math.min(record.length, n);
    for (let c = 0; c < m; c++) {
      if (!builders[c].push(record[c])) {
        builders[c] = demoteToText(builders[c]);
        builders[c].push(record[c]);
      }
    }
    for (let c = m; c < n; c++) builders[c].pushEmpty(1); // short row: missing cells are empty
    this.rows++;
  }

  finish(): Table {
    const headers = this.headers ?? [];
    const columns = this.builders.map((b, i) => {
      const info = this.infos[i];
      const meta = { name: headers[i], canonical: info.canonical, metric: info.metric };
      return b.finish(meta);
    });
    return { columns, rowCount: this.rows };
  }
}
