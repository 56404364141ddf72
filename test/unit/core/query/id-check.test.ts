import assert from 'node:assert/strict';
import type { DatasourceInfo } from '../../../../src/core/api/types';
import { quickFixes, unknownIdDiagnostics } from '../../../../src/core/query';

const ds = (datasourceId: string, currentSourceId: string, sourceType: string): DatasourceInfo => ({
  datasourceId,
  orgAnnotations: { group: null, name: datasourceId, tags: [] },
  currentSubscriptionId: 'S',
  currentSourceId,
  sourceType,
});
const LIST = [
  ds('DABC1234', 'A111', 'SERVICE_NODE'),
  ds('DABC1235', 'A112', 'SERVICE_NODE'),
  ds('DXYZ9999', 'R900', 'REFERENCE_SITE'),
  ds('DQQQ0000', 'A300', 'SERVICE_NODE'),
];

describe('core/query unknown ids: a warning with the closest ids of the connection', () => {
  it('an unknown datasource id: a warning at its place naming the closest three, and a quick fix to the closest', () => {
    const text = 'recent\ndatasourceIds: DABC1234, DABC1236,\n  DXYZ9999';
    const [w, ...more] = unknownIdDiagnostics(text, LIST);
    assert.deepEqual(more, [], 'known ids, also on a continuation line, are fine');
    assert.equal(w.severity, 'warning');
    assert.equal(w.code, 'unknown-id');
    assert.deepEqual(w.range, { start: { line: 1, column: 25 }, end: { line: 1, column: 33 } });
    assert.equal(
      w.message,
      "no datasource of this connection has the datasource id 'DABC1236'; closest: DABC1234, DABC1235, DQQQ0000",
    );
    const [fix] = quickFixes(text, [w]);
    assert.equal(fix.newText, 'DABC1234');
  });

  it('nodeIds and refSiteIds are the source ids of their source type', () => {
    const text = 'recent\nnodeIds: A111, R900\nrefSiteIds: R900, A111';
    const ws = unknownIdDiagnostics(text, LIST);
    assert.deepEqual(
      ws.map((w) => w.message.split(';')[0]),
      [
        "no datasource of this connection has the node id 'R900'",
        "no datasource of this connection has the reference site id 'A111'",
      ],
    );
  });

  it('nothing without a list (none cached), nothing for other keys or comments', () => {
    assert.deepEqual(unknownIdDiagnostics('recent\ndatasourceIds: DNOPE', []), []);
    assert.deepEqual(unknownIdDiagnostics('recent\nallDatasources: true # DNOPE\nmetricSelect: DNOPE', LIST), []);
  });
});
