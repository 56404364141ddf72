// Actions on a report of the Reports view that make something new from its request: Re-run (the same
// request with new dates, asked for as in Create Report), Open as Notebook Cell (the request as a
// `report` cell in a new notebook or the active one), and the toggle between the active connection's
// reports and every connection's, grouped.
import * as vscode from 'vscode';
import type { ReportRecord, ReportRequest } from '../../core/api/types';
import { describeIssues, validateReportRequest } from '../../core/api/validate';
import { reportCellText } from '../../core/query/report-cell';
import { reportRequestFromRecord } from '../../core/reports/request-echo';
import { type Clock, nowDate } from '../../core/time/clock';
import type { Connection } from '../connections/connection';
import { notebookConnection, orgOf, setNotebookConnection } from '../notebook/notebook-connection';
import { NOTEBOOK_TYPE } from '../notebook/serializer';
import { SHOW_ALL_CONNECTIONS } from '../reports/reports-tree';
import type { TrackedReport } from '../reports/tracked-report';
import type { ExtensionServices } from '../services';
import { MultiStep, pickOne, type Step } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';
import { endTimeProblem, quotaAllows, submitReport, timeProblem, wireTime } from './create-report';
import { pickReport } from './report-commands';

type ReportArg = { report: TrackedReport } | undefined;
/** Where Open as Notebook Cell puts the cell (asked when a measnb notebook is active). */
type CellTarget = 'new' | 'active';

/** The tracked report's request, or undefined after saying why it cannot be read back. */
function requestOf(s: ExtensionServices, t: TrackedReport): ReportRequest | undefined {
  const connection = s.connections.get(t.connectionId);
  if (!connection) {
    void vscode.window.showErrorMessage(`Report ${t.reportId}: its connection was removed.`);
    return undefined;
  }
  const r = reportRequestFromRecord(t.record, connection.org);
  if ('error' in r) {
    void vscode.window.showErrorMessage(`Report ${t.reportId} cannot be reused: ${r.error}.`);
    return undefined;
  }
  return r.request;
}

/** Asks for new dates (Back between the two), checked as Create Report checks them. */
async function askReportDates(title: string, was: { startTime: string; endTime: string }, now: Date) {
  const a = { ...was };
  const end: Step = async (flow) => {
    a.endTime = await flow.input({
      prompt: `endTime of the new report (was ${was.endTime}). As in cells: 2026-11-02, today, now, -1h.`,
      value: a.endTime,
      validate: (t) => endTimeProblem(t, a.startTime, now),
    });
    return undefined;
  };
  const start: Step = async (flow) => {
    a.startTime = await flow.input({
      prompt: `startTime of the new report (was ${was.startTime}). As in cells: 2026-11-01, today, -1d, -6h.`,
      value: a.startTime,
      validate: timeProblem,
    });
    return end;
  };
  return (await MultiStep.run(title, 2, start)) ? a : undefined;
}

/** Re-run: the report's request with new dates, sent on the report's connection; the new report is tracked. */
async function rerunReport(
  s: ExtensionServices,
  t: TrackedReport,
  clock: Clock = s.clock,
): Promise<ReportRecord | undefined> {
  const request = requestOf(s, t);
  const connection = s.connections.get(t.connectionId);
  if (!request || !connection) return undefined;
  const title = `Re-run report ${t.reportId} (${connection.name})`;
  const dates = await askReportDates(title, request, nowDate(clock));
  if (!dates) return undefined;
  if (!(await quotaAllows(s, connection.id, request.org))) return undefined;
  const now = nowDate(clock);
  const next = { ...request, startTime: wireTime(dates.startTime, now), endTime: wireTime(dates.endTime, now) };
  const issues = validateReportRequest(next);
  if (issues.length) {
    void vscode.window.showErrorMessage(`The report request is not valid: ${describeIssues(issues)}`);
    return undefined;
  }
  return submitReport(s, next, connection.id);
}

/**
 * Open as Notebook Cell: the request as a `report` cell, in a new notebook (on the report's connection)
 * or the active one. A cell runs on its notebook's connection: when the active notebook's is another one,
 * it asks (switch the notebook to the report's connection, or a new notebook); never sent elsewhere silently.
 */
async function openReportAsCell(
  s: ExtensionServices,
  t: TrackedReport,
  target?: CellTarget,
): Promise<vscode.NotebookCell | undefined> {
  const request = requestOf(s, t);
  const connection = s.connections.get(t.connectionId);
  if (!request || !connection) return undefined;
  const comment = `Report ${t.reportId} (${t.record.reportStatus}); running this cell creates a new report`;
  const active = vscode.window.activeNotebookEditor;
  const ours = active?.notebook.notebookType === NOTEBOOK_TYPE ? active : undefined;
  let where = target ?? (ours ? await askTarget(ours) : 'new');
  if (where === 'active' && ours && notebookConnection(ours.notebook, s.connections).id !== connection.id) {
    where = await askConnectionMismatch(s, ours, t, connection);
  }
  if (!where) return undefined;
  if (where === 'active' && ours) {
    // The org comes from the notebook (its own, else its connection's) unless the report's was another one.
    const org = orgOf(ours.notebook) || connection.org;
    const text = reportCellText(request, { comment, omitOrg: request.org === org });
    return appendCell(ours, new vscode.NotebookCellData(vscode.NotebookCellKind.Code, text, 'measq'));
  }
  const text = reportCellText(request, { comment, omitOrg: request.org === connection.org });
  const data = new vscode.NotebookData([new vscode.NotebookCellData(vscode.NotebookCellKind.Code, text, 'measq')]);
  data.metadata = { connection: connection.name };
  const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
  await vscode.window.showNotebookDocument(doc);
  return doc.cellAt(0);
}

async function appendCell(editor: vscode.NotebookEditor, cell: vscode.NotebookCellData): Promise<vscode.NotebookCell> {
  const nb = editor.notebook;
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(nb.cellCount, [cell])]);
  await vscode.workspace.applyEdit(edit);
  const range = new vscode.NotebookRange(nb.cellCount - 1, nb.cellCount);
  editor.selections = [range];
  editor.revealRange(range);
  return nb.cellAt(nb.cellCount - 1);
}

/** The active notebook runs on another connection than the report's: switch it, or a new notebook. */
async function askConnectionMismatch(
  s: ExtensionServices,
  editor: vscode.NotebookEditor,
  t: TrackedReport,
  connection: Connection,
): Promise<CellTarget | undefined> {
  const current = notebookConnection(editor.notebook, s.connections);
  const picked = await pickOne(
    [
      {
        label: `$(plug) Switch this notebook to ${connection.name}`,
        description: `all its cells then run on ${connection.name}`,
        choice: 'switch' as const,
      },
      { label: `$(notebook) New notebook on ${connection.name}`, choice: 'new' as const },
    ],
    {
      title: `Report ${t.reportId} is from ${connection.name}; this notebook runs on ${current.name}`,
      placeholder: `The cell would create the report on ${current.name}. Switch the notebook, or open a new one?`,
    },
  );
  if (!picked) return undefined;
  if (picked.choice === 'new') return 'new';
  await setNotebookConnection(editor.notebook, connection);
  return 'active';
}

async function askTarget(active: vscode.NotebookEditor): Promise<CellTarget | undefined> {
  const name = active.notebook.uri.path.split('/').pop();
  const picked = await pickOne(
    [
      { label: '$(notebook) New notebook', target: 'new' as const },
      { label: `$(add) Add to ${name}`, description: 'the active notebook', target: 'active' as const },
    ],
    { title: 'Open Report as Notebook Cell' },
  );
  return picked?.target;
}

export function registerReportActions(s: ExtensionServices): vscode.Disposable[] {
  const setShowAll = (on: boolean) =>
    vscode.workspace.getConfiguration().update(SHOW_ALL_CONNECTIONS, on, vscode.ConfigurationTarget.Global);
  return [
    registerCommand('measurements.rerunReport', async (arg?: ReportArg) => {
      const t = arg?.report ?? (await pickReport(s, 'Re-run Report'));
      return t && rerunReport(s, s.reports.get(t.connectionId, t.reportId) ?? t);
    }),
    registerCommand('measurements.openReportAsCell', async (arg?: ReportArg, target?: CellTarget) => {
      const t = arg?.report ?? (await pickReport(s, 'Open Report as Notebook Cell'));
      return t && openReportAsCell(s, s.reports.get(t.connectionId, t.reportId) ?? t, target);
    }),
    registerCommand('measurements.reports.showAllConnections', () => setShowAll(true)),
    registerCommand('measurements.reports.showActiveConnection', () => setShowAll(false)),
  ];
}
