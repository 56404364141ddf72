// Measurements: Export Sensor Evaluation Report… on a cell's result: asks the metric, the sensor and the
// reference (the Collocation view's defaults first: a 1-hour or 24-hour PM2.5 mean, the first sensor that is
// not a reference site, its nearest reference site) and the format, then writes EPA's sensor performance report
// (core/notebook/export/evaluation-report) as HTML or Markdown. Tests pass every answer as arguments.
import * as vscode from 'vscode';
import {
  cellEvaluationSource,
  evaluationReport,
  evaluationReportHtml,
  evaluationReportMarkdown,
} from '../../core/notebook/export/evaluation-report';
import { chartMetricColumns } from '../../core/table/chart-columns';
import { collocationChoice } from '../../core/table/collocation';
import { registerCommand } from '../ui/register-command';
import { cellFrom, notebookOf } from './notebook-commands';
import { writeUri } from './write-uri';

const EVALUATION_REPORT_COMMAND = 'measurements.notebook.exportEvaluationReport';

interface EvaluationArgs {
  cell?: vscode.NotebookCell;
  sensor?: string;
  reference?: string;
  metric?: string;
  format?: 'html' | 'md';
  target?: vscode.Uri;
}

/** A quick pick of `items`, `first` on top and marked as the default; undefined when dismissed. */
async function pick(title: string, items: string[], first: string, describe?: (i: string) => string) {
  const ordered = [first, ...items.filter((i) => i !== first)];
  const picked = await vscode.window.showQuickPick(
    ordered.map((label) => ({
      label,
      description: [label === first ? 'default' : '', describe?.(label) ?? ''].filter(Boolean).join(' · '),
    })),
    { title },
  );
  return picked?.label;
}

/** The answers not given as arguments, asked in order; undefined when one is dismissed. */
async function ask(args: EvaluationArgs, source: NonNullable<ReturnType<typeof cellEvaluationSource>>) {
  const { table } = source;
  const all = Uint32Array.from({ length: table.rowCount }, (_, i) => i);
  const start = collocationChoice(table, all, { referenceSites: source.referenceSites, sensor: args.sensor });
  if (!start) throw new Error('This result needs rows of two datasources (a sensor and a reference) for a report.');
  const metrics = chartMetricColumns(table).map((c) => table.columns[c].name);
  const metric =
    args.metric ?? (await pick('Evaluation report: metric', metrics, table.columns[start.metric]?.name ?? metrics[0]));
  const sensor = metric && (args.sensor ?? (await pick('Evaluation report: sensor', start.sensors, start.sensor)));
  if (!sensor) return undefined;
  const choice = collocationChoice(table, all, { referenceSites: source.referenceSites, sensor });
  const near = choice?.nearest;
  const reference =
    args.reference ??
    (await pick('Evaluation report: reference', choice?.references ?? [], choice?.reference ?? '', (r) =>
      r === near?.reference
        ? `nearest reference site, ${near.km.toFixed(3)} km`
        : (source.datasourceNames.get(r) ?? ''),
    ));
  if (!reference) return undefined;
  const format =
    args.format ??
    (
      await vscode.window.showQuickPick(
        [
          { label: 'HTML', format: 'html' as const },
          { label: 'Markdown', format: 'md' as const },
        ],
        { title: 'Evaluation report: format' },
      )
    )?.format;
  return format ? { metric, sensor, reference, format } : undefined;
}

async function exportEvaluation(arg?: vscode.NotebookCell | EvaluationArgs): Promise<vscode.Uri | undefined> {
  const args: EvaluationArgs =
    arg && 'document' in arg ? { cell: arg as vscode.NotebookCell } : ((arg as EvaluationArgs) ?? {});
  const cell = cellFrom(args.cell);
  const codeNumber = cell.notebook
    .getCells()
    .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.index <= cell.index).length;
  const source = cellEvaluationSource(notebookOf(cell.notebook), codeNumber);
  if (!source) throw new Error('This cell has no table to evaluate: run it first.');
  const answers = await ask(args, source);
  if (!answers) return undefined;
  const name = cell.notebook.uri.path.split('/').pop() ?? 'notebook.measnb';
  const report = evaluationReport({
    ...source,
    ...answers,
    source: `${name}, code cell ${codeNumber} (${source.table.rowCount.toLocaleString('en-US')} rows of its output)`,
  });
  const ext = answers.format === 'md' ? 'md' : 'html';
  const target =
    args.target ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(
        cell.notebook.uri,
        '..',
        `${name.replace(/\.measnb$/i, '')}-evaluation-${report.sensor}.${ext}`,
      ),
      filters: { [ext === 'md' ? 'Markdown' : 'HTML']: [ext] },
    }));
  if (!target) return undefined;
  const text = ext === 'md' ? evaluationReportMarkdown(report) : evaluationReportHtml(report);
  await writeUri(target, new TextEncoder().encode(text));
  if (!args.target)
    void vscode.window
      .showInformationMessage(`Evaluation report written to ${target.path.split('/').pop()}.`, 'Open')
      .then((a) => {
        if (a === 'Open') void vscode.commands.executeCommand('vscode.open', target);
      });
  return target;
}

export function registerEvaluationExport(): vscode.Disposable {
  return registerCommand(EVALUATION_REPORT_COMMAND, exportEvaluation);
}
