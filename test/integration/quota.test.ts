import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { QuotaTracker } from '../../src/extension/quota/quota-tracker';

/** An in-memory Memento (the tracker's state), so the test controls the clock without waiting. */
function memento(): vscode.Memento {
  const m = new Map<string, unknown>();
  return {
    keys: () => [...m.keys()],
    get: <T>(k: string, d?: T) => (m.has(k) ? (m.get(k) as T) : d) as T,
    update: async (k: string, v: unknown) => {
      m.set(k, v);
    },
  } as vscode.Memento;
}

describe('quota: reports used today per org', () => {
  it('counts creations, is corrected to all used by a 429, and resets at UTC midnight', async () => {
    let now = new Date('2026-11-20T23:00:00Z');
    const q = new QuotaTracker(memento(), () => now);
    await q.recordCreated('conn|org-a');
    await q.recordCreated('conn|org-a');
    assert.equal(q.used('conn|org-a'), 2);
    assert.equal(q.used('conn|org-b'), 0, 'counted per org');
    const resetAt = new Date('2026-11-21T00:00:00Z');
    await q.recordExhausted('conn|org-a', resetAt);
    assert.equal(q.used('conn|org-a'), 30);
    assert.equal(q.remaining('conn|org-a'), 0);
    assert.equal(q.resetAt('conn|org-a')?.toISOString(), resetAt.toISOString());
    now = new Date('2026-11-21T00:00:01Z');
    assert.equal(q.used('conn|org-a'), 0, 'a new UTC day starts from zero');
    assert.equal(q.resetAt('conn|org-a'), undefined);
    q.dispose();
  });
});
