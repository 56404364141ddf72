import assert from 'node:assert/strict';
import { MeasurementsError } from '../../../../src/core/api/errors';
import type { DatasourceInfo } from '../../../../src/core/api/types';
import { type DatasourceLookup, datasourceMarkdown, describeId } from '../../../../src/core/query';

const node: DatasourceInfo = {
  datasourceId: 'D1',
  orgAnnotations: { group: 'Harbour', name: 'Pier 4', tags: ['outdoor', 'school'] },
  currentSubscriptionId: 'S1',
  currentSourceId: 'A1',
  sourceType: 'SERVICE_NODE',
};
const site: DatasourceInfo = { ...node, datasourceId: 'D2', currentSourceId: 'R2', sourceType: 'REFERENCE_SITE' };

/** An in-memory service: the list and details of `all`; `error` makes every call fail with it. */
function lookup(all: DatasourceInfo[], error?: Error): DatasourceLookup & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    list: async () => {
      asked.push('list');
      if (error) throw error;
      return all;
    },
    detail: async (id) => {
      asked.push(id);
      if (error) throw error;
      const d = all.find((x) => x.datasourceId === id);
      if (!d) throw new MeasurementsError('NOT_FOUND', `Datasource ${id} was not found (404).`, { status: 404 });
      return d;
    },
  };
}

describe('ids in cells: hover text', () => {
  it('shows name, datasource, group, tags and source of a datasource', () => {
    assert.equal(
      datasourceMarkdown(node),
      ['**Pier 4**', 'Datasource: D1', 'Group: Harbour', 'Tags: outdoor, school', 'Source: SERVICE\\_NODE A1'].join(
        '\n\n',
      ),
    );
    const bare = { ...node, orgAnnotations: { group: null, name: '', tags: [] } };
    assert.match(datasourceMarkdown(bare), /\(no name\)[\s\S]*Group: \(none\)[\s\S]*Tags: \(none\)/);
  });

  it('escapes and bounds hostile names, groups and tags', () => {
    const evil: DatasourceInfo = {
      ...node,
      orgAnnotations: {
        name: `[run](command:workbench.action.terminal.new)<img src=x onerror=alert(1)>${'x'.repeat(300)}`,
        group: '**bold**\n# heading',
        tags: ['`t`', ...Array(30).fill('t')],
      },
    };
    const md = datasourceMarkdown(evil);
    assert.ok(md.includes('\\[run\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)\\<img'), md.slice(0, 120));
    assert.ok(md.includes('Group: \\*\\*bold\\*\\* \\# heading'));
    assert.ok(md.includes('\\`t\\`'));
    assert.ok(md.includes('(and 11 more)'));
    assert.ok(md.split('\n\n')[0].length < 200, 'the name is bounded');
  });

  it('describes a datasource id by its detail, node and site ids through the list, of the right type only', async () => {
    const l = lookup([node, site]);
    assert.match(await describeId('datasourceIds', 'D2', l), /Source: REFERENCE\\_SITE R2/);
    assert.match(await describeId('nodeIds', 'A1', l), /\*\*Pier 4\*\*[\s\S]*Datasource: D1/);
    assert.match(await describeId('refSiteIds', 'R2', l), /Datasource: D2/);
    assert.deepEqual(l.asked, ['D2', 'list', 'D1', 'list', 'D2']);
    assert.equal(
      await describeId('refSiteIds', 'A1', l),
      'A1: no datasource of this connection has this reference site id.',
    );
  });

  it('says briefly why an id cannot be shown (404, offline) instead of throwing', async () => {
    assert.equal(
      await describeId('datasourceIds', 'DX', lookup([node])),
      'DX: could not look up this datasource id: not found on this connection (404).',
    );
    const offline = lookup([], new MeasurementsError('NETWORK', 'connect ECONNREFUSED 127.0.0.1:9'));
    assert.equal(
      await describeId('nodeIds', 'A1', offline),
      'A1: could not look up this node id: the service is not reachable.',
    );
    const odd = lookup([], new Error('<b>boom</b>'));
    assert.equal(
      await describeId('datasourceIds', 'D1', odd),
      'D1: could not look up this datasource id: \\<b\\>boom\\<\\/b\\>',
    );
  });
});
