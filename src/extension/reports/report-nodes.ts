// Tree nodes of the Reports view: one class per kind of node.
import * as vscode from 'vscode';
import type { Connection } from '../connections/connection';
import { reportState, reportStateIcon } from './report-status';
import {
  ageText,
  describeReport,
  expiryText,
  reportTooltip,
  type TrackedFile,
  type TrackedReport,
} from './tracked-report';

/**
 * A report. The provider keeps one object per report for as long as it is listed and updates it in place
 * (update()), so VS Code keeps its selection and expansion and only a changed report is refreshed.
 */
export class ReportNode extends vscode.TreeItem {
  readonly kind = 'report' as const;
  /** The tracked report as last shown (update() replaces it). */
  report: TrackedReport;
  /** Its group in grouped mode (what getParent answers). */
  parent?: ConnectionNode;
  /** Its connection was removed: its downloaded files still open; nothing that needs the service is offered. */
  orphaned = false;

  constructor(report: TrackedReport, now: Date, orphaned = false) {
    super('');
    this.report = report;
    this.update(report, now, orphaned);
  }

  /** Shows `report` (its new status, files, error) on this same node. */
  update(report: TrackedReport, now: Date, orphaned = this.orphaned): void {
    this.report = report;
    this.orphaned = orphaned;
    const d = describeReport(report.record);
    const state = reportState(report.record.reportStatus);
    const done = state === 'succeeded' || state === 'failed';
    // The label tells reports apart (range, frequency, how many datasources); the rest is in the description.
    this.label = d.label;
    // A finished report opens on its files, a failed one on why it failed (a row of its own: a narrow view
    // cuts the description). VS Code keeps an item's expansion by id, and a leaf that gets children under
    // the same id would stay closed: so the id changes once, when the report finishes, and never again.
    this.collapsibleState = done ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
    this.id = `report:${report.connectionId}:${report.reportId}${done ? ':done' : ''}`;
    const expiry = state === 'succeeded' && !orphaned ? expiryText(report.record.urlsExpireAt, now) : undefined;
    // A failed report says why on its row (first, so a narrow view still shows it); the tooltip has it whole.
    const failure = state === 'failed' ? `failed: ${failureReason(report)}` : undefined;
    // Not finished and the last check went wrong (or polling stopped): a leaf has no row for it, so here.
    const problem = !done && report.lastError ? `⚠ ${oneLine(report.lastError)}` : undefined;
    // The kind is in the label's scope ("12 ds", "3 nodes") and whole in the tooltip: the row stays short.
    this.description = [failure ?? problem, ageText(report.addedAt, now), expiry].filter(Boolean).join(' · ');
    this.iconPath = reportStateIcon(state);
    this.contextValue = `${orphaned ? 'orphan-' : ''}report-${state}`;
    const status = report.record.reportStatus || 'unknown';
    // Service text in a tooltip: escaped (reportTooltip), and the Markdown is neither trusted nor HTML.
    const tooltip = new vscode.MarkdownString(
      reportTooltip(report, now, orphaned ? `**Its connection was removed.** ${ORPHAN_REASON}` : undefined),
    );
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    tooltip.supportThemeIcons = false;
    this.tooltip = tooltip;
    this.accessibilityInformation = { label: `${d.kind} report, ${status}, ${d.label}` };
  }
}

/** What a report of a removed connection can and cannot do (its tooltip, its group's, its files'). */
const ORPHAN_REASON =
  'Its downloaded files still open; downloading, refreshing, re-running and opening it as a cell need its connection. Remove it from the view when done.';

/** Why a report failed, on one line (the service's message; hostile text is only ever shown as text). */
export function failureReason(report: TrackedReport): string {
  const m = typeof report.record.message === 'string' ? report.record.message : '';
  const line = oneLine(m);
  if (!line || line === report.record.reportStatus) return 'no reason given';
  return line;
}

/** Text on one line, at most 120 characters. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/**
 * With "show all connections": one group per connection, its reports below; the reports of connections
 * that were removed under one "Removed connection" group (no connection).
 */
export class ConnectionNode extends vscode.TreeItem {
  readonly kind = 'connection' as const;
  connection: Connection | undefined;
  reports: TrackedReport[] = [];

  constructor(
    /** The connection id, or REMOVED_GROUP. */
    readonly key: string,
  ) {
    super('', vscode.TreeItemCollapsibleState.Expanded);
    this.id = `connection:${key}`;
  }

  update(connection: Connection | undefined, reports: TrackedReport[], active: boolean): void {
    this.connection = connection;
    this.reports = reports;
    const count = `${reports.length} report${reports.length === 1 ? '' : 's'}`;
    if (!connection) {
      this.label = 'Removed connection';
      this.description = count;
      this.iconPath = new vscode.ThemeIcon('circle-slash');
      this.contextValue = 'connection-removed';
      this.tooltip = `Reports of connections that were removed. ${ORPHAN_REASON}`;
      return;
    }
    this.label = connection.name;
    this.description = [active ? 'active' : undefined, count].filter(Boolean).join(' · ');
    this.iconPath = new vscode.ThemeIcon(active ? 'plug' : 'debug-disconnect');
    this.contextValue = active ? 'connection-active' : 'connection';
    this.tooltip = `${connection.name} (org ${connection.org})`;
  }
}

/** The group key of the reports whose connection was removed. */
export const REMOVED_GROUP = '\u0000removed';

export class ReportFileNode extends vscode.TreeItem {
  readonly kind = 'file' as const;
  readonly report: TrackedReport;

  constructor(
    /** The report node it is listed under (what getParent answers). */
    readonly parent: ReportNode,
    readonly file: TrackedFile,
  ) {
    super(file.name, vscode.TreeItemCollapsibleState.None);
    const report = parent.report;
    this.report = report;
    this.id = `file:${report.connectionId}:${report.reportId}:${file.name}`;
    this.iconPath = new vscode.ThemeIcon(file.localPath ? 'file' : 'cloud');
    if (!file.localPath && parent.orphaned) {
      // Nothing to open, and no connection to download it with: no click action, the reason instead.
      this.description = 'not downloaded · connection removed';
      this.contextValue = 'orphan-reportFile-remote';
      this.tooltip = `Not downloaded, and its connection was removed: it cannot be downloaded any more.`;
      return;
    }
    this.description = file.localPath ? 'downloaded' : 'not downloaded';
    this.contextValue = file.localPath ? 'reportFile-downloaded' : 'reportFile-remote';
    this.tooltip = file.localPath ?? 'Click to download and open';
    if (file.localPath) this.resourceUri = vscode.Uri.file(file.localPath);
    this.command = { command: 'measurements.openReportFile', title: 'Open', arguments: [this] };
  }
}

export class ReportErrorNode extends vscode.TreeItem {
  readonly kind = 'message' as const;
  constructor(
    /** The report node it is listed under. */
    readonly parent: ReportNode,
    message: string,
    icon: 'warning' | 'error' = 'warning',
  ) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.iconPath =
      icon === 'error'
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
        : new vscode.ThemeIcon('warning');
    this.tooltip = message;
  }
}

export type ReportsTreeNode = ConnectionNode | ReportNode | ReportFileNode | ReportErrorNode;
