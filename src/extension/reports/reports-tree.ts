// The Reports view's data: the tracked reports of the active connection, or (setting
// measurements.reports.showAllConnections) those of every connection, grouped by connection, with the
// reports of removed connections under a group of their own; a report's children are its files.
//
// Nodes are kept, not rebuilt (as github/vscode-github-actions does): one object per report and per group
// for as long as it is listed, updated in place. When reports change, only the nodes whose report changed
// are refreshed (onDidChangeTreeData(node)), so VS Code keeps the selection and the expansion of the rest;
// a report added or removed refreshes its parent (the group, or the root without groups).
import * as vscode from 'vscode';
import type { ConnectionStore } from '../connections/connection-store';
import {
  ConnectionNode,
  failureReason,
  REMOVED_GROUP,
  ReportErrorNode,
  ReportFileNode,
  ReportNode,
  type ReportsTreeNode,
} from './report-nodes';
import type { ReportsStore } from './reports-store';
import type { TrackedReport } from './tracked-report';

/** The setting that lists the reports of every connection, grouped by connection. */
export const SHOW_ALL_CONNECTIONS = 'measurements.reports.showAllConnections';

const nodeKey = (r: Pick<TrackedReport, 'connectionId' | 'reportId'>) => `${r.connectionId}\u0000${r.reportId}`;

/** What a node shows of a report: all of it but when it was last checked (every poll; no refresh for that alone). */
const looks = (r: TrackedReport) => JSON.stringify({ ...r, checkedAt: undefined });

export function showAllConnections(): boolean {
  return vscode.workspace.getConfiguration().get<boolean>(SHOW_ALL_CONNECTIONS, false) === true;
}

/** What is listed: the groups (grouped mode) and the reports under each, in order. */
interface Listing {
  grouped: boolean;
  /** Group key (connection id or REMOVED_GROUP; '' without groups) -> its reports. */
  groups: Map<string, TrackedReport[]>;
}

export class ReportsTreeProvider implements vscode.TreeDataProvider<ReportsTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ReportsTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[];
  /** The report nodes listed, by report key: kept across refreshes (tests and reveal() find them here). */
  readonly nodes = new Map<string, ReportNode>();
  private readonly groupNodes = new Map<string, ConnectionNode>();
  /** What each listed report looked like when its node was last updated (to tell which ones changed). */
  private readonly shown = new Map<string, string>();
  private listing: Listing | undefined;

  constructor(
    private readonly store: ReportsStore,
    private readonly connections: ConnectionStore,
    /** The services' clock. */
    private readonly now: () => Date,
  ) {
    this.subs = [
      store.onDidChange(() => this.reportsChanged()),
      connections.onDidChange(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SHOW_ALL_CONNECTIONS)) this.refresh();
      }),
    ];
  }

  /**
   * Ages ("5m ago") and link expiry move with time, not with the store: the listed report nodes whose
   * description or tooltip text changed since they were drawn are updated and fired, the rest left as
   * they are. Called once a minute (startAgeTicker) and by tests after moving the clock.
   */
  refreshAges(): ReportNode[] {
    const now = this.now();
    const changed: ReportNode[] = [];
    for (const n of this.nodes.values()) {
      const before = n.description;
      n.update(n.report, now);
      if (n.description !== before) changed.push(n);
    }
    for (const n of changed) this.changed.fire(n);
    return changed;
  }

  /** refreshAges() every minute while the provider lives. */
  startAgeTicker(everyMs = 60_000): void {
    const timer = setInterval(() => this.refreshAges(), everyMs);
    timer.unref?.();
    this.subs.push({ dispose: () => clearInterval(timer) });
  }

  /** Everything again (the connections or the grouping changed); the nodes of reports still listed stay. */
  refresh(): void {
    this.listing = undefined;
    this.changed.fire(undefined);
  }

  getTreeItem(node: ReportsTreeNode): vscode.TreeItem {
    return node;
  }

  getChildren(node?: ReportsTreeNode): ReportsTreeNode[] {
    if (!node) {
      const listing = this.list();
      this.listing = listing;
      this.forgetUnlisted(listing);
      if (!listing.grouped) return this.reportNodes(listing.groups.get('') ?? [], undefined);
      return [...listing.groups.entries()].map(([key, reports]) => this.groupNode(key, reports));
    }
    if (node instanceof ConnectionNode) return this.reportNodes(node.reports, node);
    if (node instanceof ReportNode) {
      const r = node.report;
      const children: ReportsTreeNode[] = r.files.map((f) => new ReportFileNode(node, f));
      if (r.lastError) children.unshift(new ReportErrorNode(node, r.lastError));
      if (node.contextValue?.endsWith('report-failed'))
        children.unshift(new ReportErrorNode(node, failureReason(r), 'error'));
      return children;
    }
    return [];
  }

  getParent(node: ReportsTreeNode): ReportsTreeNode | undefined {
    if (node instanceof ReportFileNode || node instanceof ReportErrorNode) return node.parent;
    if (node instanceof ReportNode) return node.parent;
    return undefined;
  }

  /** The store changed: refresh the nodes whose report changed, or the parent of a report added or removed. */
  private reportsChanged(): void {
    const before = this.listing;
    const after = this.list();
    const diff = before && this.diff(before, after);
    if (!diff || diff.parents.includes(undefined)) {
      this.refresh();
      return;
    }
    this.listing = after;
    const now = this.now();
    for (const g of diff.parents) {
      g?.update(g.connection, after.groups.get(g.key) ?? [], g.connection?.id === this.connections.activeId());
      this.changed.fire(g);
    }
    for (const n of diff.nodes) {
      if (n.parent && diff.parents.includes(n.parent)) continue;
      const r = this.store.get(n.report.connectionId, n.report.reportId);
      if (!r) continue;
      n.update(r, now);
      this.shown.set(nodeKey(r), looks(r));
      this.changed.fire(n);
    }
  }

  /**
   * What changed between two listings: the parents whose list of reports changed (undefined: the root) and
   * the report nodes whose report changed; undefined when the groups themselves changed (all again).
   */
  private diff(before: Listing, after: Listing) {
    if (after.grouped !== before.grouped || !sameKeys(before.groups, after.groups)) return undefined;
    const parents: (ConnectionNode | undefined)[] = [];
    const nodes: ReportNode[] = [];
    for (const [group, reports] of after.groups) {
      if (!sameOrder(before.groups.get(group) ?? [], reports)) {
        parents.push(after.grouped ? this.groupNodes.get(group) : undefined);
        continue;
      }
      for (const r of reports) {
        const n = this.nodes.get(nodeKey(r));
        if (n && this.shown.get(nodeKey(r)) !== looks(r)) nodes.push(n);
      }
    }
    return { parents, nodes };
  }

  /** What the view lists now (from the store and the connections). */
  private list(): Listing {
    const active = this.connections.activeId();
    if (!showAllConnections()) {
      return { grouped: false, groups: new Map([['', this.store.forConnection(active)]]) };
    }
    const groups = new Map<string, TrackedReport[]>();
    const known = this.connections.list();
    // Every connection with reports (and the active one, even without), the active first.
    for (const c of [...known].sort((a, b) => Number(b.id === active) - Number(a.id === active))) {
      const reports = this.store.forConnection(c.id);
      if (reports.length > 0 || c.id === active) groups.set(c.id, reports);
    }
    const ids = new Set(known.map((c) => c.id));
    const removed = this.store
      .all()
      .filter((r) => !ids.has(r.connectionId))
      .sort((a, b) => b.addedAt.localeCompare(a.addedAt) || a.reportId.localeCompare(b.reportId));
    if (removed.length) groups.set(REMOVED_GROUP, removed);
    return { grouped: true, groups };
  }

  private groupNode(key: string, reports: TrackedReport[]): ConnectionNode {
    let g = this.groupNodes.get(key);
    if (!g) {
      g = new ConnectionNode(key);
      this.groupNodes.set(key, g);
    }
    const active = this.connections.activeId();
    g.update(key === REMOVED_GROUP ? undefined : this.connections.get(key), reports, key === active);
    return g;
  }

  /** The (kept) nodes of `reports`, updated to what they are now. */
  private reportNodes(reports: TrackedReport[], parent: ConnectionNode | undefined): ReportNode[] {
    const now = this.now();
    const orphaned = parent?.key === REMOVED_GROUP;
    return reports.map((r) => {
      const key = nodeKey(r);
      let n = this.nodes.get(key);
      if (n) n.update(r, now, orphaned);
      else {
        n = new ReportNode(r, now, orphaned);
        this.nodes.set(key, n);
      }
      n.parent = parent;
      this.shown.set(key, looks(r));
      return n;
    });
  }

  /** Drops the nodes of reports and groups no longer listed. */
  private forgetUnlisted(listing: Listing): void {
    const listed = new Set([...listing.groups.values()].flat().map(nodeKey));
    for (const key of [...this.nodes.keys()]) {
      if (!listed.has(key)) {
        this.nodes.delete(key);
        this.shown.delete(key);
      }
    }
    for (const key of [...this.groupNodes.keys()]) if (!listing.groups.has(key)) this.groupNodes.delete(key);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

function sameKeys<K, V>(a: Map<K, V>, b: Map<K, V>): boolean {
  const ka = [...a.keys()];
  const kb = [...b.keys()];
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

function sameOrder(a: TrackedReport[], b: TrackedReport[]): boolean {
  return a.length === b.length && a.every((r, i) => nodeKey(r) === nodeKey(b[i]));
}
