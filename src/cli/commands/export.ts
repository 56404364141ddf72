import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../core/api/errors';
import { writeFileViaPart } from '../../core/io/part-file.node';
import { EXPORT_EXTENSIONS, EXPORT_FORMATS, type ExportFormat, exportNotebook } from '../../core/notebook/export';
import { type ActionContext, action } from '../action';
import { readNotebookFile } from '../cell-source';

interface ExportOptions {
  to?: string;
  out?: string;
  maxRows: string;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('Write a .measnb notebook with its saved results as HTML, Markdown or .ipynb')
    .argument('<notebook>', 'the .measnb file (run it first with `measnb run --out` to have results)')
    .option('--to <format>', `${EXPORT_FORMATS.join(' | ')} (default: from --out's extension)`)
    .option('--out <file>', 'where to write (default: the notebook name with the format extension)')
    .option('--max-rows <n>', 'rows of each table written out; the total is always stated', '100')
    .action(action(exportAction));
}

function formatOf(opts: ExportOptions): ExportFormat {
  const wanted =
    opts.to ??
    (opts.out
      ? extname(opts.out)
          .slice(1)
          .replace(/^markdown$/, 'md')
      : undefined);
  if (!wanted)
    throw new UsageError(`Give --to ${EXPORT_FORMATS.join('|')} (or an --out file with one of those extensions).`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(wanted)) {
    throw new UsageError(`--to ${wanted}: expected one of ${EXPORT_FORMATS.join(', ')}.`);
  }
  return wanted as ExportFormat;
}

async function exportAction(ctx: ActionContext, file: string, opts: ExportOptions): Promise<number> {
  const format = formatOf(opts);
  const maxRows = Number(opts.maxRows);
  if (!Number.isInteger(maxRows) || maxRows < 0) throw new UsageError('--max-rows must be a whole number');
  ctx.errorContext.source = file;
  const nb = await readNotebookFile(file);
  const out = opts.out ?? file.replace(/\.measnb$/i, '') + EXPORT_EXTENSIONS[format];
  const doc = exportNotebook(nb, format, { maxRows, title: basename(file) });
  // Exclusive .part (a planted link is not followed), renamed when complete.
  await writeFileViaPart(out, doc);
  ctx.progress.message(`Wrote ${out}`);
  return 0;
}
