// API status string -> a small union -> icon. The service may add statuses: anything unknown is 'unknown'
// (neutral icon, still polled? no: only in-progress is polled).
import * as vscode from 'vscode';

export type ReportState = 'in-progress' | 'succeeded' | 'failed' | 'unknown';

export function reportState(status: string | undefined): ReportState {
  switch (status) {
    case 'in-progress':
    case 'succeeded':
    case 'failed':
      return status;
    default:
      return 'unknown';
  }
}

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
