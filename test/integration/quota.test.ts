import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReportRecord } from '../../src/core/api/types';
import { quotaTooltip } from '../../src/extension/quota/quota-status';
import { checkQuotaMark, QuotaTracker } from '../../src/extension/quota/quota-tracker';
import { checkTrackedReport, ReportsStore } from '../../src/extension/reports/reports-store';
import { SharedRecords } from '../../src/extension/state/shared-records';
import { eventually } from './helpers';

/**
 * One VS Code window's view of the shared records: its own stores, each with its own cache, over the
 * folders every window of the same user data uses (what two browser tabs on one code-server have).
 */
function openWindow(root: string, now: () => Date) {
  const quota = new QuotaTracker(new SharedRecords(path.join(root, 'quota'), checkQuotaMark), now);
  const reports = new ReportsStore(new SharedRecords(path.join(root, 'reports'), checkTrackedReport), now);
  return {
    quota,
    reports,
    dispose: () => {
      quota.dispose();
      reports.dispose();
    },
  };
}

const record = (reportId: string): ReportRecord =>
  ({ reportId, report: 'datasource-measurements', reportStatus: 'in-progress', query: {} }) as ReportRecord;

describe('quota: reports used today per org', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-shared-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('counts creations, is corrected to all used by a 429, and resets at UTC midnight', async () => {
    let now = new Date('2026-11-20T23:00:00Z');
    const w = openWindow(root, () => now);
    try {
      const q = w.quota;
      await q.recordCreated('conn|org-a');
      await q.recordCreated('conn|org-a');
      assert.equal(q.used('conn|org-a'), 2);
      assert.equal(q.used('conn|org-b'), 0, 'counted per org');
      const resetAt = new Date('2026-11-21T00:00:00Z');
      await q.recordExhausted('conn|org-a', resetAt);
      assert.equal(q.used('conn|org-a'), 30);
      assert.equal(q.remaining('conn|org-a'), 0);
      assert.equal(q.resetAt('conn|org-a')?.toISOString(), resetAt.toISOString());
      // The quota line says what the count is: this machine's, corrected by the service's 429.
      const tip = quotaTooltip('org-a', q.used('conn|org-a'), q.limit, resetAt, q.resetAt('conn|org-a') !== undefined);
      assert.match(tip, /^org-a: 30 of 30 daily reports used today, counted on this machine\./);
      assert.match(tip, /The service answered 429 \(none left\): counted as 30\/30 until the reset/);
      assert.match(quotaTooltip('org-b', 2, 30, resetAt, false), /not counted here until the service answers 429/);
      now = new Date('2026-11-21T00:00:01Z');
      assert.equal(q.used('conn|org-a'), 0, 'a new UTC day starts from zero');
      assert.equal(q.resetAt('conn|org-a'), undefined);
    } finally {
      w.dispose();
    }
  });

  it('two windows creating reports at the same time: each window lists both reports and counts 2', async () => {
    const now = () => new Date('2026-11-20T10:00:00Z');
    const a = openWindow(root, now);
    const b = openWindow(root, now);
    try {
      // Both windows start from the same state, then each creates a report (and counts it) at once.
      await Promise.all([
        a.reports.track(record('R-A'), 'conn').then(() => a.quota.recordCreated('conn|org')),
        b.reports.track(record('R-B'), 'conn').then(() => b.quota.recordCreated('conn|org')),
      ]);
      for (const [name, w] of [
        ['first', a],
        ['second', b],
      ] as const) {
        await eventually(
          () =>
            w.reports
              .forConnection('conn')
              .map((t) => t.reportId)
              .sort()
              .join(',') === 'R-A,R-B' && w.quota.used('conn|org') === 2,
          () =>
            `the ${name} window to list both reports and count 2 (lists ${w.reports.forConnection('conn').map((t) => t.reportId)}, counts ${w.quota.used('conn|org')})`,
        );
      }
      // A later update in one window (a status change) keeps the other window's report.
      await a.reports.update('conn', 'R-A', (t) => ({ ...t, record: { ...t.record, reportStatus: 'succeeded' } }));
      await eventually(
        () => b.reports.get('conn', 'R-A')?.record.reportStatus === 'succeeded',
        'the second window to see the update',
      );
      assert.ok(a.reports.get('conn', 'R-B'), "the first window still has the second window's report");
      // A damaged record (a hand edit, a half-written file of an old version) is left out, not shown half.
      fs.writeFileSync(path.join(a.reports.records.dir, 'junk.json'), '{"key": 1');
      a.reports.records.reload();
      assert.equal(a.reports.all().length, 2);
    } finally {
      a.dispose();
      b.dispose();
    }
  });
});
