import assert from 'node:assert/strict';
import {
  DatasourceDirectory,
  type DatasourceFetcher,
  referenceSites,
} from '../../../../src/core/api/datasource-directory';
import type { DatasourceInfo } from '../../../../src/core/api/types';

function info(id: string): DatasourceInfo {
  return {
    datasourceId: id,
    orgAnnotations: { group: null, name: `name of ${id}`, tags: [] },
    currentSubscriptionId: `S${id}`,
    currentSourceId: `A${id}`,
    sourceType: 'SERVICE_NODE',
  };
}

/** A fetcher that records each call; `fail` makes the next calls fail. */
function recording() {
  const calls: string[] = [];
  let fail = false;
  const fetcher: DatasourceFetcher = {
    list: async () => {
      calls.push('list');
      if (fail) throw new Error('offline');
      return [info('D1'), info('D2')];
    },
    detail: async (id) => {
      calls.push(id);
      if (fail) throw new Error('offline');
      return info(id);
    },
  };
  return { calls, fetcher, setFail: (f: boolean) => (fail = f) };
}

describe('datasource directory: list and details cached by time, bounded, failures not kept', () => {
  it('fetches the list and each detail once within the time to live, again after it', async () => {
    let now = 1_000_000;
    const r = recording();
    const dir = new DatasourceDirectory(r.fetcher, { nowMs: () => now }, { ttlMs: 60_000 });
    await Promise.all([dir.list(), dir.list()]);
    assert.equal((await dir.detail('D1')).orgAnnotations.name, 'name of D1');
    await dir.detail('D1');
    assert.deepEqual(r.calls, ['list', 'D1']);
    now += 59_999;
    await dir.list();
    await dir.detail('D1');
    assert.deepEqual(r.calls, ['list', 'D1']);
    now += 1;
    await dir.list();
    await dir.detail('D1');
    assert.deepEqual(r.calls, ['list', 'D1', 'list', 'D1']);
  });

  it('cached: the list once it arrived and while fresh, never a request; nothing after a failure', async () => {
    let now = 0;
    const r = recording();
    const dir = new DatasourceDirectory(r.fetcher, { nowMs: () => now }, { ttlMs: 60_000 });
    assert.equal(dir.cached(), undefined, 'nothing asked yet');
    assert.deepEqual(r.calls, [], 'cached() asks nothing');
    const pending = dir.list();
    assert.equal(dir.cached(), undefined, 'not arrived yet');
    await pending;
    assert.deepEqual(
      dir.cached()?.map((d) => d.datasourceId),
      ['D1', 'D2'],
    );
    now += 60_000;
    assert.equal(dir.cached(), undefined, 'stale');
    r.setFail(true);
    await dir.list().catch(() => undefined);
    assert.equal(dir.cached(), undefined, 'a failure is not a list');
    assert.deepEqual(r.calls, ['list', 'list']);
  });

  it('keeps at most maxDetails datasources, dropping the oldest', async () => {
    const r = recording();
    const dir = new DatasourceDirectory(r.fetcher, { nowMs: () => 0 }, { maxDetails: 2 });
    for (const id of ['D1', 'D2', 'D3', 'D3', 'D2', 'D1']) await dir.detail(id);
    assert.deepEqual(r.calls, ['D1', 'D2', 'D3', 'D1']);
  });

  it('does not keep a failure: the next request asks again', async () => {
    const r = recording();
    const dir = new DatasourceDirectory(r.fetcher, { nowMs: () => 0 });
    r.setFail(true);
    await assert.rejects(dir.list(), /offline/);
    await assert.rejects(dir.detail('D1'), /offline/);
    r.setFail(false);
    assert.equal((await dir.list()).length, 2);
    assert.equal((await dir.detail('D1')).datasourceId, 'D1');
    assert.deepEqual(r.calls, ['list', 'D1', 'list', 'D1']);
  });

  it('referenceSites: the ids of a result that are reference sites, sorted, each once', () => {
    const list = [
      info('D1'),
      { ...info('R2'), sourceType: 'REFERENCE_SITE' },
      { ...info('R1'), sourceType: 'REFERENCE_SITE' },
    ];
    assert.deepEqual(referenceSites(list, ['R2', 'D1', 'R1', 'R2', 'X9']), ['R1', 'R2']);
    assert.deepEqual(referenceSites(list, ['D1']), []);
  });
});
