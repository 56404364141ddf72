// registerCommand with one error policy: a failed command shows its message (and logs it) rather than
// VS Code's generic "command failed"; messages from the core never contain the key.
import * as vscode from 'vscode';

let report: (message: string) => void = () => {};

export function setCommandErrorLog(log: (message: string) => void): void {
  report = log;
}

// biome-ignore lint/suspicious/noExplicitAny: command arguments are whatever the caller passes
export function registerCommand(id: string, body: (...args: any[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await body(...args);
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      report(`${id}: ${message}`);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
  });
}
