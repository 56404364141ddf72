// The Reports view's data: the tracked reports of the active connection; a report's children are its files.
import * as vscode from 'vscode';
import type { ConnectionStore } from '../connections/connection-store';
import { ReportErrorNode, ReportFileNode, ReportNode, type ReportsTreeNode } from './report-nodes';
import type { ReportsStore } from './reports-store';

export class ReportsTreeProvider implements vscode.TreeDataProvider<ReportsTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ReportsTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[];
  /** The nodes last handed out, by report key, so tests and reveal() can find them. */
  readonly nodes = new Map<string, ReportNode>();

  constructor(
    private readonly store: ReportsStore,
    private readonly connections: ConnectionStore,
    /** The services' clock. */
    private readonly now: () => Date,
  ) {
    this.subs = [store.onDidChange(() => this.refresh()), connections.onDidChange(() => this.refresh())];
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: ReportsTreeNode): vscode.TreeItem {
    return node;
  }

  getChildren(node?: ReportsTreeNode): ReportsTreeNode[] {
    const now = this.now();
    if (!node) {
      this.nodes.clear();
      return this.store.forConnection(this.connections.activeId()).map((r) => {
        const n = new ReportNode(r, now);
        this.nodes.set(r.reportId, n);
        return n;
      });
    }
    if (node instanceof ReportNode) {
      const r = node.report;
      const children: ReportsTreeNode[] = r.files.map((f) => new ReportFileNode(r, f));
      if (r.lastError) children.unshift(new ReportErrorNode(r.lastError));
      return children;
    }
    return [];
  }

  getParent(node: ReportsTreeNode): ReportsTreeNode | undefined {
    if (node instanceof ReportFileNode) return this.nodes.get(node.report.reportId);
    return undefined;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
