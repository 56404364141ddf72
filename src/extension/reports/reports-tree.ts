// The Reports view's data: the tracked reports of the active connection, or (setting
// measurements.reports.showAllConnections) those of every connection, grouped by connection; a report's
// children are its files.
import * as vscode from 'vscode';
import type { ConnectionStore } from '../connections/connection-store';
import {
  ConnectionNode,
  failureReason,
  ReportErrorNode,
  ReportFileNode,
  ReportNode,
  type ReportsTreeNode,
} from './report-nodes';
import type { ReportsStore } from './reports-store';
import type { TrackedReport } from './tracked-report';

/** The setting that lists the reports of every connection, grouped by connection. */
export const SHOW_ALL_CONNECTIONS = 'measurements.reports.showAllConnections';

const nodeKey = (r: TrackedReport) => `${r.connectionId}\u0000${r.reportId}`;

export function showAllConnections(): boolean {
  return vscode.workspace.getConfiguration().get<boolean>(SHOW_ALL_CONNECTIONS, false) === true;
}

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
    this.subs = [
      store.onDidChange(() => this.refresh()),
      connections.onDidChange(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SHOW_ALL_CONNECTIONS)) this.refresh();
      }),
    ];
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
      if (showAllConnections()) return this.connectionNodes();
      return this.reportNodes(this.store.forConnection(this.connections.activeId()), now);
    }
    if (node instanceof ConnectionNode) return this.reportNodes(node.reports, now);
    if (node instanceof ReportNode) {
      const r = node.report;
      const children: ReportsTreeNode[] = r.files.map((f) => new ReportFileNode(r, f));
      if (r.lastError) children.unshift(new ReportErrorNode(r.lastError));
      if (node.contextValue === 'report-failed') children.unshift(new ReportErrorNode(failureReason(r), 'error'));
      return children;
    }
    return [];
  }

  /** Every connection with reports (and the active one, even without), the active first. */
  private connectionNodes(): ConnectionNode[] {
    const active = this.connections.activeId();
    const groups = this.connections
      .list()
      .map((c) => new ConnectionNode(c, this.store.forConnection(c.id), c.id === active))
      .filter((g) => g.reports.length > 0 || g.connection.id === active);
    return groups.sort((a, b) => Number(b.connection.id === active) - Number(a.connection.id === active));
  }

  private reportNodes(reports: TrackedReport[], now: Date): ReportNode[] {
    return reports.map((r) => {
      const n = new ReportNode(r, now);
      this.nodes.set(nodeKey(r), n);
      return n;
    });
  }

  getParent(node: ReportsTreeNode): ReportsTreeNode | undefined {
    if (node instanceof ReportFileNode) return this.nodes.get(nodeKey(node.report));
    if (node instanceof ReportNode && showAllConnections()) {
      const c = this.connections.get(node.report.connectionId);
      return c && new ConnectionNode(c, this.store.forConnection(c.id), c.id === this.connections.activeId());
    }
    return undefined;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
