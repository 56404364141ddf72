// `measnb run --param name=value` (the notebook's parameters, checked before any request) and
// `--export report.html|md|ipynb` (the executed notebook as a document, by the core's exporters).

import { InvalidArgumentError } from 'commander';
import { CellError, MeasurementsError } from '../core/api/errors';
import { writeFileViaPart } from '../core/io/part-file.node';
import type { Notebook, NotebookCell } from '../core/notebook';
import { type ExportFormat, exportNotebook } from '../core/notebook/export';
import { LANGUAGE_ID, parseCell } from '../core/query';
import { notebookParamValues } from '../core/query/notebook-params';
import type { ParamValues } from '../core/query/params';
import { nowDate } from '../core/time/clock';
import type { ActionContext } from './action';

/** Commander's collector of repeated `--param name=value`: the last value of a name wins. */
export function collectParam(text: string, given: Record<string, string>): Record<string, string> {
  const at = text.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`write --param name=value, e.g. --param site=DABC1234`);
  return { ...given, [text.slice(0, at)]: text.slice(at + 1) };
}

/** The notebook's measq code cells, with their index among all cells. */
export function codeCells(nb: Notebook): { c: NotebookCell; i: number }[] {
  return nb.cells.flatMap((c, i) => (c.kind === 'code' && c.language === LANGUAGE_ID ? [{ c, i }] : []));
}

/** Diagnostics about parameters: a cell naming one the notebook does not declare, or one of the wrong type. */
const PARAM_CODES = new Set(['unknown-parameter', 'bad-parameter']);

/**
 * The values of this run: the params cell's defaults and the --param values, each checked by its type; then
 * every code cell read with them. An unknown name, a bad value, a cell naming an undeclared parameter: exit 3
 * before any request.
 */
export function runParams(
  ctx: ActionContext,
  file: string,
  nb: Notebook,
  given: Readonly<Record<string, string>>,
): ParamValues {
  const code = codeCells(nb);
  const { values, errors } = notebookParamValues(
    code.map(({ c }) => c.source),
    given,
  );
  if (errors.length) throw new MeasurementsError('INVALID_REQUEST', `--param: ${errors.join('; ')}`);
  const now = nowDate(ctx.clock);
  for (const { c, i } of code) {
    const bad = parseCell(c.source, { now, params: values }).diagnostics.filter((d) => PARAM_CODES.has(d.code));
    if (!bad.length) continue;
    ctx.errorContext.source = `${file}#${i + 1}`;
    throw new CellError(bad);
  }
  return values;
}

/** The executed notebook as a document (HTML, Markdown or .ipynb), through the one writer. */
export async function writeExport(
  ctx: ActionContext,
  nb: Notebook,
  path: string,
  format: ExportFormat,
  title: string,
): Promise<void> {
  await writeFileViaPart(path, exportNotebook(nb, format, { title }));
  ctx.progress.message(`Wrote ${path}`);
}
