// The text of a cell: a file (a .measq cell, or a .measnb notebook with one code cell) or -e text.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/api/errors';
import { type Notebook, readNotebook } from '../core/notebook';

interface CellSource {
  text: string;
  /** For error lines: the file name, or "-e". */
  label: string;
  /** Line of the cell's first line in the file (notebook cells start elsewhere). */
}

export async function readCellSource(file: string | undefined, expr: string | undefined): Promise<CellSource> {
  if (file && expr !== undefined) throw new UsageError('Give either a file or -e "<cell text>", not both.');
  if (expr !== undefined) return { text: expr, label: '-e' };
  if (!file) throw new UsageError('Give a cell file, or the cell text with -e "<cell text>".');
  if (file.endsWith('.measnb')) {
    const code = (await readNotebookFile(file)).cells.filter((c) => c.kind === 'code');
    if (code.length !== 1) {
      throw new UsageError(
        `${file} has ${code.length} code cells; \`measnb query\` runs one cell (use \`measnb run\` for a notebook).`,
      );
    }
    return { text: code[0].source, label: `${file}#cell` };
  }
  return { text: await readInputFile(file), label: file };
}

/** A file named on the command line, or a usage error (exit 2) saying why it cannot be read. */
async function readInputFile(file: string): Promise<string> {
  return new TextDecoder().decode(await readInputBytes(file));
}

async function readInputBytes(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (e) {
    throw new UsageError(`Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * A .measnb file named on the command line, read by the core's one reader (as the extension reads it: a
 * byte order mark skipped), or a NotebookFormatError when it is not one.
 */
export async function readNotebookFile(file: string): Promise<Notebook> {
  return readNotebook(await readInputBytes(file));
}
