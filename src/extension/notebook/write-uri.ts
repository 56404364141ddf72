// Files the extension writes (full results, Save, Export) go through the project's one writer when they
// are local files: whole or not at all, never through a symbolic link planted at the name or in a folder
// on the way (core/io/part-file.node.ts). Other schemes (a remote workspace) go through workspace.fs.
import * as vscode from 'vscode';
import { writeFileViaPart } from '../../core/io/part-file.node';

/** Writes data to uri; a local file through `<file>.part`, refusing a link there or a folder that leads out of `within`. */
export async function writeUri(uri: vscode.Uri, data: Uint8Array, within?: vscode.Uri): Promise<void> {
  if (uri.scheme !== 'file') {
    await vscode.workspace.fs.writeFile(uri, data);
    return;
  }
  await writeFileViaPart(uri.fsPath, data, { within: within?.scheme === 'file' ? within.fsPath : undefined });
}
