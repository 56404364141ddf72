// The core's small status union (API status string -> ReportState) -> an icon. A status the service may
// add later is 'unknown': a neutral icon; it is not terminal, so it is polled like in-progress, for an
// hour in a row at most (see core/reports/status.ts isTerminal, unknownStatusLimit and report-watcher.ts).
import * as vscode from 'vscode';
import type { ReportState } from '../../core/reports/status';

export { type ReportState, reportState } from '../../core/reports/status';

export function reportStateIcon(state: ReportState): vscode.ThemeIcon {
  switch (state) {
    case 'in-progress':
      return new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'));
    case 'succeeded':
      return new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    default:
      return new vscode.ThemeIcon('question');
  }
}
