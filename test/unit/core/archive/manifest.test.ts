import assert from 'node:assert/strict';
import { emptyManifest, parseManifest } from '../../../../src/core/archive/manifest';

describe('core/archive/manifest: the archive folder state, read as hostile input', () => {
  it('reads back what it writes', () => {
    const m = emptyManifest();
    m.partitions['hour/D1/2026-03'] = {
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-04-01T00:00:00.000Z',
      rows: 744,
      reportId: 'R1',
    };
    m.pending['hour/2026-04'] = { reportId: 'R2', datasourceIds: ['D1'], from: 'a', to: 'b' };
    m.reports = { day: '2026-11-20', created: 3, spent: false };
    assert.deepEqual(parseManifest(JSON.stringify(m)), m);
  });

  it('refuses anything else with ARCHIVE_MANIFEST and says why', () => {
    const ok = JSON.parse(JSON.stringify(emptyManifest()));
    const cases: [unknown, RegExp][] = [
      ['not json', /not JSON/],
      [{ ...ok, format: 'x' }, /format/],
      [{ ...ok, version: 2 }, /version 2/],
      [{ ...ok, partitions: { k: { from: 'a', to: 'b', rows: -1, reportId: 'r' } } }, /partition "k" is malformed/],
      [{ ...ok, partitions: { k: { from: 'a', to: 'b', rows: 1.5, reportId: 'r' } } }, /malformed/],
      [{ ...ok, pending: { k: { reportId: 'r', from: 'a', to: 'b', datasourceIds: [1] } } }, /pending report/],
      [{ ...ok, reports: { day: 'x', created: '3', spent: false } }, /reports/],
      [[], /format/],
    ];
    for (const [value, message] of cases) {
      assert.throws(
        () => parseManifest(typeof value === 'string' ? value : JSON.stringify(value)),
        (e: Error & { code?: string }) => e.code === 'ARCHIVE_MANIFEST' && message.test(e.message),
        JSON.stringify(value),
      );
    }
  });
});
