// The other side of a csv-wide read split by columns (csv-parallel.node.ts): a reader of the cells
// [from, to) of every line, started with the columns read so far (taken over, not copied), handing its
// columns back at the end. It runs in the worker (csv-worker.node.ts) or, in tests, on the same thread.

import { IncompleteReplyError } from '../api/errors';
import type { BlockColumn, BlockDone, ColumnsInit, LinesBlock } from './csv-blocks';
import { CsvWideReader, readLinesRange } from './csv-wide-reader';

export class ColumnsReader {
  private failed = false;
  private readonly reader: CsvWideReader;
  /** The shared buffers the blocks come in, by slot. */
  private readonly slots: Uint8Array[] = [];

  constructor(
    private readonly init: ColumnsInit,
    columns: readonly BlockColumn[],
  ) {
    this.reader = CsvWideReader.forLines(init.specs, init.strict);
    this.reader.adopt(init.from, columns);
  }

  /**
   * Reads a block of lines (their columns [from, to)); after a failure, blocks are only acknowledged.
   * view: a view of a shared buffer (a node Buffer, whose indexOf finds line ends with memchr).
   */
  lines(m: LinesBlock, view: (bytes: SharedArrayBuffer) => Uint8Array): BlockDone {
    const id = m.id;
    if (m.bytes) this.slots[m.slot] = view(m.bytes);
    if (this.failed) return { type: 'done', id };
    try {
      readLinesRange(this.reader, this.slots[m.slot], m.length, this.init.from, this.init.to);
      return { type: 'done', id };
    } catch (e) {
      this.failed = true;
      if (e instanceof IncompleteReplyError) return { type: 'done', id, incomplete: e.message };
      return { type: 'done', id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
  }

  columns(): BlockColumn[] {
    return this.reader.columns(this.init.from, this.init.to);
  }
}
