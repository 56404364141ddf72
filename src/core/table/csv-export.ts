// Table -> csv-wide text, whole or in chunks (so a million rows never sit in one string).

import { csvField } from './csv-write';
import { type Column, cellText, type Table } from './table';

export interface CsvExportOptions {
  /** Column headers: as the service sent them (default) or canonical names where known. */
  header?: 'name' | 'canonical';
  /** Rows per chunk of tableCsvChunks (default 5000). */
  rowsPerChunk?: number;
}

function headerOf(c: Column, style: CsvExportOptions['header']): string {
  return style === 'canonical' ? (c.canonical ?? c.name) : c.name;
}

/** The CSV in chunks of rows: the header line first, then blocks of rows. */
export function* tableCsvChunks(table: Table, options: CsvExportOptions = {}): Generator<string> {
  const cols = table.columns;
  yield `${cols.map((c) => csvField(headerOf(c, options.header))).join(',')}\n`;
  const per = Math.max(1, options.rowsPerChunk ?? 5000);
  for (let start = 0; start < table.rowCount; start += per) {
    const end = Math.min(table.rowCount, start + per);
    let out = '';
    for (let r = start; r < end; r++) {
      for (let c = 0; c < cols.length; c++) {
        if (c) out += ',';
        out += csvField(cellText(cols[c], r));
      }
      out += '\n';
    }
    yield out;
  }
}

export function tableToCsv(table: Table, options: CsvExportOptions = {}): string {
  let out = '';
  for (const chunk of tableCsvChunks(table, options)) out += chunk;
  return out;
}
