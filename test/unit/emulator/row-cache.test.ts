// The formatted-row cache stays within its character budget and its number of query shapes.
import assert from 'node:assert/strict';
import { RowTextCache } from '../../../src/emulator/row-cache';

describe('emulator row text cache', () => {
  it('evicts the oldest rows first to stay within its character budget', () => {
    const cache = new RowTextCache(800);
    const rows = cache.rowsOf('shape');
    for (let period = 0; period < 100; period++) cache.set(rows, 1, period, 'x'.repeat(80));
    // 800 characters hold the 10 newest rows of 80.
    assert.equal(cache.get(rows, 1, 89), undefined);
    for (let period = 90; period < 100; period++) assert.equal(cache.get(rows, 1, period)?.length, 80);
  });

  it('does not keep rows bigger than an eighth of the budget', () => {
    const cache = new RowTextCache(800);
    const rows = cache.rowsOf('shape');
    cache.set(rows, 1, 1, 'y'.repeat(101));
    assert.equal(cache.get(rows, 1, 1), undefined);
    cache.set(rows, 1, 2, 'y'.repeat(100));
    assert.equal(cache.get(rows, 1, 2)?.length, 100);
  });

  it('remembers a bounded number of query shapes', () => {
    const cache = new RowTextCache(1_000_000);
    const first = cache.rowsOf('shape-0');
    cache.set(first, 1, 1, 'row');
    assert.equal(cache.get(cache.rowsOf('shape-0'), 1, 1), 'row');
    for (let i = 1; i <= 64; i++) cache.rowsOf(`shape-${i}`);
    assert.equal(cache.get(cache.rowsOf('shape-0'), 1, 1), undefined, 'the oldest shape was forgotten');
  });
});
