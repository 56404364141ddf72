// Table -> CSV into a node stream (the CLI's stdout and files): the chunks of csv-export, with backpressure.
import type { Writable } from 'node:stream';
import { type CsvExportOptions, tableCsvChunks } from './csv-export';
import type { Table } from './table';

/** Writes the CSV to a stream, waiting for drain between chunks (bounded memory). */
export async function writeTableCsv(table: Table, dest: Writable, options: CsvExportOptions = {}): Promise<void> {
  for (const chunk of tableCsvChunks(table, options)) {
    if (!dest.write(chunk)) await new Promise<void>((r) => dest.once('drain', r));
  }
}
