// One SQL session per open notebook: the named results of its cells, held for its later sql cells
// until the notebook closes. The engine inside loads on the notebook's first sql cell only.
import * as vscode from 'vscode';
import { SqlSession } from '../../core/sql/session.node';

export class SqlSessions implements vscode.Disposable {
  private readonly sessions = new Map<string, SqlSession>();
  private readonly sub = vscode.workspace.onDidCloseNotebookDocument((nb) => this.close(nb.uri));

  for(notebook: vscode.NotebookDocument): SqlSession {
    const key = notebook.uri.toString();
    let s = this.sessions.get(key);
    if (!s) {
      s = new SqlSession();
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
