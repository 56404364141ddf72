import assert from 'node:assert/strict';
import { api } from './helpers';

describe('global state in a real extension host', () => {
  it('writes in flight to several keys all reach VS Code, each key keeping its last value', async () => {
    const a = await api();
    const keys = ['measnb.test.a', 'measnb.test.b', 'measnb.test.c'];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      writes.push(a.globalState.update(keys[i % 3], { i }));
      // Let some echoes of earlier writes arrive between later ones, as timers and requests do.
      if (i % 7 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(writes);
    await a.globalState.flushed();
    assert.deepEqual(
      keys.map((k) => a.globalState.get(k)),
      [{ i: 57 }, { i: 58 }, { i: 59 }],
    );
    assert.deepEqual(
      keys.map((k) => a.persistedState.get(k)),
      [{ i: 57 }, { i: 58 }, { i: 59 }],
      'VS Code holds the last value of every key',
    );
    for (const k of keys) await a.globalState.update(k, undefined);
  });
});
