// "Run with Parameters…" (notebook toolbar and command): asks for each parameter of the notebook's params
// cell (its default prefilled, its type shown, checked as typed by the core's reader), then runs every cell
// with those values. Run All uses the defaults. The values are this run's only; each output names them.
import * as vscode from 'vscode';
import { LANGUAGE_ID } from '../../core/query';
import { notebookParams } from '../../core/query/notebook-params';
import { type ParamDef, paramValues, readParamValue } from '../../core/query/params';
import { inputText } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';
import type { MeasnbController } from './controller';
import { NOTEBOOK_TYPE } from './serializer';

export const RUN_WITH_PARAMS_COMMAND = 'measurements.notebook.runWithParameters';

/** The parameters of a notebook: its (first) params cell's. */
function notebookParamDefs(nb: vscode.NotebookDocument): ParamDef[] {
  const texts = nb
    .getCells()
    .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === LANGUAGE_ID)
    .map((c) => c.document.getText());
  return notebookParams(texts).defs;
}

/** The values of a run: the defaults, with `given` in their place (already checked by their types). */
export function runParamValues(nb: vscode.NotebookDocument, given: Readonly<Record<string, string>> = {}) {
  return paramValues(notebookParamDefs(nb), given).values;
}

/** Asks for each parameter in turn; undefined when the user cancels. */
async function askValues(defs: readonly ParamDef[]): Promise<Record<string, string> | undefined> {
  const given: Record<string, string> = {};
  for (const [i, d] of defs.entries()) {
    const text = await inputText({
      title: 'Run with Parameters',
      step: i + 1,
      totalSteps: defs.length,
      prompt: `${d.name} (${d.type}; default ${d.default.text})`,
      value: d.default.text,
      validate: (t) => {
        const v = readParamValue(d.type, t);
        return 'error' in v ? v.error : undefined;
      },
    });
    if (text === undefined) return undefined;
    given[d.name] = text;
  }
  return given;
}

async function runWithParameters(controller: MeasnbController, uri?: vscode.Uri): Promise<boolean> {
  const nb = uri
    ? vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString())
    : vscode.window.activeNotebookEditor?.notebook;
  if (!nb || nb.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a Measurements notebook (.measnb) first.');
  const defs = notebookParamDefs(nb);
  if (!defs.length)
    throw new Error("This notebook has no parameters: add a 'params' cell with one 'name: default' line each.");
  const given = await askValues(defs);
  if (!given) return false;
  await controller.runAll(nb, runParamValues(nb, given));
  return true;
}

export function registerRunWithParameters(controller: MeasnbController): vscode.Disposable {
  return registerCommand(RUN_WITH_PARAMS_COMMAND, (uri?: vscode.Uri) =>
    runWithParameters(controller, uri instanceof vscode.Uri ? uri : undefined),
  );
}
