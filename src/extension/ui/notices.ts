// User-facing notices that matter enough to be checked by the integration suite (quota, finished
// reports): shown through the normal window messages, and announced on onDidNotify with their text.
import * as vscode from 'vscode';

export interface Notice {
  severity: 'info' | 'warning' | 'error';
  message: string;
  actions: string[];
}

const emitter = new vscode.EventEmitter<Notice>();
export const onDidNotify = emitter.event;

export function notify(
  severity: Notice['severity'],
  message: string,
  ...actions: string[]
): Thenable<string | undefined> {
  emitter.fire({ severity, message, actions });
  const show =
    severity === 'error'
      ? vscode.window.showErrorMessage
      : severity === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  return show(message, ...actions);
}
