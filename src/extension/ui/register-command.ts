// registerCommand with one error policy: a failed command shows its message (and logs it) rather than
// VS Code's generic "command failed"; messages from the core never contain the key. In Restricted Mode
// a command that would send, download or write (TRUSTED_COMMANDS) refuses with the Manage Trust button.
import * as vscode from 'vscode';
import { isTrusted, isUntrustedError, offerTrust, restrictedMessage, TRUSTED_COMMANDS } from '../trust';

let report: (message: string) => void = () => {};

export function setCommandErrorLog(log: (message: string) => void): void {
  report = log;
}

// biome-ignore lint/suspicious/noExplicitAny: command arguments are whatever the caller passes
export function registerCommand(id: string, body: (...args: any[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      if (TRUSTED_COMMANDS.has(id) && !isTrusted()) {
        report(`${id}: refused in Restricted Mode`);
        void offerTrust(restrictedMessage('This command'));
        return undefined;
      }
      return await body(...args);
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      report(`${id}: ${message}`);
      if (isUntrustedError(e)) void offerTrust(message);
      else void vscode.window.showErrorMessage(message);
      return undefined;
    }
  });
}
