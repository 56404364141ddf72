import assert from 'node:assert/strict';
import type { DatasourceInfo } from '../../../../src/core/api/types';
import { completeAt, completionContextAt, hoverAt, idAt } from '../../../../src/core/query';
import { NOW } from '../../../support/now';

const at = (line: number, column: number) => ({ line, column });
const now = new Date(NOW);

describe('query language: completion and hover', () => {
  it('offers verbs on the first line', async () => {
    const items = await completeAt('', at(0, 0), { now });
    const labels = items.map((i) => i.label);
    for (const v of ['recent', 'follow', 'datasources', 'report node-measurements']) assert.ok(labels.includes(v), v);
  });

  it('offers report kinds after report', async () => {
    const items = await completeAt('report ', at(0, 7), { now });
    assert.deepEqual(
      items.map((i) => i.label),
      ['datasource-measurements', 'node-measurements', 'reference-site-measurements'],
    );
  });

  it('offers only the keys of the verb that are not written yet, with docs', async () => {
    const items = await completeAt('recent\nformat: csv-wide\n', at(2, 0), { now });
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('datasourceIds'));
    assert.ok(labels.includes('locationRounding'));
    assert.ok(!labels.includes('format'), 'already written');
    assert.ok(!labels.includes('endTime'), 'not a recent field');
    assert.ok(!labels.includes('metricLabelStyle'));
    const ds = items.find((i) => i.label === 'datasourceIds');
    assert.match(ds?.documentation ?? '', /GET \/v2\/datasources/);
    const rep = (await completeAt('report node-measurements\n', at(1, 0), { now })).map((i) => i.label);
    assert.ok(rep.includes('nodeIds') && rep.includes('endTime') && !rep.includes('datasourceIds'));
  });

  it('offers enum values, booleans, times and metric labels for the key', async () => {
    const freq = await completeAt('recent\noutputFrequency: ', at(1, 17), { now });
    assert.deepEqual(
      freq.map((i) => i.label),
      ['minute', 'hour', 'day'],
    );
    assert.deepEqual(
      (await completeAt('recent\nqcFlags: ', at(1, 9), { now })).map((i) => i.label),
      ['true', 'false'],
    );
    const times = (await completeAt('recent\nstartTime: ', at(1, 11), { now })).map((i) => i.label);
    assert.ok(times.includes('-6h') && times.includes('today'));
    // Today's date is the clock's (the caller's `now`), not the machine's.
    assert.ok(times.includes('2026-11-20') && times.includes('2026-11-20T00:00:00Z'), times.join());
    const metrics = (await completeAt('recent\noutputFrequency: hour\nmetricSelect: only ', at(2, 19), { now })).map(
      (i) => i.label,
    );
    assert.ok(metrics.includes('pm2_5ConcMassNowcast'));
    assert.ok(metrics.includes(':pollutant'));
    const minute = (await completeAt('recent\nmetricSelect: only ', at(1, 19), { now })).map((i) => i.label);
    assert.ok(!minute.includes('pm2_5ConcMassNowcast'), 'no NowCast at minute output');
  });

  it('offers datasource ids from the provider, minus those already listed, also on continuation lines', async () => {
    const provider = () => [
      ds('D1', 'SERVICE_NODE', 'A1'),
      ds('D2', 'REFERENCE_SITE', 'R2'),
      ds('D3', 'SERVICE_NODE', 'A3'),
    ];
    const items = await completeAt('recent\ndatasourceIds: D1, ', at(1, 19), { now, datasources: provider });
    assert.deepEqual(
      items.map((i) => i.label),
      ['D2', 'D3'],
    );
    const ctx = completionContextAt('recent\ndatasourceIds: D1,\n  ', at(2, 2));
    assert.equal(ctx.kind === 'value' && ctx.key, 'datasourceIds');
  });

  it('nodeIds offers only node source ids, refSiteIds only reference site ids, each with name, type and group', async () => {
    const provider = () => [
      ds('D1', 'SERVICE_NODE', 'A1', 'Roof'),
      ds('D2', 'REFERENCE_SITE', 'R2', 'Airport'),
      ds('D3', 'SERVICE_NODE', 'A3'),
      ds('D4', 'SERVICE_NODE', ''),
    ];
    const nodes = await completeAt('report node-measurements\nnodeIds: A3, ', at(1, 13), {
      now,
      datasources: provider,
    });
    assert.deepEqual(
      nodes.map((i) => [i.label, i.insertText]),
      [['A1', 'A1']],
    );
    assert.equal(nodes[0].detail, 'Roof · SERVICE_NODE · Downtown');
    assert.match(nodes[0].documentation ?? '', /Datasource: D1/);
    const sites = await completeAt('report reference-site-measurements\nrefSiteIds: ', at(1, 12), {
      now,
      datasources: provider,
    });
    assert.deepEqual(
      sites.map((i) => i.label),
      ['R2'],
    );
    const all = await completeAt('recent\ndatasourceIds: ', at(1, 15), { now, datasources: provider });
    assert.deepEqual(
      all.map((i) => i.label),
      ['D1', 'D2', 'D3', 'D4'],
    );
  });

  it('finds the id under a position in id keys, also on continuation lines, never in other keys or comments', () => {
    const text = 'report node-measurements\nnodeIds: A1, A22,\n  A3 # x\nstartTime: -2d';
    assert.deepEqual(idAt(text, at(1, 14)), {
      key: 'nodeIds',
      id: 'A22',
      range: { start: { line: 1, column: 13 }, end: { line: 1, column: 16 } },
    });
    assert.equal(idAt(text, at(2, 3))?.id, 'A3');
    assert.equal(idAt(text, at(1, 3)), undefined, 'the key itself');
    assert.equal(idAt(text, at(2, 7)), undefined, 'a comment');
    assert.equal(idAt(text, at(3, 12)), undefined, 'not an id key');
  });

  it('offers nothing inside comments', async () => {
    assert.deepEqual(await completeAt('recent\n# datasourceIds: ', at(1, 18), { now }), []);
  });

  it('hovers keys with the interface documentation, verbs, and relative times', () => {
    const h = hoverAt('recent\nlocationRounding: 3', at(1, 3), { now });
    assert.match(h?.contents ?? '', /Default 5 for json-long, 6 for csv-wide/);
    assert.deepEqual(h?.range, { start: { line: 1, column: 0 }, end: { line: 1, column: 16 } });
    const r = hoverAt('report node-measurements\nstartTime: -1d', at(1, 2), { now });
    assert.match(r?.contents ?? '', /inclusive/);
    assert.match(hoverAt('follow every 5m', at(0, 2), { now })?.contents ?? '', /continuation token/);
    const t = hoverAt('recent\nstartTime: -6h', at(1, 12), { now: new Date('2026-11-21T12:00:00Z') });
    assert.match(t?.contents ?? '', /2026-11-21T06:00:00.000Z/);
    const m = hoverAt('recent\nmetricSelect: only pm2_5ConcMassNowcastUsEpaAqi', at(1, 25), { now });
    assert.match(m?.contents ?? '', /PM 2.5 mass concentration/);
  });
});

function ds(datasourceId: string, sourceType: string, currentSourceId: string, name = ''): DatasourceInfo {
  return {
    datasourceId,
    orgAnnotations: { group: 'Downtown', name, tags: [] },
    currentSubscriptionId: `S${datasourceId}`,
    currentSourceId,
    sourceType,
  };
}
