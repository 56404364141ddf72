// "Measurements: Install measnb on PATH": a small launcher for the CLI bundled in the extension
// (dist/cli.js), run by the Node.js that runs the extension host, so nothing else needs installing.
// The launcher carries a marker line; one written by someone else is never overwritten without asking.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { writeFileViaPart } from '../../core/io/part-file.node';
import { registerCommand } from '../ui/register-command';

export const INSTALL_CLI_COMMAND = 'measurements.installCli';
const MARKER = 'measnb launcher written by the Measurements Notebooks extension';

/** Where a per-user launcher goes without admin rights, and usually on PATH already. */
function defaultLauncherDir(platform = process.platform, env = process.env, home = os.homedir()): string {
  if (platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'Microsoft', 'WindowsApps');
  return path.join(home, '.local', 'bin');
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function launcherText(platform: string, nodePath: string, cliPath: string): { name: string; text: string } {
  if (platform === 'win32') {
    if (/["%\r\n]/.test(nodePath + cliPath))
      throw new Error('The extension is installed under a path a .cmd file cannot quote.');
    return {
      name: 'measnb.cmd',
      text: `@echo off\r\nrem ${MARKER}\r\nset ELECTRON_RUN_AS_NODE=1\r\n"${nodePath}" "${cliPath}" %*\r\n`,
    };
  }
  return {
    name: 'measnb',
    text: `#!/bin/sh\n# ${MARKER}\nELECTRON_RUN_AS_NODE=1 exec ${shQuote(nodePath)} ${shQuote(cliPath)} "$@"\n`,
  };
}

async function install(extensionPath: string, dir: string, ask: boolean): Promise<string | undefined> {
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  await fs.access(cli).catch(() => {
    throw new Error(`This build of the extension has no command-line bundle (${cli}).`);
  });
  const { name, text } = launcherText(process.platform, process.execPath, cli);
  const target = path.join(dir, name);
  const existing = await fs.readFile(target, 'utf8').catch(() => undefined);
  if (existing !== undefined && !existing.includes(MARKER)) {
    if (!ask) throw new Error(`${target} exists and was not written by this extension.`);
    const choice = await vscode.window.showWarningMessage(
      `${target} exists and was not written by this extension. Replace it?`,
      { modal: true },
      'Replace',
    );
    if (choice !== 'Replace') return undefined;
  }
  await fs.mkdir(dir, { recursive: true });
  // Written beside the target, then renamed: a link planted at the target is replaced, not followed.
  await writeFileViaPart(target, text, { mode: 0o755 });
  return target;
}

export function registerCliCommand(context: vscode.ExtensionContext): vscode.Disposable[] {
  return [
    registerCommand(INSTALL_CLI_COMMAND, async (options?: { dir?: string }) => {
      const dir = options?.dir ?? defaultLauncherDir();
      const target = await install(context.extensionPath, dir, options?.dir === undefined);
      if (!target) return undefined;
      const onPath = (process.env.PATH ?? '').split(path.delimiter).includes(dir);
      if (options?.dir === undefined) {
        void vscode.window.showInformationMessage(
          `Installed measnb at ${target}.${onPath ? ' Try: measnb query -e "datasources" --emulator' : ` Add ${dir} to your PATH to run it as measnb.`}`,
        );
      }
      return target;
    }),
  ];
}
