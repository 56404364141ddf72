// Restricted Mode (an untrusted workspace): view, don't run. The one place that reads VS Code's
// workspace trust. Untrusted, the notebook opens and its saved outputs render, the table editor opens
// files, completion uses what is known already; but no cell runs, the local emulator does not start,
// no request is sent and nothing is downloaded or written. Each of those entry points asks here
// (the controller, the commands, the client provider and emulator, the report downloader). Granting
// trust turns everything on at once, with no reload: every check reads the current state.
import * as vscode from 'vscode';
import { UntrustedWorkspaceError } from '../core/api/errors';
import { notify } from './ui/notices';

/** VS Code's own command that opens the Workspace Trust editor. */
const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';
export const MANAGE_TRUST = 'Manage Workspace Trust';

/**
 * Commands that send requests, download or write files: off in Restricted Mode. package.json gives
 * each the `enablement` "isWorkspaceTrusted" (a unit test keeps both lists equal); registerCommand
 * refuses them here too, for a call from a keybinding or another extension.
 */
export const TRUSTED_COMMANDS: ReadonlySet<string> = new Set([
  'measurements.testConnection',
  'measurements.createReport',
  'measurements.runRecentQuery',
  'measurements.addReportById',
  'measurements.refreshReports',
  'measurements.downloadReportFiles',
  'measurements.rerunReport',
  'measurements.installCli',
  'measurements.notebook.export',
  'measurements.notebook.runWithParameters',
  'measurements.archive',
  'measurements.notebook.exportEvaluationReport',
]);

/** Thrown by an entry point that needs trust; registerCommand shows it with the Manage button. */
export function restrictedMessage(what: string): string {
  return (
    `${what} is off in Restricted Mode: this workspace is not trusted, so its notebooks and files are ` +
    'shown but nothing runs, downloads or writes. Trust the workspace to turn these on (no reload needed).'
  );
}

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** Throws UntrustedWorkspaceError (saying `what` was refused) unless the workspace is trusted. */
export function requireTrust(what: string): void {
  if (!isTrusted()) throw new UntrustedWorkspaceError(restrictedMessage(what));
}

export function isUntrustedError(e: unknown): e is UntrustedWorkspaceError {
  return e instanceof UntrustedWorkspaceError;
}

/** The refusal as a warning with a button that opens the Workspace Trust editor. */
export async function offerTrust(message: string): Promise<void> {
  const pick = await notify('warning', message, MANAGE_TRUST);
  if (pick === MANAGE_TRUST) await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
}

/** Runs `fn` now if the workspace is trusted, else once trust is granted. */
export function whenTrusted(fn: () => void): vscode.Disposable {
  if (isTrusted()) {
    fn();
    return new vscode.Disposable(() => {});
  }
  return vscode.workspace.onDidGrantWorkspaceTrust(fn);
}
