// Status bar item: "reports used today / 30" for the active connection's org; refreshed when the count
// changes, when the connection changes and at the next UTC midnight (when the quota resets). The text
// itself says when the count is only what this machine made (`3/30 reports (this machine)`); after the
// service's 429 it is exact (`30/30 reports`).
import * as vscode from 'vscode';
import { nextUtcMidnight } from '../../core/api/errors';
import type { QuotaTracker } from './quota-tracker';

/** What the count is and is not: reports made elsewhere are only seen once the service answers 429. */
export function quotaTooltip(org: string, used: number, limit: number, reset: Date, fromService: boolean): string {
  return [
    `${org}: ${used} of ${limit} daily reports used today, counted on this machine.`,
    fromService
      ? `The service answered 429 (none left): counted as ${limit}/${limit} until the reset.`
      : 'Reports created elsewhere (another machine, a script) are not counted here until the service answers 429; then it shows all used until the reset.',
    `Resets at ${reset.toISOString()} (UTC midnight).`,
  ].join('\n\n');
}

/** The status bar text: exact once the service said (a 429), else marked as this machine's count. */
function quotaText(used: number, limit: number, fromService: boolean): string {
  return `$(graph) ${used}/${limit} reports${fromService ? '' : ' (this machine)'}`;
}

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
    const fromService = this.quota.resetAt(scope.key) !== undefined;
    this.item.text = quotaText(used, this.quota.limit, fromService);
    this.item.tooltip = quotaTooltip(org, used, this.quota.limit, reset, fromService);
    this.item.accessibilityInformation = {
      label: `${used} of ${this.quota.limit} reports used today, ${fromService ? 'as the service said' : 'counted on this machine'}`,
    };
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
