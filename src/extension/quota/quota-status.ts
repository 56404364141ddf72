// Status bar item: "reports used today / 30" for the active connection's org; refreshed when the count
// changes, when the connection changes and at the next UTC midnight (when the quota resets).
import * as vscode from 'vscode';
import { nextUtcMidnight } from '../../core/api/errors';
import type { QuotaTracker } from './quota-tracker';

export class QuotaStatusItem implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('measurements.quota', vscode.StatusBarAlignment.Left, 10);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly quota: QuotaTracker,
    /** The active connection's quota key (connection id and org) and its org. */
    private readonly scope: () => { key: string; org: string } | undefined,
    /** The services' clock. */
    private readonly now: () => Date,
  ) {
    this.item.name = 'Measurements report quota';
    this.item.command = 'measurements.createReport';
    quota.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const scope = this.scope();
    if (!scope) {
      this.item.hide();
      return;
    }
    const { org } = scope;
    const used = this.quota.used(scope.key);
    const now = this.now();
    const reset = nextUtcMidnight(now);
    this.item.text = `$(graph) ${used}/${this.quota.limit} reports`;
    this.item.tooltip = `${org}: ${used} of ${this.quota.limit} daily reports used today (counted here; corrected when the service answers 429). Resets at ${reset.toISOString()} (UTC midnight).`;
    this.item.backgroundColor =
      used >= this.quota.limit ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), Math.max(1000, reset.getTime() - now.getTime() + 1000));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item.dispose();
  }
}
