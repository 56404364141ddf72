// One SQL session per open notebook: the named results of its cells, held for its later sql cells
// until the notebook closes. The engine inside loads on the notebook's first sql cell only. It reads
// the notebook's folder and the folders the user granted (user settings only: a workspace's value is
// ignored, as a cloned repository must not widen what its notebooks may read).
import * as vscode from 'vscode';
import { SqlSession, type SqlSessionOptions } from '../../core/sql/session.node';

/** The engine's reach from the user's settings (measurements.sql.*), global values only. */
function sqlSessionOptions(tempRoot: string): SqlSessionOptions {
  const config = vscode.workspace.getConfiguration('measurements.sql');
  const dirs = config.inspect<unknown>('allowedDirectories')?.globalValue;
  const limit = config.inspect<unknown>('memoryLimit')?.globalValue;
  return {
    allowedDirectories: Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string' && d !== '') : [],
    memoryLimit: typeof limit === 'string' ? limit : undefined,
    tempRoot,
  };
}

export class SqlSessions implements vscode.Disposable {
  private readonly sessions = new Map<string, SqlSession>();
  private readonly sub = vscode.workspace.onDidCloseNotebookDocument((nb) => this.close(nb.uri));

  /** `storage`: the extension's storage folder (each engine spills to its own folder in sql-temp there). */
  constructor(private readonly storage: vscode.Uri) {}

  for(notebook: vscode.NotebookDocument): SqlSession {
    const key = notebook.uri.toString();
    let s = this.sessions.get(key);
    if (!s) {
      s = new SqlSession(sqlSessionOptions(vscode.Uri.joinPath(this.storage, 'sql-temp').fsPath));
      this.sessions.set(key, s);
    }
    return s;
  }

  /** The session of a notebook if it has one (completion never creates one). */
  peek(notebook: vscode.NotebookDocument): SqlSession | undefined {
    return this.sessions.get(notebook.uri.toString());
  }

  private close(uri: vscode.Uri): void {
    const key = uri.toString();
    this.sessions.get(key)?.dispose();
    this.sessions.delete(key);
  }

  dispose(): void {
    this.sub.dispose();
    for (const s of this.sessions.values()) s.dispose();
    this.sessions.clear();
  }
}
