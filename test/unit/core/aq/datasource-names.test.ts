// What the host ships to the renderer from the connection's datasources: names of the result's ids (bounded),
// and reference sites only for results without their own sourceType column; the renderer keeps only strings.
import assert from 'node:assert/strict';
import type { DatasourceInfo } from '../../../../src/core/api/types';
import { datasourceNames, MAX_NAME_LENGTH, resultDatasourceInfo } from '../../../../src/core/aq/datasource-names';
import type { Table } from '../../../../src/core/table/table';
import { datasourceNameMap } from '../../../../src/renderer/model/aq-views';

const info = (id: string, name: string, sourceType = 'SENSOR'): DatasourceInfo => ({
  datasourceId: id,
  orgAnnotations: { group: null, name, tags: [] },
  currentSubscriptionId: 's',
  currentSourceId: 'x',
  sourceType,
});

describe('core aq: datasource names for the renderer', () => {
  const list = [info('D1', 'Roof'), info('R1', 'City hall', 'REFERENCE_SITE'), info('X9', 'Not in the result')];

  it('names of the ids in the result only, each once, cut to the maximum length; empty names left out', () => {
    assert.deepEqual(datasourceNames(list, ['R1', 'D1', 'D1', 'ZZ']), { R1: 'City hall', D1: 'Roof' });
    assert.deepEqual(datasourceNames([info('A', '  ')], ['A']), {});
    assert.equal(datasourceNames([info('A', 'x'.repeat(500))], ['A']).A.length, MAX_NAME_LENGTH);
    assert.deepEqual(Object.keys(datasourceNames(list, ['D1', 'R1'], 1)), ['D1'], 'bounded in count');
  });

  it('reference sites only without a sourceType column; names and line style slots either way', () => {
    // Slots over the whole list D1, R1, X9: each its FNV-1a colour (idHash % 15: D1 0, R1 10, X9 free too).
    const datasourceStyles = { D1: 0, R1: 10 };
    assert.deepEqual(resultDatasourceInfo(list, ['D1', 'R1'], false), {
      referenceSites: ['R1'],
      datasourceNames: { D1: 'Roof', R1: 'City hall' },
      datasourceStyles,
    });
    assert.deepEqual(resultDatasourceInfo(list, ['D1', 'R1'], true), {
      datasourceNames: { D1: 'Roof', R1: 'City hall' },
      datasourceStyles,
    });
  });

  it('the renderer: a name column of the result first, else the host map (strings only)', () => {
    const ids = {
      name: 'datasourceId',
      kind: 'identifier' as const,
      dict: ['D1', 'R1'],
      codes: Int32Array.from([0, 1, 0]),
    };
    const bare: Table = { columns: [ids], rowCount: 3 };
    assert.deepEqual([...datasourceNameMap(bare, { D1: 'Roof', R1: 42, __proto__: 'x' })], [['D1', 'Roof']]);
    assert.deepEqual([...datasourceNameMap(bare, ['D1'])], [], 'not a map: ignored');
    const named: Table = {
      columns: [
        ids,
        { name: 'datasourceName', kind: 'text', dict: ['Roof A', 'Hall'], codes: Int32Array.from([0, 1, 0]) },
      ],
      rowCount: 3,
    };
    assert.deepEqual(
      [...datasourceNameMap(named, { D1: 'other' })],
      [
        ['D1', 'Roof A'],
        ['R1', 'Hall'],
      ],
    );
  });
});
