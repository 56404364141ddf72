// A notebook's parameters: its one params cell (a second one is an error) and the values of a run (the
// defaults, or values given by name: `measnb run --param`, Run with Parameters…). Pure.
import { type Diagnostic, range } from './diagnostics';
import { scanLines, words } from './lines';
import { type ParamDef, type ParamValue, paramValues, parseParamLines } from './params';

interface NotebookParams {
  /** The parameters of the first params cell (its well-formed lines; the cell reports the others). */
  defs: ParamDef[];
  /** Index (among the texts given) of the params cell, if any. */
  index?: number;
  /** Per text: the error of a second params cell. */
  diagnostics: Diagnostic[][];
}

/** Whether a cell's verb line is `params`. */
export function isParamsCell(text: string): boolean {
  const first = scanLines(text).find((l) => l.code.trim() !== '');
  return first !== undefined && words(first.code)[0]?.text === 'params';
}

/** The params cell among a notebook's code cells' texts (the first one), and errors on any later one. */
export function notebookParams(texts: readonly string[]): NotebookParams {
  const out: NotebookParams = { defs: [], diagnostics: texts.map(() => []) };
  texts.forEach((text, i) => {
    if (!isParamsCell(text)) return;
    const lines = scanLines(text);
    const verb = lines.findIndex((l) => l.code.trim() !== '');
    if (out.index === undefined) {
      out.index = i;
      out.defs = parseParamLines(lines.slice(verb + 1), []);
      return;
    }
    const w = words(lines[verb].code)[0];
    out.diagnostics[i].push({
      severity: 'error',
      code: 'duplicate-params',
      message: `A notebook has one params cell: cell ${(out.index as number) + 1} declares the parameters; move these lines there`,
      range: range(verb, w.start, w.end),
    });
  });
  return out;
}

/** The values of a run of these texts: defaults, and `given` by name (unknown names and bad values are errors). */
export function notebookParamValues(
  texts: readonly string[],
  given: Readonly<Record<string, string>> = {},
): { values: Map<string, ParamValue>; errors: string[]; defs: ParamDef[] } {
  const { defs } = notebookParams(texts);
  return { ...paramValues(defs, given), defs };
}
