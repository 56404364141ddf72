// Tree nodes of the Reports view: one class per kind of node.
import * as vscode from 'vscode';
import type { Connection } from '../connections/connection';
import { reportState, reportStateIcon } from './report-status';
import { ageText, describeReport, expiryText, type TrackedFile, type TrackedReport } from './tracked-report';

export class ReportNode extends vscode.TreeItem {
  readonly kind = 'report' as const;

  constructor(
    readonly report: TrackedReport,
    now: Date,
  ) {
    const d = describeReport(report.record);
    const state = reportState(report.record.reportStatus);
    // The label tells reports apart (range, frequency, how many datasources); the rest is in the description.
    super(
      d.label,
      // A failed report opens on why it failed (a row of its own: a narrow view cuts the description).
      state === 'succeeded' || state === 'failed'
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.None,
    );
    // The state is part of the id: VS Code keeps an item's expansion by id, and a finished report
    // (no longer a leaf) should open on its files.
    this.id = `report:${report.connectionId}:${report.reportId}:${state}`;
    const expiry = state === 'succeeded' ? expiryText(report.record.urlsExpireAt, now) : undefined;
    // A failed report says why on its row (first, so a narrow view still shows it); the tooltip has it whole.
    const failure = state === 'failed' ? `failed: ${failureReason(report)}` : undefined;
    this.description = [failure, d.kind, ageText(report.addedAt, now), expiry].filter(Boolean).join(' · ');
    this.iconPath = reportStateIcon(state);
    this.contextValue = `report-${state}`;
    const status = report.record.reportStatus || 'unknown';
    this.tooltip = new vscode.MarkdownString(
      [
        `**${d.kind}** — ${status}${report.record.message && report.record.message !== status ? ` (${report.record.message})` : ''}`,
        `Time range (UTC): ${d.fullRange}${d.frequency ? `, ${d.frequency}` : ''}`,
        d.scope ? `Covers: ${d.scope.replace(/ ds$/, ' datasource(s)')}` : undefined,
        `Report id: \`${report.reportId}\``,
        `Added: ${ageText(report.addedAt, now)}`,
        report.checkedAt ? `Last checked: ${ageText(report.checkedAt, now)}` : undefined,
        report.record.urlsExpireAt ? `File links expire: ${report.record.urlsExpireAt}` : undefined,
        report.lastError ? `Last error: ${report.lastError}` : undefined,
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    this.accessibilityInformation = { label: `${d.kind} report, ${status}, ${d.label}` };
  }
}

/** Why a report failed, on one line (the service's message; hostile text is only ever shown as text). */
export function failureReason(report: TrackedReport): string {
  const m = typeof report.record.message === 'string' ? report.record.message : '';
  const line = m.replace(/\s+/g, ' ').trim();
  if (!line || line === report.record.reportStatus) return 'no reason given';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** With "show all connections": one group per connection, its reports below. */
export class ConnectionNode extends vscode.TreeItem {
  readonly kind = 'connection' as const;

  constructor(
    readonly connection: Connection,
    readonly reports: TrackedReport[],
    active: boolean,
  ) {
    super(connection.name, vscode.TreeItemCollapsibleState.Expanded);
    this.id = `connection:${connection.id}`;
    this.description = [active ? 'active' : undefined, `${reports.length} report${reports.length === 1 ? '' : 's'}`]
      .filter(Boolean)
      .join(' · ');
    this.iconPath = new vscode.ThemeIcon(active ? 'plug' : 'debug-disconnect');
    this.contextValue = active ? 'connection-active' : 'connection';
    this.tooltip = `${connection.name} (org ${connection.org})`;
  }
}

export class ReportFileNode extends vscode.TreeItem {
  readonly kind = 'file' as const;

  constructor(
    readonly report: TrackedReport,
    readonly file: TrackedFile,
  ) {
    super(file.name, vscode.TreeItemCollapsibleState.None);
    this.id = `file:${report.connectionId}:${report.reportId}:${file.name}`;
    this.iconPath = new vscode.ThemeIcon(file.localPath ? 'file' : 'cloud');
    this.description = file.localPath ? 'downloaded' : 'not downloaded';
    this.contextValue = file.localPath ? 'reportFile-downloaded' : 'reportFile-remote';
    this.tooltip = file.localPath ?? 'Click to download and open';
    if (file.localPath) this.resourceUri = vscode.Uri.file(file.localPath);
    this.command = { command: 'measurements.openReportFile', title: 'Open', arguments: [this] };
  }
}

export class ReportErrorNode extends vscode.TreeItem {
  readonly kind = 'message' as const;
  constructor(message: string, icon: 'warning' | 'error' = 'warning') {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.iconPath =
      icon === 'error'
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
        : new vscode.ThemeIcon('warning');
    this.tooltip = message;
  }
}

export type ReportsTreeNode = ConnectionNode | ReportNode | ReportFileNode | ReportErrorNode;
