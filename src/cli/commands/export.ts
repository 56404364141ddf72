import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import { EvaluationReportError, UsageError } from '../../core/api/errors';
import { writeFileViaPart } from '../../core/io/part-file.node';
import { EXPORT_EXTENSIONS, EXPORT_FORMATS, type ExportFormat, exportNotebook } from '../../core/notebook/export';
import {
  evaluationReport,
  evaluationReportHtml,
  evaluationReportMarkdown,
  evaluationSource,
} from '../../core/notebook/export/evaluation-report';
import { type ActionContext, action } from '../action';
import { readNotebookFile } from '../cell-source';

interface ExportOptions {
  to?: string;
  out?: string;
  maxRows: string;
  evaluation?: boolean;
  sensor?: string;
  reference?: string;
  metric?: string;
  cell?: string;
  radius?: string;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('Write a .measnb notebook with its saved results as HTML, Markdown or .ipynb')
    .argument('<notebook>', 'the .measnb file (run it first with `measnb run --out` to have results)')
    .option('--to <format>', `${EXPORT_FORMATS.join(' | ')} (default: from --out's extension)`)
    .option('--out <file>', 'where to write (default: the notebook name with the format extension)')
    .option('--max-rows <n>', 'rows of each table written out; the total is always stated', '100')
    .option(
      '--evaluation',
      "a sensor evaluation report (EPA's template) of one result instead of the notebook (html or md)",
    )
    .option('--sensor <id>', '--evaluation: the sensor datasource (default: the first that is not a reference site)')
    .option('--reference <id>', '--evaluation: the reference (default: the nearest reference site within --radius)')
    .option('--metric <column>', '--evaluation: the metric column (default: a 1-hour or 24-hour PM2.5 mean)')
    .option('--cell <n>', '--evaluation: the code cell whose result to use (default: the first with the sensor)')
    .option('--radius <km>', '--evaluation: how near a reference site must be to count as collocated', '1')
    .action(action(exportAction));
}

/** The format named by --to, else by the output file's extension (`measnb run --export` too). */
export function formatOf(opts: Pick<ExportOptions, 'to' | 'out'>): ExportFormat {
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
  if (opts.evaluation) return evaluationAction(ctx, file, opts);
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

/** `--evaluation`: the evaluation report of one cell's saved result, as HTML or Markdown. */
async function evaluationAction(ctx: ActionContext, file: string, opts: ExportOptions): Promise<number> {
  const format = formatOf(opts);
  if (format === 'ipynb') throw new UsageError('--evaluation writes html or md.');
  const radiusKm = Number(opts.radius);
  if (!(radiusKm >= 0)) throw new UsageError('--radius must be a distance in km (0 or more).');
  const cell = opts.cell === undefined ? undefined : Number(opts.cell);
  if (cell !== undefined && !(Number.isInteger(cell) && cell >= 1))
    throw new UsageError('--cell must be a code cell number (1, 2, …).');
  ctx.errorContext.source = file;
  const nb = await readNotebookFile(file);
  const out = opts.out ?? `${file.replace(/\.measnb$/i, '')}-evaluation${EXPORT_EXTENSIONS[format]}`;
  let doc: string;
  try {
    const found = evaluationSource(nb, { cell, sensor: opts.sensor });
    const report = evaluationReport({
      ...found,
      sensor: opts.sensor,
      reference: opts.reference,
      metric: opts.metric,
      radiusKm,
      source: `${basename(file)}, code cell ${found.cell} (${found.table.rowCount.toLocaleString('en-US')} rows)`,
    });
    doc = format === 'md' ? evaluationReportMarkdown(report) : evaluationReportHtml(report);
  } catch (e) {
    if (e instanceof EvaluationReportError) throw new UsageError(e.message);
    throw e;
  }
  await writeFileViaPart(out, doc);
  ctx.progress.message(`Wrote ${out}`);
  return 0;
}
