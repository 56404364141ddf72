import assert from 'node:assert/strict';
import { readDatasourceDetail, readDatasourceInfo, readDatasourceList } from '../../../../src/core/api/datasources';
import { isMeasurementsError } from '../../../../src/core/api/errors';

const good = {
  datasourceId: 'D1',
  orgAnnotations: { group: 'Harbour', name: 'Pier', tags: ['outdoor'] },
  currentSubscriptionId: 'S1',
  currentSourceId: 'A1',
  sourceType: 'SERVICE_NODE',
};

describe('datasource replies: typed before use', () => {
  it('keeps a well-formed entry as it is, extra fields included', () => {
    assert.deepEqual(readDatasourceInfo({ ...good, location: { lat: 1, lon: 2 } }), {
      ...good,
      location: { lat: 1, lon: 2 },
    });
  });

  it('replaces wrong-typed fields and drops entries without a usable datasourceId', () => {
    const odd = readDatasourceInfo({
      datasourceId: 'D2',
      orgAnnotations: { group: 7, name: { x: 1 }, tags: ['a', 3, null, 'b'] },
      currentSourceId: 'has space',
      sourceType: 42,
    });
    assert.deepEqual(odd?.orgAnnotations, { group: null, name: '', tags: ['a', 'b'] });
    assert.equal(odd?.currentSourceId, '');
    assert.equal(odd?.sourceType, '');
    assert.equal(odd?.currentSubscriptionId, '');
    for (const bad of [
      null,
      'D1',
      [],
      { datasourceId: 5 },
      { datasourceId: '' },
      { datasourceId: 'a\nb' },
      { datasourceId: 'x'.repeat(201) },
    ]) {
      assert.equal(readDatasourceInfo(bad), undefined, JSON.stringify(bad).slice(0, 40));
    }
    const list = readDatasourceList({ datasources: [good, { datasourceId: 9 }, 'x'] }, 'org-a');
    assert.deepEqual(list, { subscribingOrg: 'org-a', datasources: [good] });
    assert.deepEqual(readDatasourceList('nonsense', 'o'), { subscribingOrg: 'o', datasources: [] });
    assert.equal(
      readDatasourceInfo({ ...good, orgAnnotations: { tags: Array(80).fill('t') } })?.orgAnnotations.tags.length,
      50,
    );
  });

  it('reads the wrapped detail reply (and a bare one); refuses one without an id or with another id', () => {
    assert.equal(readDatasourceDetail({ datasource: good }, 'D1').datasourceId, 'D1');
    assert.equal(readDatasourceDetail(good, 'D1').datasourceId, 'D1');
    assert.throws(
      () => readDatasourceDetail({ datasource: {} }, 'D1'),
      (e) => isMeasurementsError(e, 'SERVER_ERROR'),
    );
    assert.throws(
      () => readDatasourceDetail({ datasource: good }, 'D9'),
      (e) => isMeasurementsError(e, 'SERVER_ERROR'),
    );
  });
});
