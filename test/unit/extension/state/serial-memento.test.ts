import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { SerialMemento } from '../../../../src/extension/state/serial-memento';

/**
 * VS Code's global-state memento and the workbench behind it, step by step: a write sets the shared
 * value object and schedules a flush; the flush sends a snapshot; the workbench stores it, echoes the
 * stored object back (which replaces the extension host's whole value object), then replies.
 * (The real one runs in the host lane; this one lets a test choose the interleaving.)
 */
class WorkbenchMemento implements vscode.Memento {
  value: Record<string, unknown> = {};
  persisted: Record<string, unknown> = {};
  failNext = false;
  private readonly steps: (() => void)[] = [];
  private flushScheduled = false;
  private waiting: { resolve: () => void; reject: (e: Error) => void }[] = [];

  keys(): readonly string[] {
    return Object.keys(this.value);
  }
  get<T>(key: string, defaultValue?: T): T {
    return (this.value[key] ?? defaultValue) as T;
  }
  update(key: string, value: unknown): Promise<void> {
    this.value[key] = value;
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.steps.push(() => this.flush());
    }
    return done;
  }
  private flush(): void {
    this.flushScheduled = false;
    const snapshot = structuredClone(this.value);
    const waiting = this.waiting;
    this.waiting = [];
    const fail = this.failNext;
    this.failNext = false;
    this.steps.push(() => {
      if (fail) {
        for (const w of waiting) w.reject(new Error('storage is gone'));
        return;
      }
      this.persisted = snapshot;
      this.steps.push(() => {
        this.value = structuredClone(snapshot); // the echo
      });
      this.steps.push(() => {
        for (const w of waiting) w.resolve(); // the reply
      });
    });
  }
  /** Runs one step, then lets promise callbacks run. */
  async step(): Promise<boolean> {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    const next = this.steps.shift();
    next?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return next !== undefined;
  }
  async settle(): Promise<void> {
    for (let i = 0; i < 10; i++) await Promise.resolve();
    while (await this.step()) {}
  }
  /** Runs steps until the stored value holds `key` (its echo not yet delivered). */
  async untilStored(key: string): Promise<void> {
    while (!(key in this.persisted)) assert.ok(await this.step(), `${key} was never stored`);
  }
}

describe('SerialMemento: global state written one write at a time', () => {
  it('the hazard it exists for: an echo between a write and its flush loses the write', async () => {
    const raw = new WorkbenchMemento();
    void raw.update('measurements.reports', ['r1']);
    await raw.untilStored('measurements.reports');
    void raw.update('measurements.quota', { n: 1 });
    await raw.settle();
    assert.equal(raw.persisted['measurements.quota'], undefined, 'VS Code lost the second write');
  });

  it('keeps every write of the same interleaving, in VS Code and in what it reads', async () => {
    const raw = new WorkbenchMemento();
    const state = new SerialMemento(raw);
    const first = state.update('measurements.reports', ['r1']);
    await raw.untilStored('measurements.reports');
    const second = state.update('measurements.quota', { n: 1 });
    assert.deepEqual(state.get('measurements.quota'), { n: 1 }, 'a write reads back at once');
    await raw.settle();
    await Promise.all([first, second]);
    assert.deepEqual(raw.persisted, { 'measurements.reports': ['r1'], 'measurements.quota': { n: 1 } });
    assert.deepEqual(state.get('measurements.reports'), ['r1']);
    assert.deepEqual([...state.keys()].sort(), ['measurements.quota', 'measurements.reports']);
  });

  it('many writes to several keys in flight: the last value of each key is what VS Code keeps', async () => {
    const raw = new WorkbenchMemento();
    const state = new SerialMemento(raw);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) {
      writes.push(state.update(`k${i % 3}`, i));
      if (i % 4 === 0) await raw.step();
    }
    await raw.settle();
    await Promise.all(writes);
    await state.flushed();
    assert.deepEqual(raw.persisted, { k0: 27, k1: 28, k2: 29 });
    assert.deepEqual(
      ['k0', 'k1', 'k2'].map((k) => state.get(k)),
      [27, 28, 29],
    );
  });

  it('once its writes are done, a key reads VS Code again (where other windows’ writes arrive)', async () => {
    const raw = new WorkbenchMemento();
    const state = new SerialMemento(raw);
    const write = state.update('measurements.keyIndex', ['a']);
    await raw.settle();
    await write;
    await state.flushed();
    raw.value = { ...raw.value, 'measurements.keyIndex': ['a', 'b'] }; // another window's write, echoed here
    assert.deepEqual(state.get('measurements.keyIndex'), ['a', 'b']);
  });

  it('reads keys it never wrote from VS Code, with the default when absent', async () => {
    const raw = new WorkbenchMemento();
    raw.value['from.elsewhere'] = 'x';
    const state = new SerialMemento(raw);
    assert.equal(state.get('from.elsewhere'), 'x');
    assert.deepEqual(state.get('missing', []), []);
    assert.equal(state.get('missing'), undefined);
  });

  it('a failed write is reported to its caller and does not block the writes after it', async () => {
    const raw = new WorkbenchMemento();
    const state = new SerialMemento(raw);
    raw.failNext = true;
    const failed = state.update('a', 1);
    const later = state.update('b', 2);
    await raw.settle();
    await assert.rejects(failed, /storage is gone/);
    await raw.settle();
    await later;
    assert.equal(raw.persisted.b, 2);
  });
});
