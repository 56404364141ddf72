// Follow cursors (continuation tokens and the last time seen) live in workspace state, keyed by the
// notebook and a stable cell id: never in the notebook file.
import type * as vscode from 'vscode';
import { type FollowState, parseFollowState, serializeFollowState } from '../../core/follow';

export class FollowStore {
  constructor(private readonly state: vscode.Memento) {}

  private key(notebook: vscode.Uri, cellId: string): string {
    return `measnb.follow:${notebook.toString()}#${cellId}`;
  }

  get(notebook: vscode.Uri, cellId: string): FollowState | undefined {
    const text = this.state.get<string>(this.key(notebook, cellId));
    return text ? parseFollowState(text) : undefined;
  }

  async set(notebook: vscode.Uri, cellId: string, state: FollowState): Promise<void> {
    await this.state.update(this.key(notebook, cellId), serializeFollowState(state));
  }

  async clear(notebook: vscode.Uri, cellId: string): Promise<void> {
    await this.state.update(this.key(notebook, cellId), undefined);
  }
}
