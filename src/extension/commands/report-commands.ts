// Commands of the Reports view: Refresh, Add Report by Id, Download, Open, Open as Table, Reveal,
// Copy Id, Remove from view (one report, or a group's). Each works from the tree (node argument) and from the palette (a pick).
import path from 'node:path';
import * as vscode from 'vscode';
import { isPlainReportId } from '../../core/api/validate';
import type { ReportFiles } from '../reports/report-files';
import { reportState } from '../reports/report-status';
import type { ReportWatcher } from '../reports/report-watcher';
import { describeReport, type TrackedFile, type TrackedReport } from '../reports/tracked-report';
import type { ExtensionServices } from '../services';
import { inputText, pickOne } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';

type ReportArg = { report: TrackedReport } | undefined;
type FileArg = { report: TrackedReport; file?: TrackedFile } | undefined;

export async function pickReport(
  s: ExtensionServices,
  title: string,
  filter: (t: TrackedReport) => boolean = () => true,
) {
  const reports = s.reports.forConnection(s.connections.activeId()).filter(filter);
  if (reports.length === 0) {
    void vscode.window.showInformationMessage('No matching reports in the Reports view.');
    return undefined;
  }
  const items = reports.map((r) => {
    const d = describeReport(r.record);
    return { label: d.label, description: `${d.kind} · ${r.record.reportStatus}`, detail: r.reportId, report: r };
  });
  return (await pickOne(items, { title }))?.report;
}

async function pickFile(s: ExtensionServices, title: string, arg: FileArg) {
  const report = arg?.report ?? (await pickReport(s, title, (t) => reportState(t.record.reportStatus) === 'succeeded'));
  if (!report) return undefined;
  const fresh = s.reports.get(report.connectionId, report.reportId) ?? report;
  if (arg?.file) return { report: fresh, file: fresh.files.find((f) => f.name === arg.file?.name) ?? arg.file };
  if (fresh.files.length === 0) {
    void vscode.window.showInformationMessage(
      `Report ${fresh.reportId} has no files (status ${fresh.record.reportStatus}).`,
    );
    return undefined;
  }
  if (fresh.files.length === 1) return { report: fresh, file: fresh.files[0] };
  const f = await pickOne(
    fresh.files.map((file) => ({ label: file.name, description: file.localPath ? 'downloaded' : '', file })),
    { title },
  );
  return f ? { report: fresh, file: f.file } : undefined;
}

export function registerReportCommands(
  s: ExtensionServices,
  watcher: ReportWatcher,
  files: ReportFiles,
): vscode.Disposable[] {
  return [
    registerCommand('measurements.refreshReports', () => watcher.refreshAll()),
    registerCommand('measurements.addReportById', (id?: string) => addReportById(s, id)),
    registerCommand('measurements.downloadReportFiles', (arg?: ReportArg) => downloadReportFiles(s, files, arg)),
    registerCommand('measurements.openReportFile', async (arg?: FileArg) => {
      const picked = await pickFile(s, 'Open Report File', arg);
      if (!picked) return undefined;
      return files.open(picked.report, picked.file);
    }),
    registerCommand('measurements.openReportFileAsTable', async (arg?: FileArg) => {
      const picked = await pickFile(s, 'Open Report File as Table', arg);
      if (!picked) return undefined;
      return files.openAsTable(await files.ensureLocal(picked.report, picked.file), picked.report);
    }),
    registerCommand('measurements.revealReportFile', async (arg?: FileArg) => {
      const picked = await pickFile(s, 'Reveal Report File', arg);
      if (!picked) return;
      await files.reveal(await files.ensureLocal(picked.report, picked.file));
    }),
    registerCommand('measurements.copyReportId', (arg?: ReportArg) => copyReportId(s, arg)),
    registerCommand('measurements.forgetReport', async (arg?: ReportArg) => {
      const report = arg?.report ?? (await pickReport(s, 'Remove Report from View'));
      if (report) await s.reports.remove(report.connectionId, report.reportId);
    }),
    registerCommand('measurements.forgetReports', (arg?: { reports: TrackedReport[] }) => forgetReports(s, arg)),
  ];
}

async function addReportById(s: ExtensionServices, id: string | undefined) {
  const reportId =
    id ??
    (await inputText({
      title: 'Add Report by Id',
      prompt: 'The reportId of an existing report',
      validate: (t) =>
        !t.trim()
          ? 'A report id is required'
          : isPlainReportId(t.trim())
            ? undefined
            : 'A report id has only letters, digits, - and _',
    }));
  if (!reportId) return undefined;
  const { connection, client } = await s.clients.forConnection();
  const record = await client.getReport(reportId.trim());
  return s.reports.track(record, connection.id);
}

async function downloadReportFiles(s: ExtensionServices, files: ReportFiles, arg: ReportArg) {
  const report =
    arg?.report ??
    (await pickReport(s, 'Download Report Files', (t) => reportState(t.record.reportStatus) === 'succeeded'));
  if (!report) return undefined;
  const choice = await pickOne(
    [
      { label: '$(folder) Default folder', description: files.defaultFolder(report), id: 'default' },
      { label: '$(folder-opened) Choose a folder…', id: 'pick' },
    ],
    { title: `Download ${report.files.length} file(s) of ${report.reportId}` },
  );
  if (!choice) return undefined;
  let folder: string | undefined;
  if (choice.id === 'pick') {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: 'Download here',
    });
    if (!picked?.[0]) return undefined;
    folder = picked[0].fsPath;
  }
  const updated = await files.download(report, { folder });
  tellDownloaded(files, updated, report.reportId);
  return updated;
}

/** Says where the files went (with "Choose a folder…" that is the user's answer: a wrong one is seen at once). */
function tellDownloaded(files: ReportFiles, updated: TrackedReport, reportId: string): void {
  const first = updated.files[0]?.localPath;
  const where = first ? vscode.workspace.asRelativePath(path.dirname(first), false) : undefined;
  void vscode.window
    .showInformationMessage(
      `Downloaded ${updated.files.length} file(s) of report ${reportId}${where ? ` to ${where}` : ''}.`,
      'Open',
      'Reveal',
    )
    .then((a) => {
      if (a === 'Open') void files.open(updated, updated.files[0]);
      if (a === 'Reveal' && first) void files.reveal(first);
    });
}

async function copyReportId(s: ExtensionServices, arg: ReportArg) {
  const report = arg?.report ?? (await pickReport(s, 'Copy Report Id'));
  if (!report) return undefined;
  await vscode.env.clipboard.writeText(report.reportId);
  vscode.window.setStatusBarMessage(`Copied report id ${report.reportId}`, 3000);
  return report.reportId;
}

/** A group's reports (the "Removed connection" group): asked first; downloaded files stay on disk. */
async function forgetReports(s: ExtensionServices, arg: { reports: TrackedReport[] } | undefined) {
  const reports = arg?.reports ?? [];
  if (reports.length === 0) return 0;
  const ok = await pickOne(
    [
      { label: `Remove ${reports.length} report(s) from the view`, ok: true },
      { label: 'Cancel', ok: false },
    ],
    { title: 'Remove these reports from the view? Their downloaded files stay on disk.' },
  );
  if (!ok?.ok) return 0;
  for (const r of reports) await s.reports.remove(r.connectionId, r.reportId);
  return reports.length;
}
